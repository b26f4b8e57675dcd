"""Settings that need a companion, as pw.x 6.7's input reader decides them.

Each rule follows what ``iosys`` (``PW/src/input.f90``), ``set_occupations`` and
``set_cutoff`` of pw.x 6.7 do: an error where pw.x stops, a warning where it runs
but probably not as meant (a zero starting moment, a small ``ecutrho``).
"""

from __future__ import annotations

from simwright.dft.kg_rules import Value
from simwright.dft.problems import Namelists, Problem, flat, indexed

SCF_CALCULATIONS = frozenset({"scf", "relax", "md", "vc-relax", "vc-md"})
"""Calculations that run a self-consistent cycle (``lscf`` in pw.x)."""


def _number(value: Value | None) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _text(value: Value | None, default: str) -> str:
    return value.strip().lower() if isinstance(value, str) else default


_VDW_KINDS: dict[str, str] = {
    "grimme-d2": "DFT-D2",
    "dft-d": "DFT-D2",
    "grimme-d3": "DFT-D3",
    "dft-d3": "DFT-D3",
    "ts": "Tkatchenko-Scheffler",
    "ts-vdw": "Tkatchenko-Scheffler",
    "tkatchenko-scheffler": "Tkatchenko-Scheffler",
    "xdm": "XDM",
}
_VDW_FLAGS: dict[str, str] = {"london": "DFT-D2", "xdm": "XDM", "ts_vdw": "Tkatchenko-Scheffler"}
"""The obsolete logical switches pw.x 6.7 still reads, and the correction each turns on."""


def check_companions(namelists: Namelists) -> list[Problem]:
    """Smearing width, spin moments, DFT+U, cutoffs and conflicting switches."""
    values = flat(namelists)
    return [
        *_smearing(values),
        *_spin(namelists, values),
        *_hubbard(namelists, values),
        *_cutoffs(values),
        *_conflicts(values),
    ]


def _smearing(values: dict[str, Value]) -> list[Problem]:
    degauss = _number(values.get("degauss"))
    if _text(values.get("occupations"), "fixed") == "smearing" and not (degauss and degauss > 0):
        return [
            Problem(
                "missing_dependency",
                "error",
                "system",
                "degauss",
                "occupations='smearing' needs a smearing width degauss > 0",
                fix={"system": {"degauss": 0.02}},
            )
        ]
    return []


def _spin(namelists: Namelists, values: dict[str, Value]) -> list[Problem]:
    """pw.x: with nspin=2 a scf run needs tot_magnetization (fixed occupations) or moments."""
    if values.get("nspin") != 2:
        return []
    calc = _text(values.get("calculation"), "scf")
    occupations = _text(values.get("occupations"), "fixed")
    total = _number(values.get("tot_magnetization"))
    two_fermi = total is not None and total != -1
    constrained = _text(values.get("constrained_magnetization"), "none") != "none"
    moments = [m for m in indexed(namelists, "starting_magnetization") if _number(m) is not None]
    if calc not in SCF_CALCULATIONS:
        return []
    if occupations == "fixed" and not two_fermi:
        return [
            Problem(
                "missing_dependency",
                "error",
                "system",
                "tot_magnetization",
                "nspin=2 with fixed occupations needs tot_magnetization (or use smearing)",
            )
        ]
    if occupations == "from_input" or two_fermi or constrained:
        return []
    if not moments:
        return [
            Problem(
                "missing_dependency",
                "error",
                "system",
                "starting_magnetization",
                "nspin=2 needs starting_magnetization for some species (or tot_magnetization)",
                fix={"system": {"starting_magnetization(1)": 0.5}},
            )
        ]
    if all(_number(m) == 0 for m in moments):
        return [
            Problem(
                "inconsistent",
                "warning",
                "system",
                "starting_magnetization",
                "every starting_magnetization is zero: nspin=2 will converge non-magnetic",
            )
        ]
    return []


def _hubbard(namelists: Namelists, values: dict[str, Value]) -> list[Problem]:
    """lda_plus_u with no Hubbard parameter at all (U, J, J0, V, alpha, beta...)."""
    hubbard = any(k.startswith("hubbard_") for k in values) or "starting_ns_eigenvalue" in values
    if values.get("lda_plus_u") is True and not hubbard:
        return [
            Problem(
                "missing_dependency",
                "warning",
                "system",
                "Hubbard_U",
                "lda_plus_u=.true. without any Hubbard parameter does nothing",
            )
        ]
    return []


def _cutoffs(values: dict[str, Value]) -> list[Problem]:
    """pw.x stops when ecutrho <= ecutwfc and only remarks below 4 × ecutwfc."""
    wfc, rho = _number(values.get("ecutwfc")), _number(values.get("ecutrho"))
    if wfc is None or rho is None or rho <= 0:
        return []
    if rho <= wfc:
        return [
            Problem(
                "inconsistent",
                "error",
                "system",
                "ecutrho",
                f"ecutrho ({rho}) must be larger than ecutwfc ({wfc}); 4 × ecutwfc is usual",
                fix={"system": {"ecutrho": 4.0 * wfc}},
            )
        ]
    if rho < 4 * wfc:
        return [
            Problem(
                "inconsistent",
                "warning",
                "system",
                "ecutrho",
                f"ecutrho ({rho}) is below 4 × ecutwfc ({4 * wfc}); right only for special cases",
            )
        ]
    return []


def _conflicts(values: dict[str, Value]) -> list[Problem]:
    """pw.x stops on noncolin with nspin=2 and on two dispersion corrections at once."""
    out = []
    if values.get("noncolin") is True and values.get("nspin") == 2:
        out.append(
            Problem(
                "inconsistent",
                "error",
                "system",
                "nspin",
                "noncolin=.true. and nspin=2 conflict (noncollinear runs set nspin=4 themselves)",
                fix={"system": {"nspin": None}},
            )
        )
    kinds = {_VDW_KINDS.get(_text(values.get("vdw_corr"), "none"), "")}
    kinds |= {kind for flag, kind in _VDW_FLAGS.items() if values.get(flag) is True}
    kinds.discard("")
    if len(kinds) > 1:
        out.append(
            Problem(
                "inconsistent",
                "error",
                "system",
                "vdw_corr",
                "pw.x needs a unique dispersion correction; this input asks for "
                + " and ".join(sorted(kinds)),
            )
        )
    return out
