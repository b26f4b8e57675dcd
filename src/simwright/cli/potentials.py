"""``simwright potentials [ELEMENTS]``: the LAMMPS potential files simwright can read."""

from __future__ import annotations

from typing import Annotated

import typer

from simwright.cli.common import JsonOpt, emit, handled, out


@handled
def potentials(
    elements: Annotated[
        list[str] | None, typer.Argument(help="Elements the potential must cover, e.g. Cu or Si C.")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", help="Author, family or file ('Mishin EAM', 'Tersoff'): one potential."
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """List the catalogued interatomic potentials (style, elements, citation), by element."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.errors import ValidationError
    from simwright.potentials import Potential, published_for, read_catalogue, select_potential
    from simwright.structure import is_element

    wanted = list(elements or [])
    unknown = [e for e in wanted if not is_element(e)]
    if unknown:
        raise ValidationError(f"not chemical elements: {', '.join(unknown)}")
    catalogue = read_catalogue()
    chosen: tuple[Potential, ...] = (
        (select_potential(catalogue, wanted, name),)
        if name is not None
        else catalogue.for_elements(wanted)
    )
    rows = [
        {
            "file": p.file,
            "pair_style": p.pair_style,
            "family": p.family,
            "elements": list(p.elements),
            "citation": p.citation,
            "runnable": p.runnable,
            "published_values": any(published_for(p.file, e) for e in p.elements),
        }
        for p in chosen
    ]
    if json_out:
        emit({"directory": str(catalogue.directory), "potentials": rows})
        return
    if not rows:
        out.print(f"no potential covers {', '.join(wanted)}", highlight=False)
        return
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from rich.table import Table

    table = Table(title=f"LAMMPS potentials ({catalogue.directory})", title_justify="left")
    for column in ("file", "style", "elements", "citation", "runs", "validated"):
        table.add_column(column, no_wrap=column in ("file", "style"))
    for r in rows:
        table.add_row(
            str(r["file"]),
            str(r["pair_style"]),
            " ".join(r["elements"]),  # type: ignore[arg-type]
            str(r["citation"]),
            "yes" if r["runnable"] else "listed",
            "yes" if r["published_values"] else "",
        )
    out.print(table)
