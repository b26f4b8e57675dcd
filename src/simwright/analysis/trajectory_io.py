"""Reading trajectories named by a contract manifest into numpy arrays (the file edge).

A ``*.traj.json`` manifest (:mod:`simwright.contract.trajectories`) names a
coordinate file and its topology. Supported pairs:

* ``dcd`` or ``xtc`` with a ``lammps-data`` topology, read by MDAnalysis (atoms in
  the order of their LAMMPS IDs, as ``dump dcd`` writes them);
* ``extxyz`` with an ``extxyz`` topology, read by ASE (atoms in file order).

Positions come back in Å as float64, frame times in fs from the first stored frame.
For the MSD the trajectory must be unwrapped (``dump_modify ... unwrap yes``); the
manifest says whether it is, and reading a wrapped one is refused unless asked for.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
from ase.data import atomic_masses, chemical_symbols

from simwright.contract.trajectories import TrajectoryManifest, read_trajectory_manifest
from simwright.errors import ContractError, ValidationError

ANGSTROM_NAMES: Final = frozenset({"Å", "A", "angstrom", "Angstrom"})

LAMMPS_ATOM_STYLES: Final = {
    "atomic": "id type x y z",
    "charge": "id type charge x y z",
    "bond": "id resid type x y z",
    "angle": "id resid type x y z",
    "molecular": "id resid type x y z",
    "full": "id resid type charge x y z",
}
"""LAMMPS ``Atoms # style`` → the column layout MDAnalysis is told to expect."""

ELEMENT_MASS_TOLERANCE_AMU: Final = 0.01
"""How close a LAMMPS type's mass must be to a standard atomic mass to name its element."""


@dataclass(frozen=True)
class AtomSelection:
    """Which atoms to read: by 0-based ``indices``, by ``types`` or by ``elements``.

    At most one criterion may be given; none selects every atom. ``types`` are LAMMPS
    type labels (``"1"``, ``"2"``) for LAMMPS data and chemical symbols for extxyz.
    ``elements`` are chemical symbols; for LAMMPS data they are inferred from each
    type's mass (standard atomic masses within :data:`ELEMENT_MASS_TOLERANCE_AMU`).
    """

    indices: tuple[int, ...] = ()
    types: tuple[str, ...] = ()
    elements: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "indices", tuple(int(i) for i in self.indices))
        object.__setattr__(self, "types", tuple(str(t) for t in self.types))
        object.__setattr__(self, "elements", tuple(str(e) for e in self.elements))
        given = [name for name in ("indices", "types", "elements") if getattr(self, name)]
        if len(given) > 1:
            raise ValidationError(f"select atoms by one criterion only, got {', '.join(given)}")


@dataclass(frozen=True, eq=False)
class TrajectoryData:
    """Positions (n_frames, n_selected, 3) in Å and frame times in fs.

    ``atom_indices`` are the selected atoms' 0-based indices in the whole system.
    """

    positions_a: np.ndarray
    times_fs: np.ndarray
    atom_indices: np.ndarray
    timestep_fs: float
    frame_interval_steps: int
    unwrapped: bool


def select_indices(
    atom_types: np.ndarray, elements: np.ndarray | None, sel: AtomSelection
) -> np.ndarray:
    """Indices of the atoms matching ``sel`` given each atom's type and element."""
    n_atoms = len(atom_types)
    if sel.indices:
        indices = np.asarray(sel.indices, dtype=np.int64)
        if indices.min() < 0 or indices.max() >= n_atoms:
            raise ValidationError(f"atom indices out of range for {n_atoms} atoms")
        if np.unique(indices).size != indices.size:
            raise ValidationError("atom indices contain duplicates")
        return indices
    if sel.types:
        chosen = np.flatnonzero(np.isin(atom_types.astype(str), sel.types))
        what = f"types {', '.join(sel.types)}"
    elif sel.elements:
        if elements is None:
            raise ValidationError("the topology gives no elements; select by type or index")
        chosen = np.flatnonzero(np.isin(elements.astype(str), sel.elements))
        what = f"elements {', '.join(sel.elements)}"
    else:
        return np.arange(n_atoms, dtype=np.int64)
    if chosen.size == 0:
        raise ValidationError(f"no atom matches {what}")
    return chosen.astype(np.int64)


def element_from_mass(mass_amu: float) -> str | None:
    """The element whose standard atomic mass is within tolerance of ``mass_amu``, if any."""
    gaps = np.abs(np.asarray(atomic_masses[1:]) - mass_amu)
    best = int(np.argmin(gaps))
    if gaps[best] > ELEMENT_MASS_TOLERANCE_AMU:
        return None
    return str(chemical_symbols[best + 1])


def lammps_atom_style(data_path: Path) -> str:
    """The atom style named in the ``Atoms # <style>`` line of a LAMMPS data file."""
    if not Path(data_path).is_file():
        raise ContractError(f"{data_path}: no such LAMMPS data file")
    with Path(data_path).open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            words = line.split()
            if words and words[0] == "Atoms":
                _, _, comment = line.partition("#")
                style = comment.strip().split()[0] if comment.strip() else ""
                if style not in LAMMPS_ATOM_STYLES:
                    raise ContractError(
                        f"{data_path}: atom style {style or '(none)'!r} in the 'Atoms' line; "
                        f"supported: {', '.join(LAMMPS_ATOM_STYLES)}"
                    )
                return style
    raise ContractError(f"{data_path}: no 'Atoms' section in the LAMMPS data file")


def _universe(
    mda: Any, topology: Path, manifest: TrajectoryManifest, folder: Path, fmt: str, style: str
) -> Any:
    try:
        return mda.Universe(
            str(topology),
            str(manifest.trajectory_path(folder)),
            topology_format="DATA",
            format=fmt,
            atom_style=style,
        )
    except (OSError, ValueError, EOFError) as exc:
        raise ContractError(f"{manifest.trajectory}: MDAnalysis cannot read it ({exc})") from exc


def _read_mdanalysis(
    manifest: TrajectoryManifest, folder: Path, sel: AtomSelection
) -> tuple[np.ndarray, np.ndarray, int]:
    # lazy: optional extra [md]
    import MDAnalysis as mda

    topology = manifest.topology_path(folder)
    style = LAMMPS_ATOM_STYLES[lammps_atom_style(topology)]
    reader_format = "LAMMPS" if manifest.format == "dcd" else "XTC"
    with warnings.catch_warnings():
        # MDAnalysis 2.x announces a change of its DCD reader's internals for 3.0 when
        # a DCD is opened; timeseries() copies the coordinates, so it cannot affect us.
        warnings.filterwarnings("ignore", "DCDReader currently makes", DeprecationWarning)
        universe = _universe(mda, topology, manifest, folder, reader_format, style)
        atoms = universe.atoms
        elements = None
        if hasattr(atoms, "masses"):
            elements = np.array([element_from_mass(float(m)) or "" for m in atoms.masses])
        indices = select_indices(np.asarray(atoms.types), elements, sel)
        positions = universe.trajectory.timeseries(atomgroup=atoms[indices], order="fac")
    return np.asarray(positions, dtype=np.float64), indices, int(atoms.n_atoms)


def _read_extxyz(
    manifest: TrajectoryManifest, folder: Path, sel: AtomSelection
) -> tuple[np.ndarray, np.ndarray, int]:
    try:
        # lazy: ase.io loads SciPy (~1 s); planning a liquid run reads no trajectory
        from ase.io import read

        frames = read(str(manifest.trajectory_path(folder)), index=":", format="extxyz")
    except (OSError, ValueError, StopIteration) as exc:
        raise ContractError(f"{manifest.trajectory}: ASE cannot read it ({exc})") from exc
    if not isinstance(frames, list) or not frames:
        raise ContractError(f"{manifest.trajectory}: no frames in the extxyz file")
    symbols = np.array(frames[0].get_chemical_symbols())
    indices = select_indices(symbols, symbols, sel)
    if any(len(atoms) != len(symbols) for atoms in frames):
        raise ContractError(f"{manifest.trajectory}: the number of atoms changes between frames")
    positions = np.stack([atoms.positions[indices] for atoms in frames])
    return positions.astype(np.float64), indices, int(symbols.size)


def _check_manifest(manifest: TrajectoryManifest, require_unwrapped: bool) -> None:
    length = manifest.units.get("length", "Å")
    if length not in ANGSTROM_NAMES:
        raise ValidationError(f"trajectory lengths are in {length!r}; only Å is supported")
    if require_unwrapped and not manifest.unwrapped:
        raise ValidationError(
            "the trajectory is wrapped; an MSD needs unwrapped coordinates "
            "(LAMMPS: dump_modify <id> unwrap yes)"
        )
    pair = (manifest.format, manifest.topology_format)
    if pair not in {("dcd", "lammps-data"), ("xtc", "lammps-data"), ("extxyz", "extxyz")}:
        raise ValidationError(f"unsupported trajectory/topology pair {pair}")


def read_positions(
    manifest_path: Path,
    selection: AtomSelection | None = None,
    *,
    require_unwrapped: bool = True,
) -> TrajectoryData:
    """Positions and frame times of the trajectory described by ``manifest_path``.

    Raises :class:`ContractError` when the files disagree with the manifest (atom or
    frame count) and :class:`ValidationError` for a wrapped trajectory (unless
    ``require_unwrapped`` is false) or a selection matching no atom.
    """
    path = Path(manifest_path)
    manifest = read_trajectory_manifest(path)
    _check_manifest(manifest, require_unwrapped)
    sel = selection if selection is not None else AtomSelection()
    reader = _read_extxyz if manifest.format == "extxyz" else _read_mdanalysis
    positions, indices, n_atoms = reader(manifest, path.parent, sel)
    _check_counts(manifest, positions, n_atoms)
    times = np.arange(positions.shape[0], dtype=np.float64) * manifest.frame_interval_fs
    return TrajectoryData(
        positions_a=positions,
        times_fs=times,
        atom_indices=indices,
        timestep_fs=manifest.timestep_fs,
        frame_interval_steps=manifest.frame_interval_steps,
        unwrapped=manifest.unwrapped,
    )


def _check_counts(manifest: TrajectoryManifest, positions: np.ndarray, n_atoms: int) -> None:
    if n_atoms != manifest.n_atoms:
        raise ContractError(
            f"{manifest.topology}: manifest says {manifest.n_atoms} atoms, "
            f"the topology has {n_atoms}"
        )
    if positions.shape[0] != manifest.n_frames:
        raise ContractError(
            f"{manifest.trajectory}: manifest says {manifest.n_frames} frames, "
            f"the file holds {positions.shape[0]}"
        )
