"""What every command-line module shares: JSON output, error handling, common options.

Kept free of heavy imports so that ``simwright --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from simwright.errors import SimwrightError
from simwright.settings import Settings, load_settings, settings_at

if TYPE_CHECKING:
    from simwright.store import Store

F = TypeVar("F", bound=Callable[..., Any])

out = Console(soft_wrap=True)
err = Console(stderr=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
HomeOpt = Annotated[
    Path | None,
    typer.Option("--home", help="simwright home (default $SIMWRIGHT_HOME or ~/.simwright)"),
]


def emit(data: Any) -> None:
    """Print ``data`` as one JSON object on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")


def handled(fn: F) -> F:
    """Turn simwright's errors into a clear message and exit code 2 (JSON with --json)."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except SimwrightError as exc:
            if kwargs.get("json_out"):
                data = {"status": "error", "error": str(exc), "error_type": type(exc).__name__}
                details = getattr(exc, "details", None)
                if isinstance(details, dict):
                    data.update(details)
                emit(data)
            else:
                err.print(f"[red]error:[/] {escape(str(exc))}", markup=True, highlight=False)
            raise typer.Exit(2) from exc

    return wrapper  # type: ignore[return-value]


def settings_for(home: Path | None) -> Settings:
    """Settings from the environment and config file, with ``--home`` if given.

    With ``--home`` the config file read is that home's ``config.toml``.
    """
    return settings_at(home.expanduser().resolve()) if home else load_settings()


def store_exists(settings: Settings) -> bool:
    """False when the store of ``settings`` is a SQLite file that does not exist yet."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store.store import sqlite_path

    db = sqlite_path(settings.db_url)
    return db is None or db.is_file()


def open_existing_store(settings: Settings) -> Store:
    """The provenance store of ``settings`` for a read-only command: never creates a
    store or a home (``no simwright store at …``, exit 2, when there is none)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store import Store

    return Store.existing(settings.db_url)


def open_store(settings: Settings) -> Store:
    """The provenance store of ``settings``, creating the SQLite file's folder if needed."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.store import Store

    if settings.db_url.startswith("sqlite:///"):
        Path(settings.db_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return Store(settings.db_url)
