"""The edges of the pw.x parameter knowledge graph, as typed data.

Two kinds of edges:

* :class:`Requirement` — a variable only acts when another has a given value
  (``degauss`` needs ``occupations='smearing'``); the validator reports a
  variable set without what it needs, and a setting that needs a companion
  (``nspin=2`` without any ``starting_magnetization``).
* :class:`Activation` — a physical condition of the system or the task
  (metal, spin-polarized, relax, hybrid functional, 2D, ...) switches variables
  on, with the value simwright suggests and why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

Value = bool | int | float | str

SMEARING = "smearing"
HYBRIDS = frozenset(
    {
        "pbe0",
        "pbe0-d",
        "hse",
        "b3lyp",
        "b3lyp-v1r",
        "x3lyp",
        "gaupbe",
        "gaup",
        "scan0",
        "b86bpbex",
        "bhahlyp",
        "bhandhlyp",
        "vdw-df-cx0",
        "vdw-df-cx0p",
        "vdw-df2-0",
        "vdw-df2-br0",
        "vdw-df-c090",
    }
)
"""input_dft short names pw.x 6.7 knows as hybrids (Modules/funct.f90)."""
HYBRID_EXCHANGE = ("pb0x", "b3lp", "x3lp", "hse", "gaup", "cx0", "r860", "br0", "c090", "scan0")
"""Exact-exchange components of a composite input_dft ('sla+pw+pb0x+pbc')."""
D2 = frozenset({"grimme-d2", "dft-d"})
D3 = frozenset({"grimme-d3", "dft-d3"})
TS = frozenset({"ts", "ts-vdw", "tkatchenko-scheffler"})
XDM = frozenset({"xdm"})
ION_CALCULATIONS = frozenset({"relax", "md", "vc-relax", "vc-md"})
CELL_CALCULATIONS = frozenset({"vc-relax", "vc-md"})


@dataclass(frozen=True)
class Requirement:
    """``source`` (when set to an active value) needs ``target`` to satisfy ``test``."""

    source: str
    target: str
    expect: str
    """Human-readable form of the test, e.g. ``occupations='smearing'``."""
    test: Callable[[Value | None], bool]
    fix: Mapping[str, Value] | None = None
    """Changes (variable -> value) that satisfy the requirement, if one is obvious."""


def _eq(value: Value) -> Callable[[Value | None], bool]:
    def check(v: Value | None) -> bool:
        if isinstance(value, str) and isinstance(v, str):
            return v.lower() == value.lower()
        return v == value

    return check


def _in(values: frozenset[str]) -> Callable[[Value | None], bool]:
    return lambda v: isinstance(v, str) and v.lower() in values


def _hybrid(v: Value | None) -> bool:
    if not isinstance(v, str):
        return False
    name = v.strip().lower()
    return name in HYBRIDS or ("+" in name and any(x in name for x in HYBRID_EXCHANGE))


def _true(v: Value | None) -> bool:
    return v is True


def _not_none(v: Value | None) -> bool:
    return v is not None and not (isinstance(v, str) and v.lower() == "none")


def _requires(
    sources: tuple[str, ...],
    target: str,
    expect: str,
    test: Callable[[Value | None], bool],
    fix: Mapping[str, Value] | None = None,
) -> list[Requirement]:
    return [Requirement(s, target, expect, test, fix) for s in sources]


REQUIREMENTS: tuple[Requirement, ...] = tuple(
    _requires(
        ("smearing", "degauss"),
        "occupations",
        "occupations='smearing'",
        _eq(SMEARING),
        {"occupations": SMEARING},
    )
    + _requires(("tot_magnetization",), "nspin", "nspin=2", _eq(2), {"nspin": 2})
    + _requires(
        ("lspinorb", "angle1", "angle2", "report", "lforcet", "starting_spin_angle"),
        "noncolin",
        "noncolin=.true.",
        _true,
        {"noncolin": True},
    )
    + _requires(
        (
            "Hubbard_U",
            "Hubbard_J0",
            "Hubbard_alpha",
            "Hubbard_beta",
            "Hubbard_J",
            "Hubbard_V",
            "U_projection_type",
            "starting_ns_eigenvalue",
            "lda_plus_u_kind",
            "Hubbard_parameters",
            "mixing_fixed_ns",
        ),
        "lda_plus_u",
        "lda_plus_u=.true.",
        _true,
        {"lda_plus_u": True},
    )
    + _requires(
        ("london_s6", "london_c6", "london_rvdw", "london_rcut"),
        "vdw_corr",
        "vdw_corr='grimme-d2'",
        lambda v: _in(D2)(v),
        {"vdw_corr": "grimme-d2"},
    )
    + _requires(
        ("dftd3_version", "dftd3_threebody"),
        "vdw_corr",
        "vdw_corr='grimme-d3'",
        _in(D3),
        {"vdw_corr": "grimme-d3"},
    )
    + _requires(
        ("ts_vdw_econv_thr", "ts_vdw_isolated"),
        "vdw_corr",
        "vdw_corr='ts'",
        _in(TS),
        {"vdw_corr": "ts"},
    )
    + _requires(("xdm_a1", "xdm_a2"), "vdw_corr", "vdw_corr='xdm'", _in(XDM), {"vdw_corr": "xdm"})
    + _requires(
        (
            "nqx1",
            "nqx2",
            "nqx3",
            "exxdiv_treatment",
            "ecutfock",
            "x_gamma_extrapolation",
            "ecutvcut",
            "exx_fraction",
            "screening_parameter",
            "localization_thr",
        ),
        "input_dft",
        "a hybrid input_dft (e.g. 'pbe0', 'hse')",
        _hybrid,
    )
    + _requires(
        ("esm_bc", "esm_w", "esm_efield", "esm_nfit"),
        "assume_isolated",
        "assume_isolated='esm'",
        _eq("esm"),
        {"assume_isolated": "esm"},
    )
    + _requires(
        ("edir", "emaxpos", "eopreg", "eamp", "dipfield"),
        "tefield",
        "tefield=.true.",
        _true,
        {"tefield": True},
    )
    + _requires(
        ("nberrycyc", "efield", "efield_cart", "efield_phase"),
        "lelfield",
        "lelfield=.true.",
        _true,
        {"lelfield": True},
    )
    + _requires(
        ("fixed_magnetization", "lambda"),
        "constrained_magnetization",
        "a constrained_magnetization other than 'none'",
        _not_none,
    )
    + _requires(
        ("zgate", "relaxz", "block", "block_1", "block_2", "block_height"),
        "gate",
        "gate=.true.",
        _true,
        {"gate": True},
    )
    + _requires(
        ("conv_thr_init", "conv_thr_multi"),
        "adaptive_thr",
        "adaptive_thr=.true.",
        _true,
        {"adaptive_thr": True},
    )
    + _requires(("fcp_mu",), "lfcpopt", "lfcpopt=.true.", _true, {"lfcpopt": True})
    + _requires(
        ("uniqueb", "origin_choice", "rhombohedral"),
        "space_group",
        "a space_group number",
        lambda v: isinstance(v, int) and v > 0,
    )
)
"""Every "this only acts with that" edge of the graph."""

NAMELIST_NEEDS: Mapping[str, frozenset[str]] = {
    "ions": ION_CALCULATIONS,
    "cell": CELL_CALCULATIONS,
}
"""A namelist and the calculations for which pw.x reads it."""


@dataclass(frozen=True)
class Activation:
    """A variable a condition switches on, with a suggested value and the reason.

    ``per_species`` marks arrays (``starting_magnetization``) whose value is
    chosen per species by the recommender; ``value`` is then the typical value.
    """

    condition: str
    namelist: str
    name: str
    value: Value | None
    reason: str
    per_species: bool = False
    structural: bool = False
    """True for advice about the structure or k-points rather than a namelist variable."""


def _act(
    condition: str,
    items: list[tuple[str, str, Value | None, str]],
    *,
    per_species: tuple[str, ...] = (),
    structural: tuple[str, ...] = (),
) -> list[Activation]:
    return [
        Activation(condition, nl, name, value, reason, name in per_species, name in structural)
        for nl, name, value, reason in items
    ]


CONDITIONS: Mapping[str, str] = {
    "metal": "the system has a Fermi surface (elemental metal or metallic compound)",
    "spin_polarized": "the system is magnetic (Fe, Co, Ni...) and needs collinear spin",
    "spin_orbit": "a pseudopotential is fully relativistic, so spin-orbit must be included",
    "relax": "the atoms move to their minimum-energy positions (fixed cell)",
    "vc_relax": "atoms and cell relax together to zero stress",
    "hybrid": "a hybrid functional (a fraction of exact exchange) is requested",
    "two_d": "a single layer (graphene, MoS2): vacuum along z and a 2D Coulomb cutoff",
    "slab": "a surface slab with vacuum along z",
    "molecule": "an isolated molecule in a box of vacuum",
    "hubbard": "localized d or f electrons corrected with a Hubbard U",
    "vdw": "dispersion (van der Waals) interactions matter",
    "charged": "the cell carries a net charge",
}
"""The condition nodes of the graph and what they mean."""

ACTIVATIONS: tuple[Activation, ...] = tuple(
    _act(
        "metal",
        [
            (
                "system",
                "occupations",
                "smearing",
                "a metal has partially filled bands at the Fermi level",
            ),
            (
                "system",
                "smearing",
                "mv",
                "cold (Marzari-Vanderbilt) smearing keeps the energy close to the zero-width limit",
            ),
            ("system", "degauss", 0.02, "0.02 Ry is a common width for cold smearing"),
        ],
    )
    + _act(
        "spin_polarized",
        [
            ("system", "nspin", 2, "collinear spin polarization"),
            (
                "system",
                "starting_magnetization",
                0.5,
                "a zero starting moment converges to the non-magnetic state",
            ),
        ],
        per_species=("starting_magnetization",),
    )
    + _act(
        "spin_orbit",
        [
            ("system", "noncolin", True, "spin-orbit needs two-component spinors"),
            (
                "system",
                "lspinorb",
                True,
                "fully relativistic pseudopotentials carry spin-orbit terms",
            ),
        ],
    )
    + _act(
        "relax",
        [
            ("control", "calculation", "relax", "positions relax at fixed cell"),
            ("control", "forc_conv_thr", 1.0e-3, "forces below 1e-3 Ry/Bohr (about 0.026 eV/Å)"),
            ("control", "tprnfor", True, "print the forces"),
            (
                "ions",
                "ion_dynamics",
                "bfgs",
                "quasi-Newton BFGS is the robust default for minimisation",
            ),
        ],
    )
    + _act(
        "vc_relax",
        [
            ("control", "calculation", "vc-relax", "atoms and cell relax together"),
            ("control", "forc_conv_thr", 1.0e-3, "forces below 1e-3 Ry/Bohr (about 0.026 eV/Å)"),
            ("control", "tstress", True, "the stress drives the cell"),
            ("ions", "ion_dynamics", "bfgs", "BFGS moves the atoms"),
            ("cell", "cell_dynamics", "bfgs", "BFGS moves the cell"),
            ("cell", "press_conv_thr", 0.5, "stress below 0.5 kbar"),
        ],
    )
    + _act(
        "hybrid",
        [
            ("system", "input_dft", "pbe0", "the hybrid functional replaces the one in the files"),
            ("system", "nqx1", 1, "exact-exchange q-mesh (raise towards the k-mesh to converge)"),
            ("system", "nqx2", 1, "exact-exchange q-mesh"),
            ("system", "nqx3", 1, "exact-exchange q-mesh"),
            (
                "system",
                "exxdiv_treatment",
                "gygi-baldereschi",
                "treats the q=0 divergence of periodic solids",
            ),
            ("system", "ecutfock", None, "lower than ecutrho to save time (at most ecutrho)"),
        ],
    )
    + _act(
        "two_d",
        [
            (
                "system",
                "assume_isolated",
                "2D",
                "cut the Coulomb interaction between periodic layers",
            ),
            ("structure", "vacuum_a", 15.0, "at least 10-15 Å of vacuum between layers"),
            ("k_points", "mesh", "n×n×1", "no dispersion across the vacuum"),
        ],
        structural=("vacuum_a", "mesh"),
    )
    + _act(
        "slab",
        [
            ("structure", "vacuum_a", 10.0, "at least 10 Å of vacuum between slab images"),
            ("k_points", "mesh", "n×n×1", "no dispersion across the vacuum"),
        ],
        structural=("vacuum_a", "mesh"),
    )
    + _act(
        "molecule",
        [
            ("structure", "vacuum_a", 10.0, "at least 10 Å of vacuum around the molecule"),
            ("k_points", "mode", "gamma", "an isolated molecule has no dispersion: Γ only"),
        ],
        structural=("vacuum_a", "mode"),
    )
    + _act(
        "hubbard",
        [
            ("system", "lda_plus_u", True, "switch on DFT+U"),
            (
                "system",
                "Hubbard_U",
                4.0,
                "U of a few eV on the localized shell (material specific)",
            ),
        ],
        per_species=("Hubbard_U",),
    )
    + _act(
        "vdw",
        [
            ("system", "vdw_corr", "grimme-d3", "Grimme D3 is the broadly parametrised default"),
        ],
    )
    + _act(
        "charged",
        [
            ("system", "tot_charge", None, "the net charge of the cell"),
            (
                "system",
                "assume_isolated",
                "mt",
                "Martyna-Tuckerman removes image interactions of a charged molecule",
            ),
        ],
    )
)
"""Every condition -> variable edge of the graph."""
