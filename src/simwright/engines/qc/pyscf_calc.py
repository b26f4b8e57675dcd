"""PySCF as an in-process engine: SCF energies, gradients, Hessians and TDDFT.

Restricted (RHF/RKS) for singlets, unrestricted (UHF/UKS) otherwise; implicit solvent
through PySCF's IEF-PCM or ddCOSMO with the solvent's dielectric constant
(:mod:`simwright.molecules.solvents`). Dispersion is added by
:mod:`simwright.engines.qc.dispersion`, not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simwright.engines.qc.level import FUNCTIONALS, LevelOfTheory
from simwright.errors import EngineError
from simwright.molecules.qc import QcMolecule
from simwright.molecules.solvents import find_solvent

SCF_CONV_TOL = 1e-9
"""SCF energy convergence (hartree): tight enough for finite-difference Hessians."""


def pyscf_version() -> str:
    """The installed PySCF version ('' when it is not installed)."""
    try:
        # lazy: PySCF (extra [molecules]) takes ~1 s to import
        import pyscf
    except ImportError:
        return ""
    return str(pyscf.__version__)


def build_mol(molecule: QcMolecule, basis: str) -> Any:
    """The PySCF ``Mole`` of ``molecule`` in ``basis`` (Å, quiet)."""
    # lazy: PySCF (extra [molecules]) takes ~1 s to import
    from pyscf import gto

    atoms = [
        (s, tuple(float(x) for x in p))
        for s, p in zip(molecule.symbols, molecule.positions, strict=True)
    ]
    return gto.M(
        atom=atoms,
        basis=basis,
        charge=molecule.charge,
        spin=molecule.multiplicity - 1,
        unit="Angstrom",
        verbose=0,
    )


def make_scf(molecule: QcMolecule, level: LevelOfTheory) -> Any:
    """The SCF object (not yet run) of ``molecule`` at ``level``."""
    # lazy: PySCF (extra [molecules]) takes ~1 s to import
    from pyscf import dft, scf

    assert level.basis is not None
    mol = build_mol(molecule, level.basis)
    closed = molecule.multiplicity == 1
    if level.method == "hf":
        mf = scf.RHF(mol) if closed else scf.UHF(mol)
    else:
        mf = dft.RKS(mol) if closed else dft.UKS(mol)
        mf.xc = FUNCTIONALS[level.method]
    mf.conv_tol = SCF_CONV_TOL
    mf.max_cycle = 200
    if level.solvent is not None:
        mf = mf.ddCOSMO() if level.model == "ddcosmo" else mf.PCM()
        mf.with_solvent.eps = find_solvent(level.solvent).epsilon
        if level.model == "pcm":
            mf.with_solvent.method = "IEF-PCM"
    return mf


def _converged(mf: Any, molecule: QcMolecule, level: LevelOfTheory) -> None:
    if not mf.converged:
        raise EngineError(
            f"PySCF SCF of {molecule.name} at {level.label()} did not converge in "
            f"{mf.max_cycle} cycles"
        )


def energy_gradient(molecule: QcMolecule, level: LevelOfTheory) -> tuple[float, np.ndarray]:
    """SCF energy (hartree) and its gradient (hartree/bohr, n × 3)."""
    mf = make_scf(molecule, level)
    energy = float(mf.kernel())
    _converged(mf, molecule, level)
    grad = np.asarray(mf.nuc_grad_method().kernel())
    return energy, grad


def energy(molecule: QcMolecule, level: LevelOfTheory) -> float:
    """SCF energy (hartree)."""
    mf = make_scf(molecule, level)
    e = float(mf.kernel())
    _converged(mf, molecule, level)
    return e


def analytic_hessian(molecule: QcMolecule, level: LevelOfTheory) -> np.ndarray:
    """The analytic Hessian (hartree/bohr², 3n × 3n) of a gas-phase SCF."""
    mf = make_scf(molecule, level)
    mf.kernel()
    _converged(mf, molecule, level)
    h = np.asarray(mf.Hessian().kernel())  # (n, n, 3, 3)
    n = len(molecule.symbols)
    return h.transpose(0, 2, 1, 3).reshape(3 * n, 3 * n)


@dataclass(frozen=True)
class Excitations:
    """Vertical excitation energies (eV) and oscillator strengths of the lowest states."""

    energies_ev: tuple[float, ...]
    oscillator_strengths: tuple[float, ...]
    ground_energy_ha: float


HARTREE_EV = 27.211386245988
"""CODATA 2018 hartree energy in eV."""


def excitations(
    molecule: QcMolecule, level: LevelOfTheory, n_states: int, *, tda: bool = False
) -> Excitations:
    """TDDFT (or TDA) vertical excitations of ``molecule``'s ground state; in a solvent
    the reaction field is PySCF's for the excited states."""
    mf = make_scf(molecule, level)
    e0 = float(mf.kernel())
    _converged(mf, molecule, level)
    td = mf.TDA() if tda else mf.TDDFT()
    td.nstates = n_states
    td.kernel()
    if not all(np.atleast_1d(td.converged)):
        raise EngineError(f"TDDFT of {molecule.name} at {level.label()} did not converge")
    return Excitations(
        tuple(float(e) * HARTREE_EV for e in td.e),
        tuple(float(f) for f in td.oscillator_strength()),
        e0,
    )


SYMMETRY_TOLERANCE_BOHR = 1e-2
"""How far atoms may be from symmetric positions for the point group (bohr): optimised
geometries are symmetric only to about the optimiser's displacement threshold."""


def point_group(molecule: QcMolecule) -> str:
    """The point group of ``molecule`` (Schoenflies, PySCF's names: ``C2v``, ``Dooh``)."""
    # lazy: PySCF (extra [molecules]) takes ~1 s to import
    from pyscf.symm import geom

    atoms = [
        (s, tuple(float(x) / 0.529177210903 for x in p))
        for s, p in zip(molecule.symbols, molecule.positions, strict=True)
    ]
    saved = geom.TOLERANCE
    geom.TOLERANCE = SYMMETRY_TOLERANCE_BOHR
    try:
        return str(geom.detect_symm(atoms)[0])
    finally:
        geom.TOLERANCE = saved
