"""Words to ``electrolyte_diffusivity`` parameters: every stated choice honoured or refused.

Salt, solvent(s), ratio and its basis, concentration (molality, or molarity with a
stated density), temperature and force route are read; a choice simwright cannot
honour (another salt, EMC, a force field simwright lacks) raises :class:`ParseError` naming
it. "OPLS-AA", "classical force field" choose the classical route (LAMMPS).
"""

from __future__ import annotations

import re
from typing import Any

from simwright.errors import ParseError

_TRIGGER = re.compile(r"\b(li[- ]?ion|li\+|lithium|lipf6|electrolyte)", re.I)
_SOLVENTS = {
    "ec": r"\bec\b|ethylene carbonate",
    "pc": r"\bpc\b|propylene carbonate",
    "dmc": r"\bdmc\b|dimethyl carbonate",
    "dec": r"\bdec\b|diethyl carbonate",
    "emc": r"\bemc\b|ethyl methyl carbonate",
}
_OTHER_SALTS = r"\b(litfsi|lifsi|libf4|liclo4|libob|liasf6|lidfob)\b"
_CLASSICAL = r"\b(opls(?:-aa)?|classical)\b"
_OTHER_FORCEFIELDS = r"\b(gaff2?|cl&p|charmm|amber|apple&p|compass|reaxff)\b"
_NUMBER = r"(\d+(?:\.\d+)?)"


def parse_request(text: str) -> dict[str, Any] | None:
    """Raw parameters of an electrolyte request, or None when it is not one."""
    low = text.lower()
    if not _TRIGGER.search(low) or not re.search(r"diffus|msd|transport|conductiv", low):
        return None
    other = re.search(_OTHER_SALTS, low)
    if other:
        raise ParseError(f"salt {other.group(1)} refused: only LiPF6 is known")
    raw: dict[str, Any] = {"salt": "lipf6"}
    found = sorted(
        (m.start(), name) for name, pat in _SOLVENTS.items() for m in [re.search(pat, low)] if m
    )
    if not found:
        raise ParseError("the request names no solvent (EC, PC, DMC or DEC)")
    raw["solvents"] = [name for _, name in found]
    raw.update(_ratio(low, len(found)))
    raw.update(_concentration(text))
    raw.update(_temperature(low))
    raw.update(_potential(low))
    return raw


def _potential(low: str) -> dict[str, Any]:
    """The potential a request names: OPLS-AA (classical), CHGNet or SevenNet; or none."""
    other = re.search(_OTHER_FORCEFIELDS, low)
    if other:
        raise ParseError(
            f"force field {other.group(1)} refused: the classical route runs OPLS-AA only"
        )
    named = [
        name
        for name, pattern in (
            ("classical", _CLASSICAL),
            ("chgnet", r"\bchgnet\b"),
            ("sevennet_0_d3", r"\b(sevennet|7net)"),
        )
        if re.search(pattern, low)
    ]
    if len(named) > 1:
        raise ParseError(f"the request names several potentials ({', '.join(named)})")
    return {"potential": named[0]} if named else {}


def _ratio(low: str, n: int) -> dict[str, Any]:
    m = re.search(r"\b(\d+(?:\.\d+)?(?:\s*:\s*\d+(?:\.\d+)?)+)\b", low)
    if m is None:
        return {}
    parts = [float(x) for x in m.group(1).split(":")]
    if len(parts) != n:
        raise ParseError(f"the ratio {m.group(1)} does not have one number per solvent ({n})")
    out: dict[str, Any] = {"solvent_ratio": parts}
    if re.search(r"by volume|v/v|vol", low):
        out["ratio_basis"] = "volume"
    elif re.search(r"by mole|molar ratio|mol ratio|mole ratio", low):
        out["ratio_basis"] = "mole"
    return out


def _concentration(text: str) -> dict[str, Any]:
    molal = re.search(_NUMBER + r"\s*(?:molal\b|m\b|mol/kg)", text)
    molar = re.search(_NUMBER + r"\s*(?:molar\b|M\b|mol/l\b|mol/L\b)", text)
    if molal and molar:
        raise ParseError("the request gives the concentration twice (molality and molarity)")
    if molal:
        return {"molality_mol_kg": float(molal.group(1))}
    if molar:
        rho = re.search(r"density\s*(?:of\s*)?" + _NUMBER + r"\s*g/(?:cm3|cm\^3|ml)", text, re.I)
        if rho is None:
            raise ParseError(
                f"molarity {molar.group(1)} M needs the solution density to become a molality: "
                "state it (e.g. 'density 1.2 g/cm3') or give the molality"
            )
        return {
            "molarity_mol_l": float(molar.group(1)),
            "solution_density_g_cm3": float(rho.group(1)),
        }
    return {}


def _temperature(low: str) -> dict[str, Any]:
    kelvin = set(re.findall(_NUMBER + r"\s*k\b", low))
    celsius = set(re.findall(_NUMBER + r"\s*°\s*c\b", low))
    if len(kelvin) + len(celsius) > 1:
        raise ParseError("the request names several temperatures")
    if kelvin:
        return {"temperature_k": float(kelvin.pop())}
    if celsius:
        return {"temperature_k": float(celsius.pop()) + 273.15}
    return {}
