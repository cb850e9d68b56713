"""``composer-server`` (= ``python -m composer_app.server``): serve, create-token, migrate.

Invariants: ``create-token`` prints the token once (only its SHA-256 is stored); every subcommand
works on SQLite in ``--data-dir`` or on PostgreSQL with ``--database-url``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

DEFAULT_DATA_DIR = "composer-server-data"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="composer-server",
                                     description="The Composer thread server.")
    sub = parser.add_subparsers(dest="command", required=True)

    def storage(p: argparse.ArgumentParser) -> None:
        p.add_argument("--data-dir", default=os.environ.get("COMPOSER_SERVER_DATA_DIR",
                                                            DEFAULT_DATA_DIR))
        p.add_argument("--database-url", default=os.environ.get("COMPOSER_DATABASE_URL"),
                       help="postgresql+psycopg://… (default: SQLite in --data-dir)")
        p.add_argument("--storage-dir", default=None,
                       help="attachment storage shared by all server processes")

    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument("--log-level", default="info")
    storage(serve)
    serve.add_argument("--workspace-root", action="append", default=[], type=Path,
                       metavar="DIR", help="a folder thread workspaces may lie in (repeatable)")
    serve.add_argument("--allow-commands", action="store_true",
                       help="let clients run shell commands in thread workspaces (as this user)")
    serve.add_argument("--skills-dir", type=Path, default=None, metavar="DIR",
                       help="folder of skills (default: <data-dir>/skills)")
    from composer_app.server.providers.registry import add_provider_arguments

    add_provider_arguments(serve)
    token = sub.add_parser("create-token", help="create a device token for a user")
    token.add_argument("--user", required=True)
    token.add_argument("--name", required=True, help="device name")
    storage(token)
    migrate = sub.add_parser("migrate", help="apply database migrations")
    storage(migrate)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from composer_app.server.store import open_store

    data_dir = Path(args.data_dir)
    store = open_store(data_dir, args.database_url)
    if args.command == "create-token":
        store.open()
        try:
            token, device = store.create_token(args.user, args.name)
        finally:
            store.close()
        print(token)
        print(f"device {device.device_id} of user {args.user!r}; the token is shown only once.",
              file=sys.stderr)
        return 0
    if args.command == "migrate":
        store.open()
        store.close()
        print("migrations applied", file=sys.stderr)
        return 0
    import uvicorn

    from composer_app.server.app import build_app
    from composer_app.server.settings import ServerSettings

    logging.basicConfig(level=args.log_level.upper())
    sys.setswitchinterval(0.0005)  # writer thread and event loop hand the GIL over quickly
    from composer_app.server.providers.registry import ProviderRouter, options_from_args

    router = ProviderRouter(options_from_args(args, data_dir))
    settings = ServerSettings(data_dir=data_dir, database_url=args.database_url,
                              storage_dir=Path(args.storage_dir) if args.storage_dir else None,
                              provider=router, workspace_roots=tuple(args.workspace_root),
                              allow_commands=args.allow_commands, skills_dir=args.skills_dir)
    app = build_app(settings, store)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                    ws_ping_interval=20.0, ws_ping_timeout=20.0)
    finally:
        router.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
