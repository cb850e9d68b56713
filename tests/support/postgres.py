"""A throwaway PostgreSQL cluster for tests (or the one named by ``COMPOSER_TEST_POSTGRES_DSN``).

The cluster lives in a temporary directory, listens on a free loopback port with its unix socket in
that directory, and is stopped and removed at the end of the session. ``initdb`` refuses to run as
root, so as root the cluster is created and run as the ``postgres`` system user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DSN_ENV = "COMPOSER_TEST_POSTGRES_DSN"


@dataclass(frozen=True)
class PostgresServer:
    """A reachable server; ``new_database()`` gives a fresh, empty database DSN."""

    dsn: str

    def new_database(self) -> str:
        import psycopg

        name = "composer_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return _with_dbname(self.dsn, name)


def _with_dbname(dsn: str, name: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(dsn)
    params["dbname"] = name
    return make_conninfo(**{k: str(v) for k, v in params.items() if v is not None})


def binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/<v>/bin`` holding initdb and pg_ctl, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not found:
        path = shutil.which("initdb")
        return Path(path).parent if path and shutil.which("pg_ctl") else None
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[PostgresServer | None]:
    """Yield a server (from the env DSN or a fresh cluster), or None when none is available."""
    dsn = os.environ.get(DSN_ENV)
    if dsn:
        yield PostgresServer(dsn)
        return
    bin_dir = binaries()
    if bin_dir is None:
        yield None
        return
    as_root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="composer-pg-"))
    data = base / "data"
    prefix: list[str] = []
    user = pwd.getpwuid(os.geteuid()).pw_name
    if as_root:
        pg = pwd.getpwnam("postgres")
        os.chown(base, pg.pw_uid, pg.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
        user = "postgres"
    port = _free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    subprocess.run([*prefix, str(bin_dir / "initdb"), "-D", str(data), "-U", user,
                    "--auth=trust", "-E", "UTF8", "--no-sync"], **run)  # type: ignore[call-overload]
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={base} "
               "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
               "-c max_connections=200")
    subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                    "-l", str(base / "log"), "start"], **run)  # type: ignore[call-overload]
    try:
        yield PostgresServer(f"host=127.0.0.1 port={port} user={user} dbname=postgres")
    finally:
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "-w", "stop"], check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)
