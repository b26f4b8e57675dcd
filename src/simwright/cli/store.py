"""``simwright store``: the provenance store itself (copy it to another database)."""

from __future__ import annotations

from typing import Annotated

import typer

from simwright.cli.common import (
    HomeOpt,
    JsonOpt,
    emit,
    handled,
    open_existing_store,
    out,
    settings_for,
)

store_app = typer.Typer(
    help="The provenance store: copy it to another database.", no_args_is_help=True
)


@store_app.command("copy")
@handled
def copy(
    target: Annotated[
        str,
        typer.Argument(help="URL of an empty database, e.g. postgresql+psycopg://user@host/db"),
    ],
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Copy every record of this home's store into the empty database at TARGET.

    Then point simwright at it with SIMWRIGHT_DATABASE_URL (run directories stay where
    they are: the copied records name them as before).
    """
    # lazy: SQLAlchemy and the copy only for this command
    from simwright.store import Store
    from simwright.store.copy import copy_store

    source = open_existing_store(settings_for(home))
    destination = Store(target)
    try:
        report = copy_store(source, destination)
    finally:
        source.close()
        destination.close()
    if json_out:
        emit({"target": target, "rows": report.rows, "total": report.total})
        return
    out.print(f"copied {report.total} rows ({report.rows.get('runs', 0)} runs) to {target}")
