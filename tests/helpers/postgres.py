"""A throw-away PostgreSQL server for the store tests: a cluster in a temporary folder,
listening only on a Unix socket in that folder, stopped at the end.

Needs the server binaries (Debian's ``postgresql`` package; ``make test`` installs it
when run as root). As root, the cluster is made and run by the ``postgres`` user, since
PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


def server_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl`` (PATH first, then Debian's versioned folders)."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    return Path(folders[0]) if folders else None


def why_unavailable() -> str | None:
    """None when a server can be started here, else the reason (for a skip message)."""
    if server_bin() is None:
        return "PostgreSQL server binaries not found (apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser: cannot start PostgreSQL as another user"
    try:
        import psycopg  # noqa: F401  # lazy: the driver is an optional extra
    except ImportError:
        return "the psycopg driver is not installed (pip install 'simwright[postgres]')"
    return None


@dataclass(frozen=True)
class Server:
    """A running cluster: its socket folder and port."""

    socket_dir: Path
    port: int

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` on this server."""
        return f"postgresql+psycopg://simwright@/{database}?host={self.socket_dir}&port={self.port}"

    def new_database(self) -> str:
        """Create an empty database; returns its URL."""
        # lazy: the driver is an optional extra
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(
            host=str(self.socket_dir),
            port=self.port,
            user="simwright",
            dbname="postgres",
            autocommit=True,
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _as_server_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _free_port() -> int:
    import socket  # lazy: only this helper needs it

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server() -> Iterator[Server]:
    """Start a cluster in a temporary folder; stop it and remove the folder afterwards."""
    binaries = server_bin()
    assert binaries is not None
    root = Path(tempfile.mkdtemp(prefix="simwright-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    run = lambda cmd: subprocess.run(  # noqa: E731
        _as_server_user(cmd), check=True, capture_output=True, text=True
    )
    port = _free_port()
    try:
        run([str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "simwright"])
        options = f"-k {root} -p {port} -c listen_addresses='' -c fsync=off"
        run([str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"),
             "-w", "start"])  # fmt: skip
        yield Server(root, port)
    finally:
        subprocess.run(
            _as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)
