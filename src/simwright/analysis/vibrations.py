"""Harmonic vibrational analysis of a molecule from its Cartesian Hessian.

The Hessian is mass-weighted, overall translations and rotations are projected out
(Eckart conditions; E. B. Wilson, J. C. Decius, P. C. Cross, *Molecular Vibrations*,
McGraw-Hill 1955), and the eigenvalues become wavenumbers. Imaginary frequencies are
returned as negative numbers; the normal modes as Cartesian displacements (unit norm).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HARTREE_J = 4.3597447222071e-18
BOHR_M = 0.529177210903e-10
AMU_KG = 1.66053906660e-27
C_CM_S = 2.99792458e10
"""CODATA 2018: hartree (J), bohr (m), atomic mass unit (kg), speed of light (cm/s)."""

ATOMIC_MASSES: dict[str, float] = {
    "H": 1.00782503223,
    "C": 12.0,
    "N": 14.00307400443,
    "O": 15.99491461957,
    "F": 18.99840316273,
    "P": 30.97376199842,
    "S": 31.9720711744,
    "Cl": 34.968852682,
    "Br": 78.9183376,
    "Li": 7.0160034366,
    "B": 11.00930536,
    "Na": 22.9897692820,
    "Si": 27.97692653465,
    "I": 126.9044719,
    "Ar": 39.9623831237,
}
"""Masses (u) of the most abundant isotopes (AME2016: M. Wang et al., Chin. Phys. C 41,
030003 (2017)); thermochemistry uses these, as quantum-chemistry codes do."""


@dataclass(frozen=True)
class Vibrations:
    """Harmonic frequencies (cm⁻¹, imaginary negative, ascending) and normal modes
    (n_modes × n_atoms × 3 Cartesian displacements, unit norm)."""

    frequencies_cm: np.ndarray
    modes: np.ndarray
    linear: bool

    @property
    def imaginary(self) -> tuple[float, ...]:
        """The imaginary frequencies (cm⁻¹, as negative numbers) below -20 cm⁻¹."""
        return tuple(float(f) for f in self.frequencies_cm if f < -20.0)


def masses_of(symbols: tuple[str, ...]) -> np.ndarray:
    """Isotope masses (u) of ``symbols``; an element without one is refused."""
    missing = sorted({s for s in symbols if s not in ATOMIC_MASSES})
    if missing:
        raise ValueError(f"no isotope mass for {', '.join(missing)}")
    return np.array([ATOMIC_MASSES[s] for s in symbols])


def is_linear(positions_a: np.ndarray, tol: float = 1e-3) -> bool:
    """True when all atoms lie on one line (two atoms always do)."""
    if len(positions_a) <= 2:
        return True
    centred = positions_a - positions_a.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    return bool(s[1] < tol * max(s[0], 1e-12))


def _rigid_motions(positions_a: np.ndarray, masses: np.ndarray) -> np.ndarray:
    """Orthonormal mass-weighted translations and rotations (rows)."""
    n = len(masses)
    sq = np.sqrt(masses)
    com = (masses[:, None] * positions_a).sum(0) / masses.sum()
    r = positions_a - com
    vecs = []
    for k in range(3):
        t = np.zeros((n, 3))
        t[:, k] = sq
        vecs.append(t.ravel())
    for k in range(3):
        axis = np.zeros(3)
        axis[k] = 1.0
        vecs.append((np.cross(axis, r) * sq[:, None]).ravel())
    basis = np.array(vecs)
    u, s, _ = np.linalg.svd(basis.T, full_matrices=False)
    return np.asarray(u[:, s > 1e-6 * s.max()].T)


def harmonic_analysis(
    symbols: tuple[str, ...], positions_a: np.ndarray, hessian_ha_bohr2: np.ndarray
) -> Vibrations:
    """Frequencies and normal modes from a Cartesian Hessian (hartree/bohr²)."""
    masses = masses_of(symbols)
    m3 = np.repeat(masses, 3)
    hmw = hessian_ha_bohr2 / np.sqrt(np.outer(m3, m3))
    rigid = _rigid_motions(np.asarray(positions_a), masses)
    proj = np.eye(len(m3)) - rigid.T @ rigid
    hp = proj @ hmw @ proj
    values, vectors = np.linalg.eigh(hp)
    n_rigid = rigid.shape[0]
    # drop the n_rigid eigenvalues closest to zero (the projected rigid motions)
    keep = np.sort(np.argsort(np.abs(values))[n_rigid:])
    values, vectors = values[keep], vectors[:, keep]
    factor = HARTREE_J / (BOHR_M**2 * AMU_KG)
    omega = np.sqrt(np.abs(values) * factor) / (2 * np.pi * C_CM_S)
    freqs = np.where(values < 0, -omega, omega)
    cart = vectors / np.sqrt(m3)[:, None]
    cart /= np.linalg.norm(cart, axis=0)
    modes = cart.T.reshape(len(freqs), len(symbols), 3)
    return Vibrations(freqs, modes, is_linear(np.asarray(positions_a)))
