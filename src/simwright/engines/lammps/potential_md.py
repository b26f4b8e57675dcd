"""Molecular dynamics with a catalogued interatomic potential: one script, one LAMMPS call.

The solid-state MD protocols (thermal expansion, melting point, lattice thermal
conductivity, deposition) write their own dynamics; what they share is written here
once: the head of the script (:func:`potential_head`: units, ``atom_style atomic``,
the data or restart file, ``pair_style``/``pair_coeff`` of the potential, neighbour
lists) and :func:`run_potential_md`, which copies the potential file (and the restart
to continue from) into the working directory, writes the data file, checks the
script against the safety policy and runs it. Units metal: eV, Å, ps, bar.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from simwright.engines.lammps.launcher import LammpsLauncher, LammpsResult
from simwright.engines.lammps.potential_point import (
    pair_coeff_lines,
    render_atomic_data,
    type_order,
)
from simwright.engines.lammps.segment import check_template
from simwright.engines.lammps.templates import DATA_NAME
from simwright.errors import ValidationError
from simwright.potentials.catalogue import Potential
from simwright.structure import Structure

START_RESTART: Final = "start.restart"
"""The name of the restart a script continues from, in its own directory."""


@dataclass(frozen=True)
class PotentialRun:
    """What one MD script with a potential needs besides its dynamics.

    ``types`` lists the LAMMPS atom types in order (elements of the potential);
    ``boundary`` is the LAMMPS boundary of a new box (``p p p``, ``p p f``...).
    """

    potential: Potential
    potential_file: Path
    types: tuple[str, ...]
    boundary: str = "p p p"

    @classmethod
    def of(
        cls, potential: Potential, potential_file: Path, elements: Sequence[str], **kw: str
    ) -> PotentialRun:
        """The run of ``elements`` (in the potential's order) with ``potential``."""
        missing = sorted(set(elements) - set(potential.elements))
        if missing:
            raise ValidationError(
                f"potential {potential.file} has no parameters for {', '.join(missing)} "
                f"(it covers {', '.join(potential.elements)})"
            )
        types = tuple(e for e in potential.elements if e in set(elements))
        return cls(potential, potential_file, types, **kw)

    def type_of(self, element: str) -> int:
        """The LAMMPS type number of ``element``."""
        return self.types.index(element) + 1

    def type_elements(self) -> dict[int, str]:
        """LAMMPS type -> element, for reading the final structure back."""
        return {i: e for i, e in enumerate(self.types, 1)}


def potential_head(run: PotentialRun, *, from_restart: bool) -> list[str]:
    """The head of the script: units, atoms (data or restart file), potential, neighbours.

    A restart does not keep the coefficients of many-body potentials, so they are
    given again after ``read_restart``.
    """
    p = run.potential
    read = (
        [f"read_restart    {START_RESTART}"]
        if from_restart
        else [
            "units           metal",
            "atom_style      atomic",
            f"boundary        {run.boundary}",
            f"read_data       {DATA_NAME}",
        ]
    )
    return [
        f"# simwright LAMMPS MD: potential {p.file} ({p.pair_style})",
        f"# citation: {p.citation}",
        "# units metal: eV, Å, ps, bar",
        *read,
        f"pair_style      {p.pair_style}",
        *pair_coeff_lines(p, run.types),
        "neighbor        1.0 bin",
        "neigh_modify    every 1 delay 0 check yes",
    ]


def _link(source: Path, target: Path) -> None:
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def run_potential_md(
    launcher: LammpsLauncher,
    run: PotentialRun,
    body: Sequence[str],
    workdir: Path,
    *,
    structure: Structure | None = None,
    restart: Path | None = None,
    timeout_s: float | None = None,
    total_steps: int | None = None,
    progress: Callable[[float | None, str], None] | None = None,
) -> LammpsResult:
    """Run the head (:func:`potential_head`) plus ``body`` from ``structure`` or ``restart``."""
    if (structure is None) == (restart is None):
        raise ValidationError("run_potential_md needs exactly one of structure or restart")
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    target = workdir / run.potential.file
    if not target.exists():
        _link(run.potential_file, target)
    if structure is not None:
        type_order(run.potential, structure)  # refuses elements the potential lacks
        data, _ = render_atomic_data(structure, run.types)  # every type declared, with its mass
        (workdir / DATA_NAME).write_text(data, encoding="utf-8")
    elif restart is not None and Path(restart).resolve() != (workdir / START_RESTART).resolve():
        _link(Path(restart), workdir / START_RESTART)
    script = "\n".join([*potential_head(run, from_restart=restart is not None), *body]) + "\n"
    check_template(script, workdir)
    pbc = tuple(flag == "p" for flag in run.boundary.split())
    return launcher.run(
        script,
        workdir,
        type_elements=run.type_elements(),
        pbc=(pbc[0], pbc[1], pbc[2]),
        timeout_s=timeout_s,
        progress=progress,
        total_steps=total_steps,
    )
