"""Harmonic phonons by finite displacements, through phonopy.

:func:`displaced_supercells` sets up phonopy for a crystal and a supercell (the
primitive cell found by symmetry) and returns the displaced supercells whose forces
an energy engine must compute; :func:`save_phonopy` / :func:`load_phonopy` keep the
displacement data set and the forces in phonopy's own ``phonopy_params.yaml``, so a
run can be re-analysed with phonopy itself. :func:`analyse` gives the dispersion
along the standard path of the crystal's Brillouin zone (seekpath, Hinuma et al.),
the phonon DOS on a Γ-centred mesh, the harmonic free energy, entropy and C_v(T)
(per atom), and the lowest frequency found (negative numbers are imaginary modes,
phonopy's convention); :func:`phonon_plot` draws bands and DOS side by side.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simwright.errors import EngineError, ValidationError
from simwright.structure import Structure

KJ_MOL_TO_EV = 1.0 / 96.48533212
"""1 kJ/mol in eV per particle (F = N_A e)."""
R_J_MOL_K = 8.314462618
"""The gas constant (J/(mol K)): k_B per mole."""


def _phonopy() -> Any:
    try:
        # lazy: phonopy is an optional extra (simwright[solids]) and takes ~1 s to import
        import phonopy
    except ImportError as exc:
        raise EngineError("phonopy is not installed: pip install 'simwright[solids]'") from exc
    return phonopy


def _phonopy_atoms(structure: Structure) -> Any:
    # lazy: optional extra, as above
    from phonopy.structure.atoms import PhonopyAtoms

    return PhonopyAtoms(
        symbols=list(structure.symbols),
        cell=np.asarray(structure.cell),
        positions=np.asarray(structure.positions),
    )


def _structure(cell: Any) -> Structure:
    return Structure(
        tuple(cell.symbols),
        np.asarray(cell.positions, float),
        np.asarray(cell.cell, float),
        (True, True, True),
    )


def displaced_supercells(
    crystal: Structure, supercell: tuple[int, int, int], distance_a: float
) -> tuple[Any, tuple[Structure, ...]]:
    """Phonopy set up for ``crystal`` (the unit cell; the primitive cell is found by
    symmetry) in a diagonal ``supercell``, and the symmetry-distinct displaced
    supercells (each atom moved by ``distance_a`` Å)."""
    if not all(crystal.pbc):
        raise ValidationError("phonons need a crystal periodic in x, y and z")
    if len(supercell) != 3 or min(supercell) < 1:
        raise ValidationError(f"a supercell is three positive integers, got {supercell!r}")
    # lazy: optional extra, as above
    from phonopy.structure.cells import guess_primitive_matrix

    phonopy = _phonopy()
    unit = _phonopy_atoms(crystal)
    primitive = guess_primitive_matrix(unit)
    ph = phonopy.Phonopy(unit, supercell_matrix=np.diag(supercell), primitive_matrix=primitive)
    ph.generate_displacements(distance=distance_a)
    cells = tuple(_structure(c) for c in ph.supercells_with_displacements)
    return ph, cells


def save_phonopy(ph: Any, forces_ev_a: Sequence[np.ndarray], path: Path) -> Path:
    """Attach the forces (one array per displaced supercell) and write phonopy's
    ``phonopy_params.yaml`` (displacements, forces, cells) to ``path``."""
    expected = len(ph.supercells_with_displacements)
    if len(forces_ev_a) != expected:
        raise ValidationError(f"{len(forces_ev_a)} force sets for {expected} displacements")
    ph.forces = np.array(forces_ev_a)
    ph.save(filename=str(path), settings={"force_sets": True, "displacements": True})
    return path


def load_phonopy(path: Path) -> Any:
    """Phonopy from a ``phonopy_params.yaml`` with forces, force constants produced and
    symmetrised."""
    ph = _phonopy().load(str(path), produce_fc=True, log_level=0)
    ph.symmetrize_force_constants()
    return ph


@dataclass(frozen=True)
class Dispersion:
    """Frequencies (THz) along the band path: ``distances`` (1/Å, cumulative) and
    ``frequencies`` (n_q × n_bands) concatenated over segments; ``ticks`` the path
    distance of each labelled point, ``labels`` their names (``|`` joins a break)."""

    distances: np.ndarray
    frequencies: np.ndarray
    ticks: tuple[float, ...]
    labels: tuple[str, ...]
    segment: np.ndarray
    """Index of the path segment of each q-point (for plotting without joining breaks)."""
    points: tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...] = ()
    """Each labelled point once: (label, q in the primitive reciprocal basis, its
    frequencies in THz, ascending)."""


@dataclass(frozen=True)
class Thermal:
    """Harmonic thermodynamics per atom: F (eV), S and C_v (k_B) at ``temperatures_k``."""

    temperatures_k: np.ndarray
    free_energy_ev: np.ndarray
    entropy_kb: np.ndarray
    cv_kb: np.ndarray

    def at(self, temperature_k: float) -> tuple[float, float, float]:
        """F (eV/atom), S and C_v (k_B/atom) interpolated at ``temperature_k``."""
        t = self.temperatures_k
        return (
            float(np.interp(temperature_k, t, self.free_energy_ev)),
            float(np.interp(temperature_k, t, self.entropy_kb)),
            float(np.interp(temperature_k, t, self.cv_kb)),
        )


@dataclass(frozen=True)
class PhononResults:
    """Everything :func:`analyse` derives from the force constants."""

    dispersion: Dispersion
    dos_frequencies_thz: np.ndarray
    dos_states_per_thz: np.ndarray
    thermal: Thermal
    gamma_thz: np.ndarray
    """All frequencies at Γ (THz), ascending: the three acoustic ones should be ≈ 0."""
    min_thz: float
    min_q: tuple[float, float, float]
    """The lowest frequency on the mesh and path (negative: imaginary) and where."""
    atoms_primitive: int


def _clean_label(label: str) -> str:
    text = label.replace("$", "").replace("\\mathrm{", "").replace("}", "")
    return "Γ" if text in ("\\Gamma", "GAMMA", "G") else text


def _dispersion(ph: Any, npoints: int) -> Dispersion:
    ph.auto_band_structure(npoints=npoints, write_yaml=False, with_eigenvectors=False)
    band = ph.band_structure
    distances = np.concatenate([np.asarray(d) for d in band.distances])
    freqs = np.concatenate([np.asarray(f) for f in band.frequencies])
    segment = np.concatenate([np.full(len(d), i) for i, d in enumerate(band.distances)])
    raw = [_clean_label(x) for x in band.labels]
    ticks, labels, k = [float(band.distances[0][0])], [raw[0]], 1
    for i, d in enumerate(band.distances):
        end = float(d[-1])
        if band.path_connections[i] or i == len(band.distances) - 1:
            ticks.append(end)
            labels.append(raw[k])
            k += 1
        else:
            ticks.append(end)
            labels.append(f"{raw[k]}|{raw[k + 1]}")
            k += 2
    return Dispersion(
        distances, freqs, tuple(ticks), tuple(labels), segment, _labelled_points(band, raw)
    )


def _labelled_points(
    band: Any, raw: list[str]
) -> tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...]:
    """The first occurrence of each label with its q-point and frequencies."""
    ends: list[tuple[np.ndarray, np.ndarray]] = []
    for i, (q, f) in enumerate(zip(band.qpoints, band.frequencies, strict=True)):
        if i == 0 or not band.path_connections[i - 1]:
            ends.append((np.asarray(q)[0], np.asarray(f)[0]))
        ends.append((np.asarray(q)[-1], np.asarray(f)[-1]))
    seen: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {}
    for label, (q, f) in zip(raw, ends, strict=False):
        seen.setdefault(label, (tuple(float(x) for x in q), tuple(float(x) for x in np.sort(f))))
    return tuple((label, q, f) for label, (q, f) in seen.items())


def _thermal(ph: Any, temperatures_k: np.ndarray, atoms: int) -> Thermal:
    ph.run_thermal_properties(temperatures=temperatures_k, exclude_gamma_acoustic=True)
    tp = ph.thermal_properties
    return Thermal(
        np.asarray(tp.temperatures, float),
        np.asarray(tp.free_energy, float) * KJ_MOL_TO_EV / atoms,
        np.asarray(tp.entropy, float) / R_J_MOL_K / atoms,
        np.asarray(tp.heat_capacity, float) / R_J_MOL_K / atoms,
    )


def analyse(
    ph: Any, *, mesh: int, npoints: int, temperatures_k: Sequence[float] | np.ndarray
) -> PhononResults:
    """Dispersion along the standard path, DOS on a Γ-centred ``mesh``³ grid, thermal
    properties at ``temperatures_k`` and the lowest frequency found."""
    with warnings.catch_warnings():
        # seekpath may standardise the cell (a rotation phonopy undoes); it says so
        warnings.simplefilter("ignore", UserWarning)
        dispersion = _dispersion(ph, npoints)
    ph.run_mesh([mesh] * 3, is_gamma_center=True)
    mesh_freqs = np.asarray(ph.mesh.frequencies)
    mesh_q = np.asarray(ph.mesh.qpoints)
    ph.run_total_dos()
    dos = ph.total_dos
    atoms = len(ph.primitive)
    thermal = _thermal(ph, np.asarray(temperatures_k, float), atoms)
    ph.run_qpoints([[0.0, 0.0, 0.0]])
    gamma = np.sort(np.asarray(ph.qpoints.frequencies)[0])
    i, j = np.unravel_index(np.argmin(mesh_freqs), mesh_freqs.shape)
    low, where = float(mesh_freqs[i, j]), tuple(float(x) for x in mesh_q[i])
    if dispersion.frequencies.min() < low:
        low, where = float(dispersion.frequencies.min()), (float("nan"),) * 3
    return PhononResults(
        dispersion,
        np.asarray(dos.frequency_points, float),
        np.asarray(dos.dos, float),
        thermal,
        gamma,
        low,
        (where[0], where[1], where[2]),
        atoms,
    )


def frequencies_at(ph: Any, q: Sequence[float]) -> np.ndarray:
    """Frequencies (THz, ascending) at ``q`` in the primitive cell's reciprocal basis."""
    ph.run_qpoints([list(q)])
    return np.sort(np.asarray(ph.qpoints.frequencies)[0])


def imaginary(results: PhononResults, tolerance_thz: float) -> bool:
    """True when a mode below −``tolerance_thz`` was found (an imaginary frequency)."""
    return results.min_thz < -tolerance_thz


def zero_point_ev(results: PhononResults) -> float:
    """The zero-point energy per atom (eV): F at the lowest temperature (0 K if asked)."""
    return float(results.thermal.free_energy_ev[0])


def thz_to_mev(thz: float) -> float:
    """A frequency in THz as an energy in meV (h ν)."""
    return thz * 4.135667696


def phonon_plot(path: Path, results: PhononResults, title: str) -> Path:
    """Dispersion (left) and DOS (right) on a shared frequency axis; imaginary modes
    appear below zero."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    disp = results.dispersion
    fig, (ax, axd) = plt.subplots(
        1, 2, figsize=(7.5, 4.0), dpi=110, sharey=True, gridspec_kw={"width_ratios": [3, 1]}
    )
    for seg in np.unique(disp.segment):
        rows = disp.segment == seg
        ax.plot(disp.distances[rows], disp.frequencies[rows], color="tab:blue", lw=1.0)
    for tick in disp.ticks:
        ax.axvline(tick, color="grey", lw=0.5)
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xticks(disp.ticks)
    ax.set_xticklabels(disp.labels, fontsize=8)
    ax.set_xlim(disp.ticks[0], disp.ticks[-1])
    ax.set_ylabel("frequency (THz)")
    ax.set_title(title, fontsize=10)
    axd.plot(results.dos_states_per_thz, results.dos_frequencies_thz, color="tab:red", lw=1.0)
    axd.axhline(0, color="black", lw=0.6)
    axd.set_xlabel("DOS (states/THz)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
