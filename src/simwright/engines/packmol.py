"""PACKMOL adapter: pack rigid molecules into a periodic cubic box.

The adapter is a pure template (:func:`render_packmol_input`, per-molecule xyz files, the
xyz output reader) plus a launcher (:func:`pack`) that runs ``packmol < packmol.inp`` in
the working directory. PACKMOL needs its input as a file: a pipe fails with "Illegal seek".

Box edge: the explicit ``box_a``; else from ``density_g_cm3`` and the total mass; else
``VDW_BOX_FACTOR · V0^(1/3)`` with V0 the summed van der Waals (Bondi) volumes of all
molecules — a dense but packable starting box that a later NPT run relaxes.
PACKMOL does not know the box is periodic, so atoms are kept ``margin_a`` away from every
face: atoms of neighbouring images are then at least ``2 · margin_a`` apart.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path

import numpy as np

from simwright.engines.base import run_subprocess
from simwright.engines.registry import EngineInfo
from simwright.errors import EngineError, ValidationError
from simwright.molecules.library import Molecule
from simwright.molecules.vdw import vdw_volume_a3
from simwright.store.records import EngineCall
from simwright.structure import Structure
from simwright.units import A3_CM3, AMU_G

ENGINE_NAME = "packmol"
INPUT_NAME = "packmol.inp"
OUTPUT_NAME = "packed.xyz"
VDW_BOX_FACTOR = 1.1
"""Box edge = VDW_BOX_FACTOR · (summed vdW volume)^(1/3) when no density or box is given."""
GEOMETRY_TOLERANCE_A = 1e-3
"""Largest change of an intramolecular distance accepted in PACKMOL's output (Å)."""


@dataclass(frozen=True)
class PackSpec:
    """What to pack: molecules and counts, box (edge or density), tolerance and seed.

    ``margin_a`` defaults to ``tolerance_a / 2``; ``nloop`` (PACKMOL's optimisation loop
    limit) is left to PACKMOL unless given. Give at most one of ``box_a`` and
    ``density_g_cm3``; with neither, the edge is ``vdw_box_factor · V0^(1/3)`` (V0: summed
    van der Waals volumes). The default factor 1.1 gives a dense box (DMC: about 1.3 times
    its liquid density); factors of 1.15-1.2 match the liquid densities of water, EC, DMC.
    """

    components: tuple[tuple[Molecule, int], ...]
    box_a: float | None = None
    density_g_cm3: float | None = None
    tolerance_a: float = 2.0
    seed: int = 1
    margin_a: float | None = None
    nloop: int | None = None
    vdw_box_factor: float = VDW_BOX_FACTOR

    def __post_init__(self) -> None:
        try:
            components = tuple((m, c) for m, c in self.components)
        except (TypeError, ValueError) as exc:
            raise ValidationError("components must be (molecule, count) pairs") from exc
        object.__setattr__(self, "components", components)
        _check_components(components)
        _check_numbers(self)

    @property
    def margin(self) -> float:
        """The distance (Å) kept between atoms and the box faces."""
        return self.tolerance_a / 2.0 if self.margin_a is None else self.margin_a

    @property
    def n_molecules(self) -> int:
        """Total number of molecules."""
        return sum(count for _, count in self.components)

    @property
    def n_atoms(self) -> int:
        """Total number of atoms."""
        return sum(m.n_atoms * count for m, count in self.components)

    @property
    def mass_amu(self) -> float:
        """Total mass in amu."""
        return sum(m.mass_amu * count for m, count in self.components)


@dataclass(frozen=True)
class PackResult:
    """A packed periodic structure with the record of the PACKMOL call."""

    structure: Structure
    call: EngineCall
    box_a: float
    input_path: Path
    output_path: Path
    min_intermolecular_distance_a: float = field(default=float("inf"))


def _check_components(components: tuple[tuple[Molecule, int], ...]) -> None:
    if not components:
        raise ValidationError("nothing to pack: give at least one (molecule, count) pair")
    for molecule, count in components:
        if not isinstance(molecule, Molecule):
            raise ValidationError(f"expected a Molecule, got {type(molecule).__name__}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValidationError(f"count of {molecule.name} must be an integer >= 0: {count!r}")
    if sum(count for _, count in components) == 0:
        raise ValidationError("nothing to pack: all molecule counts are zero")


def _check_numbers(spec: PackSpec) -> None:
    if spec.box_a is not None and spec.density_g_cm3 is not None:
        raise ValidationError("give either box_a or density_g_cm3, not both")
    for label, value in (("box_a", spec.box_a), ("density_g_cm3", spec.density_g_cm3)):
        if value is not None and not (np.isfinite(value) and value > 0):
            raise ValidationError(f"{label} must be a positive number, got {value}")
    if not (np.isfinite(spec.vdw_box_factor) and spec.vdw_box_factor > 0):
        raise ValidationError(f"vdw_box_factor must be positive, got {spec.vdw_box_factor}")
    if not (np.isfinite(spec.tolerance_a) and spec.tolerance_a > 0):
        raise ValidationError(f"tolerance_a must be positive, got {spec.tolerance_a}")
    if spec.margin_a is not None and not (np.isfinite(spec.margin_a) and spec.margin_a >= 0):
        raise ValidationError(f"margin_a must be >= 0, got {spec.margin_a}")
    if isinstance(spec.seed, bool) or not isinstance(spec.seed, int) or spec.seed < 0:
        raise ValidationError(f"seed must be an integer >= 0 (deterministic), got {spec.seed!r}")
    if spec.nloop is not None and (isinstance(spec.nloop, bool) or spec.nloop < 1):
        raise ValidationError(f"nloop must be a positive integer, got {spec.nloop!r}")


def box_edge_a(spec: PackSpec) -> float:
    """The cubic box edge (Å): explicit, from the target density, or from vdW volumes."""
    if spec.box_a is not None:
        return float(spec.box_a)
    if spec.density_g_cm3 is not None:
        volume_a3 = spec.mass_amu * AMU_G / (spec.density_g_cm3 * A3_CM3)
        return float(np.cbrt(volume_a3))
    v0 = sum(vdw_volume_a3(m) * count for m, count in spec.components)
    return spec.vdw_box_factor * float(np.cbrt(v0))


def _check_fits(spec: PackSpec, box_a: float) -> None:
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
    lines = [str(len(s)), molecule.name]
    lines += [
        f"{sym:<2s} {x:14.8f} {y:14.8f} {z:14.8f}"
        for sym, (x, y, z) in zip(s.symbols, s.positions, strict=True)
    ]
    return "\n".join(lines) + "\n"


def find_packmol() -> Path:
    """The PACKMOL executable: next to the running Python (a venv), else on PATH."""
    beside = Path(sys.executable).parent / "packmol"
    if beside.is_file():
        return beside
    found = shutil.which("packmol")
    if found:
        return Path(found)
    raise EngineError("PACKMOL not found next to the Python interpreter or on PATH")


def pack(
    spec: PackSpec,
    workdir: Path,
    *,
    executable: Path | None = None,
    timeout_s: float | None = 600.0,
) -> PackResult:
    """Run PACKMOL for ``spec`` in ``workdir`` and return the packed periodic structure.

    Raises :class:`EngineError` (with PACKMOL's output tail) when PACKMOL fails, finds no
    packing, or writes something that is not the requested molecules.
    """
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    box = box_edge_a(spec)
    _check_fits(spec, box)
    names = component_file_names(spec)
    for (molecule, _), name in zip(spec.components, names, strict=True):
        (workdir / name).write_text(molecule_xyz(molecule))
    input_path = workdir / INPUT_NAME
    input_path.write_text(render_packmol_input(spec, names, box))
    output_path = workdir / OUTPUT_NAME
    for stale in (output_path, workdir / f"{OUTPUT_NAME}_FORCED"):
        stale.unlink(missing_ok=True)
    exe = executable if executable is not None else find_packmol()
    call = run_subprocess(
        ENGINE_NAME, [str(exe)], workdir, stdin_path=input_path, timeout_s=timeout_s
    )
    call = replace(
        call,
        version=_version(workdir / f"{ENGINE_NAME}.stdout"),
        extra={"stdin": INPUT_NAME, "box_a": f"{box:.6f}"},
    )
    _check_success(call, output_path)
    structure = _read_output(spec, output_path, box)
    d_min = _verify_packing(spec, structure)
    return PackResult(structure, call, box, input_path, output_path, d_min)


def _version(stdout_path: Path) -> str:
    head = stdout_path.read_text(errors="replace")[:3000] if stdout_path.is_file() else ""
    match = re.search(r"Version\s+(\d+(?:\.\d+)*)", head)
    return match.group(1) if match else ""


def _check_success(call: EngineCall, output_path: Path) -> None:
    tail = (call.stdout_tail + "\n" + call.stderr_tail).strip()
    if call.exit_code == 124:
        raise EngineError("PACKMOL timed out", tail=tail)
    if call.exit_code != 0 or "Success!" not in call.stdout_tail:
        raise EngineError(
            f"PACKMOL found no packing (exit code {call.exit_code}); "
            "try a larger box, a smaller tolerance or more loops",
            tail=tail,
        )
    if not output_path.is_file():
        raise EngineError(f"PACKMOL reported success but wrote no {output_path.name}", tail=tail)


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


def _read_output(spec: PackSpec, output_path: Path, box_a: float) -> Structure:
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


def _verify_packing(spec: PackSpec, structure: Structure) -> float:
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
    from ase.neighborlist import neighbor_list

    i, j, d = neighbor_list("ijd", structure.to_ase(), cutoff_a, self_interaction=False)
    ids = np.asarray(structure.molecule_ids)
    between = ids[i] != ids[j]
    return float(d[between].min()) if between.any() else float("inf")


def packmol_version() -> str:
    """Version of the installed ``packmol`` Python distribution ("" if not installed by pip)."""
    try:
        return metadata.version("packmol")
    except metadata.PackageNotFoundError:
        return ""


def packmol_available() -> bool:
    """True when a PACKMOL executable can be found."""
    try:
        find_packmol()
    except EngineError:
        return False
    return True


ENGINE = EngineInfo(
    name=ENGINE_NAME,
    description="PACKMOL: packs rigid molecules into a periodic cubic box (subprocess)",
    version=packmol_version,
    available=packmol_available,
)
"""The entry point of the ``simwright.engines`` group for PACKMOL."""
