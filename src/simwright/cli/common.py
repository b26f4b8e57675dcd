"""What every command-line module shares: JSON output, error handling, common options.

Kept free of heavy imports so that ``simwright --help`` stays fast.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from simwright.errors import SimwrightError
from simwright.jsonsafe import strict_json
from simwright.settings import Settings, load_settings, settings_at

if TYPE_CHECKING:
    from simwright.store import Store
    from simwright.store.paths import Roots
    from simwright.store.reading import RunReader

F = TypeVar("F", bound=Callable[..., Any])

out = Console(soft_wrap=True)
err = Console(stderr=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
HomeOpt = Annotated[
    Path | None,
    typer.Option("--home", help="simwright home (default $SIMWRIGHT_HOME or ~/.simwright)"),
]


class _JsonStdout(io.TextIOBase):
    """What ``sys.stdout`` is while a ``--json`` command runs: writes go to stderr;
    only :func:`emit` writes to ``target``, the real standard output."""

    def __init__(self, target: Any, diverted: Any) -> None:
        super().__init__()
        self.target = target
        self.diverted = diverted

    def write(self, text: str) -> int:
        """Send stray output (banners of third-party packages) to stderr."""
        return int(self.diverted.write(text))

    def flush(self) -> None:
        """Flush stderr."""
        self.diverted.flush()

    def isatty(self) -> bool:
        """Never a terminal: nothing should draw on it."""
        return False


def _fileno(stream: Any) -> int | None:
    try:
        return int(stream.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


@contextmanager
def stdout_for_json() -> Iterator[None]:
    """Keep standard output for the one JSON object of a ``--json`` command.

    While the command runs, Python's ``sys.stdout`` and (when stdout is a real file
    descriptor) descriptor 1 itself point at stderr, so banners printed by third-party
    code (CHGNet, torch, C libraries) cannot corrupt the JSON; :func:`emit` still
    writes to the original standard output.
    """
    real = sys.stdout
    fd, err_fd = _fileno(real), _fileno(sys.stderr)
    saved: int | None = None
    target: Any = real
    if fd is not None and err_fd is not None:
        real.flush()
        saved = os.dup(fd)
        os.dup2(err_fd, fd)
        target = os.fdopen(os.dup(saved), "w", encoding="utf-8", closefd=True)
    sys.stdout = _JsonStdout(target, sys.stderr)
    try:
        yield
    finally:
        sys.stdout = real
        if saved is not None:
            target.flush()
            target.close()
            os.dup2(saved, fd)  # type: ignore[arg-type]
            os.close(saved)


def emit(data: Any) -> None:
    """Print ``data`` as one strict JSON object on stdout (no NaN or Infinity)."""
    text = json.dumps(strict_json(data), indent=2, default=str, ensure_ascii=False, allow_nan=False)
    stream = sys.stdout
    target = stream.target if isinstance(stream, _JsonStdout) else stream
    target.write(text + "\n")
    target.flush()


def handled(fn: F) -> F:
    """Turn simwright's errors into a clear message and exit code 2 (JSON with --json).

    With ``--json`` the command runs inside :func:`stdout_for_json`, so stdout carries
    exactly one JSON object whatever third-party code prints.
    """

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:

        if kwargs.get("json_out"):
            with stdout_for_json():
                return _call_json(fn, args, kwargs)
        try:
            return fn(*args, **kwargs)
        except SimwrightError as exc:
            err.print(f"[red]error:[/] {escape(str(exc))}", markup=True, highlight=False)
            raise typer.Exit(2) from exc

    return wrapper  # type: ignore[return-value]


def _call_json(fn: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    """Run a ``--json`` command; its refusal is printed as JSON while stdout is reserved."""
    try:
        return fn(*args, **kwargs)
    except SimwrightError as exc:
        data = {"status": "error", "error": str(exc), "error_type": type(exc).__name__}
        details = getattr(exc, "details", None)
        if isinstance(details, dict):
            data.update(details)
        emit(data)
        raise typer.Exit(2) from exc


def settings_for(home: Path | None) -> Settings:
    """Settings from the environment and config file, with ``--home`` if given.

    With ``--home`` the config file read is that home's ``config.toml``.
    """
    return settings_at(home.expanduser().resolve()) if home else load_settings()


def store_exists(settings: Settings) -> bool:
    """False when the store of ``settings`` is a SQLite file that does not exist yet."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store.urls import sqlite_path

    db = sqlite_path(settings.db_url)
    return db is None or db.is_file()


def open_existing_store(settings: Settings) -> Store:
    """The provenance store of ``settings`` for a read-only command: never creates a
    store or a home (``no simwright store at …``, exit 2, when there is none)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store import Store

    return Store.existing(settings.db_url, store_roots(settings))


def open_reader(settings: Settings) -> RunReader:
    """Read access to the existing store of ``settings`` for ``runs`` and ``show``:
    without SQLAlchemy where the store allows (:func:`simwright.store.reading.open_reader`)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store.reading import open_reader as reader_at

    return reader_at(settings.db_url, store_roots(settings))


def open_store(settings: Settings) -> Store:
    """The provenance store of ``settings``, creating the SQLite file's folder if needed."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store import Store

    if settings.db_url.startswith("sqlite:///"):
        Path(settings.db_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return Store(settings.db_url, store_roots(settings))


def store_roots(settings: Settings) -> Roots:
    """The roots the store of ``settings`` records run and campaign folders against."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store.paths import Roots

    return Roots(settings.runs_path, settings.campaigns_path)
