"""OPLS-AA parameters as published, in the units of their source.

Sources (each entry names its own):

- ``gmx``: the OPLS-AA files distributed with GROMACS (``share/top/oplsaa.ff``,
  ``ffnonbonded.itp`` and ``ffbonded.itp``), which transcribe W. L. Jorgensen,
  D. S. Maxwell, J. Tirado-Rives, J. Am. Chem. Soc. 118, 11225 (1996) (alkanes,
  alcohols), M. L. P. Price, D. Ostrovsky, W. L. Jorgensen, J. Comput. Chem. 22,
  1340 (2001) (nitriles, esters) and later OPLS-AA work. Units: σ in nm, ε in kJ/mol,
  bonds b₀ in nm with k_b in kJ/mol/nm² and angles θ₀ with k_θ in kJ/mol/rad², both
  in the form ½k(x − x₀)²; torsions in the Ryckaert–Bellemans form C₀…C₅ (kJ/mol).
- ``silva2007``: the cyclic-carbonate types opls_771–779 of the same files, marked
  there "propylene carbonate (Luciennes param.)", i.e. L. B. Silva, L. C. G. Freitas,
  J. Mol. Struct. THEOCHEM 806, 23 (2007) (OPLS Lennard-Jones with MP2 CHELPG
  charges). That the GROMACS numbers equal the paper's tables is not checked here
  (unverified); EC takes the PC types of its CH₂ groups, as OPLS typing tools do.
- ``aqvist1990``: Li⁺ (opls_406), J. Åqvist, J. Phys. Chem. 94, 8021 (1990).
- ``clp2004``: PF₆⁻ from CL&P, J. N. Canongia Lopes, J. Deschamps, A. A. H. Pádua,
  J. Phys. Chem. B 108, 2038 (2004) (il.ff: PF₆⁻ after G. A. Kaminski,
  W. L. Jorgensen, J. Chem. Soc., Perkin Trans. 2, 2365 (1999)); σ in Å, ε in
  kJ/mol, bond and angle constants in the form ½k(x − x₀)² per Å² and rad².
- ``simwright``: a term OPLS-AA does not list, filled by a stated rule (see its note).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SOURCES: Final = {
    "gmx": "OPLS-AA (Jorgensen et al., J. Am. Chem. Soc. 118, 11225 (1996); Price, "
    "Ostrovsky, Jorgensen, J. Comput. Chem. 22, 1340 (2001)) as distributed with GROMACS",
    "silva2007": "L. B. Silva, L. C. G. Freitas, J. Mol. Struct. THEOCHEM 806, 23 (2007), "
    "as OPLS-AA types opls_771-779 of GROMACS",
    "aqvist1990": "J. Åqvist, J. Phys. Chem. 94, 8021 (1990) (OPLS-AA opls_406)",
    "clp2004": "J. N. Canongia Lopes, J. Deschamps, A. A. H. Pádua, J. Phys. Chem. B 108, "
    "2038 (2004) (CL&P; PF6- after Kaminski & Jorgensen, J. Chem. Soc. Perkin Trans. 2, "
    "2365 (1999))",
    "simwright": "a simwright closure rule for a term OPLS-AA does not list (see the note)",
}


@dataclass(frozen=True)
class NonBonded:
    """One OPLS-AA atom type: bonded class, element, mass (u), charge (e), σ (Å), ε (kJ/mol)."""

    name: str
    bonded_class: str
    element: str
    mass_amu: float
    charge_e: float
    sigma_a: float
    epsilon_kj_mol: float
    source: str


def _gmx(name: str, cls: str, el: str, m: float, q: float, sig_nm: float, eps: float) -> NonBonded:
    return NonBonded(name, cls, el, m, q, sig_nm * 10.0, eps, "gmx")


ATOM_TYPES: Final = {
    t.name: t
    for t in (
        # cyclic carbonates (EC, PC)
        NonBonded("opls_771", "O", "O", 15.9994, -0.500, 2.96, 0.87864, "silva2007"),
        NonBonded("opls_772", "C", "C", 12.011, 0.860, 3.75, 0.43932, "silva2007"),
        NonBonded("opls_773", "OS", "O", 15.9994, -0.450, 3.00, 0.71128, "silva2007"),
        NonBonded("opls_774", "CT", "C", 12.011, 0.210, 3.50, 0.276144, "silva2007"),
        NonBonded("opls_775", "CT", "C", 12.011, 0.160, 3.50, 0.276144, "silva2007"),
        NonBonded("opls_776", "CT", "C", 12.011, -0.100, 3.50, 0.276144, "silva2007"),
        NonBonded("opls_777", "HC", "H", 1.008, 0.030, 2.42, 0.06276, "silva2007"),
        NonBonded("opls_778", "HC", "H", 1.008, 0.030, 2.42, 0.06276, "silva2007"),
        NonBonded("opls_779", "HC", "H", 1.008, 0.060, 2.42, 0.06276, "silva2007"),
        # alkanes and alcohols
        _gmx("opls_135", "CT", "C", 12.011, -0.180, 0.350, 0.276144),
        _gmx("opls_140", "HC", "H", 1.008, 0.060, 0.250, 0.12552),
        _gmx("opls_154", "OH", "O", 15.9994, -0.683, 0.312, 0.71128),
        _gmx("opls_155", "HO", "H", 1.008, 0.418, 0.0, 0.0),
        _gmx("opls_156", "HC", "H", 1.008, 0.040, 0.250, 0.12552),
        _gmx("opls_157", "CT", "C", 12.011, 0.145, 0.350, 0.276144),
        # acetonitrile
        _gmx("opls_753", "NZ", "N", 14.0067, -0.560, 0.320, 0.71128),
        _gmx("opls_754", "CZ", "C", 12.011, 0.460, 0.330, 0.276144),
        _gmx("opls_755", "CT", "C", 12.011, -0.080, 0.330, 0.276144),
        _gmx("opls_759", "HC", "H", 1.008, 0.060, 0.250, 0.06276),
        # ions
        NonBonded("opls_406", "Li", "Li", 6.941, 1.0, 2.12645, 0.0764793, "aqvist1990"),
        NonBonded("clp_P", "P", "P", 30.974, 1.34, 3.74, 0.83680, "clp2004"),
        NonBonded("clp_F", "FP", "F", 18.998, -0.39, 3.12, 0.25520, "clp2004"),
    )
}
"""OPLS-AA atom types by name (charges unscaled)."""


@dataclass(frozen=True)
class Stretch:
    """A bond (two classes) or angle (three) term: x₀ (Å or degrees), k in kJ/mol per Å²
    (or rad²) for ½k(x − x₀)²; ``note`` explains a term that is not a plain transcription."""

    classes: tuple[str, ...]
    x0: float
    k_kj: float
    source: str
    note: str = ""


def _bond(a: str, b: str, b0_nm: float, kb_nm2: float) -> Stretch:
    return Stretch((a, b), b0_nm * 10.0, kb_nm2 / 100.0, "gmx")


def _angle(a: str, b: str, c: str, theta: float, k: float, src: str = "gmx") -> Stretch:
    return Stretch((a, b, c), theta, k, src)


BONDS: Final = (
    _bond("C", "O", 0.12290, 476976.0),
    _bond("C", "OS", 0.13270, 179075.2),
    _bond("CT", "OS", 0.14100, 267776.0),
    _bond("CT", "CT", 0.15290, 224262.4),
    _bond("CT", "HC", 0.10900, 284512.0),
    _bond("CT", "OH", 0.14100, 267776.0),
    _bond("HO", "OH", 0.09450, 462750.4),
    _bond("CT", "CZ", 0.14700, 326352.0),
    _bond("CZ", "NZ", 0.11570, 543920.0),
    Stretch(("P", "FP"), 1.606, 3100.0, "clp2004"),
)

ANGLES: Final = (
    _angle("O", "C", "OS", 123.4, 694.544),
    Stretch(
        ("OS", "C", "OS"),
        360.0 - 2 * 123.4,
        694.544,
        "simwright",
        "OPLS-AA lists no OS-C-OS angle: θ₀ closes the planar carbonate centre "
        "(360° − 2 × 123.4°), k from O-C-OS",
    ),
    _angle("C", "OS", "CT", 116.9, 694.544),
    _angle("CT", "CT", "OS", 109.5, 418.4),
    _angle("HC", "CT", "OS", 109.5, 292.88),
    _angle("HC", "CT", "HC", 107.8, 276.144),
    _angle("CT", "CT", "HC", 110.7, 313.8),
    _angle("CT", "CT", "CT", 112.7, 488.273),
    _angle("CT", "OH", "HO", 108.5, 460.24),
    _angle("HC", "CT", "OH", 109.5, 292.88),
    _angle("CT", "CT", "OH", 109.5, 418.4),
    _angle("CT", "CZ", "NZ", 180.0, 1255.2),
    _angle("HC", "CT", "CZ", 108.5, 292.88),
    _angle("FP", "P", "FP", 90.0, 1165.0, "clp2004"),
)


@dataclass(frozen=True)
class Torsion:
    """A proper torsion in the Ryckaert–Bellemans form C₀…C₅ (kJ/mol) of GROMACS."""

    classes: tuple[str, str, str, str]
    rb_kj: tuple[float, float, float, float, float, float]
    source: str
    note: str = ""


def _rb(
    a: str, b: str, c: str, d: str, c0: float, c1: float, c2: float, c3: float, note: str = ""
) -> Torsion:
    return Torsion((a, b, c, d), (c0, c1, c2, c3, 0.0, 0.0), "gmx", note)


DIHEDRALS: Final = (
    _rb("CT", "OS", "C", "O", 20.92, 0.0, -20.92, 0.0),
    _rb(
        "OS",
        "C",
        "OS",
        "CT",
        31.20637,
        -9.76754,
        -21.43881,
        0.0,
        note="OPLS-AA has no carbonate OS-C-OS-CT term: the ester CT-C-OS-CT term by analogy",
    ),
    _rb("C", "OS", "CT", "CT", -2.19660, 5.20071, 0.52719, -3.53130),
    _rb("C", "OS", "CT", "HC", 0.41421, 1.24265, 0.0, -1.65686),
    _rb("OS", "CT", "CT", "OS", -1.15060, 1.15060, 0.0, 0.0),
    _rb("HC", "CT", "CT", "OS", 0.97905, 2.93716, 0.0, -3.91622),
    _rb("HC", "CT", "CT", "HC", 0.62760, 1.88280, 0.0, -2.51040),
    _rb("CT", "CT", "CT", "OS", 2.87441, 0.58158, 2.09200, -5.54799),
    _rb("CT", "CT", "CT", "HC", 0.62760, 1.88280, 0.0, -2.51040),
    _rb("HC", "CT", "CT", "OH", 0.97905, 2.93716, 0.0, -3.91622),
    _rb("CT", "CT", "OH", "HO", -0.44350, 3.83255, 0.72801, -4.11705),
    _rb("HC", "CT", "OH", "HO", 0.94140, 2.82420, 0.0, -3.76560),
)

IMPROPER_CARBONYL_KJ: Final = 43.932
"""OPLS-AA ``improper_O_C_X_Y``: k (1 − cos 2φ) with k = 43.932 kJ/mol (10.5 kcal/mol),
keeping a carbonyl carbon planar (GROMACS ``ffbonded.itp``)."""

LINEAR_CLASSES: Final = frozenset({"CZ"})
"""Classes of linear (sp) centres: no torsion is defined about a bond to them."""
