"""``simwright engines``: the registered engines, whether they are found here, and versions."""

from __future__ import annotations

import dataclasses

from rich.table import Table

from simwright.cli.common import HomeOpt, JsonOpt, emit, handled, out, settings_for


@handled
def engines(json_out: JsonOpt = False, home: HomeOpt = None) -> None:
    """List the registered engines: found or not, version and command line.

    Paths come from ``[engines]`` in ``$SIMWRIGHT_HOME/config.toml`` (``lmp``, ``pw.x``,
    ``packmol``), else from the Python environment and ``PATH``.
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.engines.registry import load_engines

    settings = settings_for(home)
    statuses = [info.status(settings) for info in load_engines().values()]
    if json_out:
        emit({"engines": [dataclasses.asdict(s) for s in statuses]})
        return
    table = Table("engine", "found", "version", "command / problem", "description")
    for s in statuses:
        found = "[green]yes[/]" if s.available else "[red]no[/]"
        table.add_row(s.name, found, s.version, s.command or s.problem, s.description)
    out.print(table)
