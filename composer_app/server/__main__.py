"""``composer-server`` (= ``python -m composer_app.server``): serve, create-token, list-tokens,
revoke-token, rotate-secret, migrate.

Invariants: ``create-token`` prints the token once (only its SHA-256 is stored); ``list-tokens``
never prints a token; ``revoke-token`` and ``rotate-secret`` apply at once to every running server
of the same database; every subcommand works on SQLite in ``--data-dir`` or on PostgreSQL with
``--database-url``. The data directory is private (0700) and its files 0600, whatever the umask.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from composer_app.server.store.executor import ExecutorStore

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
    listing = sub.add_parser("list-tokens", help="list a user's device tokens (not the tokens)")
    listing.add_argument("--user", required=True)
    storage(listing)
    revoke = sub.add_parser("revoke-token", help="revoke a user's device token")
    revoke.add_argument("--user", required=True)
    revoke.add_argument("--name", required=True, help="device name")
    storage(revoke)
    rotate = sub.add_parser("rotate-secret",
                            help="replace the URL-signing secret (old upload/asset URLs stop)")
    storage(rotate)
    migrate = sub.add_parser("migrate", help="apply database migrations")
    storage(migrate)
    return parser


def _administer(args: argparse.Namespace, store: ExecutorStore) -> int:
    from composer_app.server import administration

    if args.command == "list-tokens":
        devices = administration.list_tokens(store, args.user)
        if devices is None:
            print(f"no user {args.user!r}", file=sys.stderr)
            return 1
        for device in devices:
            state = f"revoked {device.revoked_at}" if device.revoked_at else "active"
            print(f"{device.name}\t{device.device_id}\tcreated {device.created_at}\t{state}")
        return 0
    if args.command == "revoke-token":
        count = administration.revoke_token(store, args.user, args.name)
        if count == 0:
            print(f"no active token named {args.name!r} for user {args.user!r}",
                  file=sys.stderr)
            return 1
        print(f"revoked {count} token(s) of device {args.name!r} of user {args.user!r}",
              file=sys.stderr)
        return 0
    administration.rotate_secret(store)
    print("signing secret rotated: earlier upload and asset URLs no longer work",
          file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from composer_app.server.private_files import private_dir
    from composer_app.server.store import open_store

    data_dir = Path(args.data_dir)
    if args.database_url is None or args.command == "serve":
        private_dir(data_dir)
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
    if args.command in ("list-tokens", "revoke-token", "rotate-secret"):
        store.open()
        try:
            return _administer(args, store)
        finally:
            store.close()
    if args.command == "migrate":
        store.open()
        store.close()
        print("migrations applied", file=sys.stderr)
        return 0
    import uvicorn

    from composer_app.server.app import build_app
    from composer_app.server.http_protocol import raise_file_limit, server_config
    from composer_app.server.settings import ServerSettings

    logging.basicConfig(level=args.log_level.upper())
    sys.setswitchinterval(0.0005)  # writer thread and event loop hand the GIL over quickly
    from composer_app.server.providers.registry import ProviderRouter, options_from_args

    router = ProviderRouter(options_from_args(args, data_dir))
    settings = ServerSettings(data_dir=data_dir, database_url=args.database_url,
                              storage_dir=Path(args.storage_dir) if args.storage_dir else None,
                              provider=router, workspace_roots=tuple(args.workspace_root),
                              allow_commands=args.allow_commands, skills_dir=args.skills_dir,
                              settle_heap=True)
    app = build_app(settings, store)
    raise_file_limit()
    config = server_config(app, host=args.host, port=args.port, log_level=args.log_level,
                           ws_ping_interval=20.0, ws_ping_timeout=20.0)
    try:
        uvicorn.Server(config).run()
    finally:
        router.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
