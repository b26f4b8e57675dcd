"""The PACKMOL template: input files for a :class:`PackSpec`, and its xyz output read back.

Pure file I/O (an :class:`~simwright.engines.base.EngineTemplate`): per-molecule xyz
files and ``packmol.inp`` in, ``packed.xyz`` out, checked to hold the requested rigid
molecules. PACKMOL does not know the box is periodic, so atoms are kept ``margin_a``
away from every face: atoms of neighbouring images are then at least ``2 · margin_a``
apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.engines.confine import ConfinementError, relative_name
from simwright.engines.packmol.spec import PackSpec, box_edge_a
from simwright.errors import EngineError, ValidationError
from simwright.molecules.library import Molecule
from simwright.structure import Structure

INPUT_NAME = "packmol.inp"
OUTPUT_NAME = "packed.xyz"
GEOMETRY_TOLERANCE_A = 1e-3
"""Largest change of an intramolecular distance accepted in PACKMOL's output (Å)."""


@dataclass(frozen=True)
class PackmolTemplate:
    """PACKMOL's input files for a :class:`PackSpec` and its checked output structure."""

    def inputs(self, spec: PackSpec) -> dict[str, str]:
        """One xyz file per component and ``packmol.inp`` (box from :func:`box_edge_a`)."""
        box = box_edge_a(spec)
        check_fits(spec, box)
        names = component_file_names(spec)
        files = {
            name: molecule_xyz(molecule)
            for (molecule, _), name in zip(spec.components, names, strict=True)
        }
        files[INPUT_NAME] = render_packmol_input(spec, names, box)
        return files

    def parse(self, spec: PackSpec, workdir: Path) -> Structure:
        """The packed periodic structure from ``packed.xyz``, checked (rigid molecules,
        no atoms of different molecules closer than the tolerance allows)."""
        structure = read_output(spec, workdir / OUTPUT_NAME, box_edge_a(spec))
        verify_packing(spec, structure)
        return structure


def check_fits(spec: PackSpec, box_a: float) -> None:
    """Refuse a box too small for the widest molecule with its margins."""
    inner = box_a - 2.0 * spec.margin
    for molecule, count in spec.components:
        extent = _extent_a(molecule.structure.positions)
        if count and extent >= inner:
            raise ValidationError(
                f"{molecule.name} ({extent:.2f} Å across) does not fit in a {box_a:.2f} Å box "
                f"with {spec.margin:.2f} Å margins"
            )


def _extent_a(positions: np.ndarray) -> float:
    if len(positions) < 2:
        return 0.0
    return float(np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1).max())


def component_file_names(spec: PackSpec) -> tuple[str, ...]:
    """File names of the per-molecule xyz files, one per component."""
    return tuple(
        f"component_{k}_{re.sub(r'[^A-Za-z0-9]+', '_', m.name).strip('_') or 'molecule'}.xyz"
        for k, (m, _) in enumerate(spec.components, start=1)
    )


def render_packmol_input(
    spec: PackSpec,
    file_names: Sequence[str],
    box_a: float,
    output_name: str = OUTPUT_NAME,
) -> str:
    """The text of a PACKMOL input for ``spec`` in a cubic box of edge ``box_a`` (Å).

    ``file_names`` gives each component's xyz file; components with count 0 are left out.
    """
    if len(file_names) != len(spec.components):
        raise ValidationError("render_packmol_input needs one file name per component")
    for name in (*file_names, output_name):
        why = relative_name(name)
        if why:
            raise ConfinementError(f"PACKMOL input: {why}")
    lo, hi = spec.margin, box_a - spec.margin
    lines = [
        "# PACKMOL input written by simwright",
        f"tolerance {spec.tolerance_a:.6f}",
        "filetype xyz",
        f"output {output_name}",
        f"seed {spec.seed}",
    ]
    if spec.nloop is not None:
        lines.append(f"nloop {spec.nloop}")
    for (_, count), name in zip(spec.components, file_names, strict=True):
        if count == 0:
            continue
        lines += [
            "",
            f"structure {name}",
            f"  number {count}",
            f"  inside box {lo:.6f} {lo:.6f} {lo:.6f} {hi:.6f} {hi:.6f} {hi:.6f}",
            "end structure",
        ]
    return "\n".join(lines) + "\n"


def molecule_xyz(molecule: Molecule) -> str:
    """A plain xyz file of a molecule, as PACKMOL reads it."""
    s = molecule.structure
    lines = [str(len(s)), " ".join(molecule.name.split())]  # one comment line
    lines += [
        f"{sym:<2s} {x:14.8f} {y:14.8f} {z:14.8f}"
        for sym, (x, y, z) in zip(s.symbols, s.positions, strict=True)
    ]
    return "\n".join(lines) + "\n"


def _expected_layout(spec: PackSpec) -> tuple[tuple[str, ...], tuple[int, ...]]:
    symbols: list[str] = []
    ids: list[int] = []
    mol = 0
    for molecule, count in spec.components:
        for _ in range(count):
            mol += 1
            symbols += molecule.structure.symbols
            ids += [mol] * molecule.n_atoms
    return tuple(symbols), tuple(ids)


def read_output(spec: PackSpec, output_path: Path, box_a: float) -> Structure:
    """The xyz output as a periodic Structure with molecule ids, in component order."""
    symbols, ids = _expected_layout(spec)
    lines = output_path.read_text(errors="replace").splitlines()
    try:
        rows = [line.split() for line in lines[2 : 2 + len(symbols)]]
        read_symbols = tuple(row[0].capitalize() for row in rows)
        positions = np.array([[float(v) for v in row[1:4]] for row in rows])
    except (IndexError, ValueError) as exc:
        raise EngineError(f"cannot read PACKMOL output {output_path.name}: {exc}") from exc
    if read_symbols != symbols:
        raise EngineError(
            f"PACKMOL output {output_path.name} does not hold the requested "
            f"{len(symbols)} atoms in component order"
        )
    return Structure(symbols, positions, np.eye(3) * box_a, (True, True, True), ids)


def verify_packing(spec: PackSpec, structure: Structure) -> float:
    """Check rigid molecules and intermolecular distances; return the minimum distance."""
    _check_rigid(spec, structure)
    structure.check()
    d_min = min_intermolecular_distance_a(structure, cutoff_a=max(4.0, 1.5 * spec.tolerance_a))
    required = 0.8 * min(spec.tolerance_a, 2.0 * spec.margin)
    if d_min < required:
        raise EngineError(
            f"packed atoms of different molecules are {d_min:.3f} Å apart "
            f"(tolerance {spec.tolerance_a} Å, margin {spec.margin} Å)"
        )
    return d_min


def _check_rigid(spec: PackSpec, structure: Structure) -> None:
    start = 0
    for molecule, count in spec.components:
        n = molecule.n_atoms
        reference = _distances(molecule.structure.positions)
        for _ in range(count):
            packed = _distances(structure.positions[start : start + n])
            if np.abs(packed - reference).max(initial=0.0) > GEOMETRY_TOLERANCE_A:
                raise EngineError(f"PACKMOL distorted a {molecule.name} molecule")
            start += n


def _distances(positions: np.ndarray) -> np.ndarray:
    return np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)


def min_intermolecular_distance_a(structure: Structure, cutoff_a: float = 4.0) -> float:
    """Smallest distance (Å, minimum image) between atoms of different molecules.

    Returns ``inf`` when no such pair is closer than ``cutoff_a``.
    """
    if structure.molecule_ids is None:
        raise ValidationError("the structure has no molecule ids")
    # lazy: ase.neighborlist takes ~1 s to import
    from ase.neighborlist import neighbor_list

    i, j, d = neighbor_list("ijd", structure.to_ase(), cutoff_a, self_interaction=False)
    ids = np.asarray(structure.molecule_ids)
    between = ids[i] != ids[j]
    return float(d[between].min()) if between.any() else float("inf")
