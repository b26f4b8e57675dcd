"""Reading the liquid protocols' requests: which liquid, at what state, how large.

Every stated choice is honoured or refused by name: a water model simwright does
not have (TIP5P, OPC, the original TIP4P...) is refused with the list of known ones
rather than replaced by SPC/E, and a liquid a protocol does not run is refused with
that protocol's list. Plain "water" means SPC/E, the model the defaults are built on.
"""

from __future__ import annotations

import re
from typing import Any, Final

from simwright.errors import ParseError
from simwright.text import has_word

WATER_MODELS: Final = {
    "spce_water": ("spc/e", "spce", "spc-e"),
    "tip3p_water": ("tip3p",),
    "tip4p2005_water": ("tip4p/2005", "tip4p-2005", "tip4p2005"),
}
"""Water models simwright has, by the words that name them."""

_ANY_WATER_MODEL: Final = re.compile(
    r"(?<![\w/])(tip\d+p(?:[/-][\w.]+)?|spc(?:/\w+|-\w+|\w*)|opc\d*|swm4\S*|tips3p|st2)(?![\w/])",
    re.IGNORECASE,
)

OTHER_LIQUIDS: Final = {
    "lj_argon": ("argon", "ar", "lennard-jones", "lj"),
    "nacl_melt": ("nacl", "sodium chloride", "molten salt", "molten nacl", "tosi-fumi"),
    "methanol": ("methanol", "meoh", "methyl alcohol"),
    "ethanol": ("ethanol", "etoh", "ethyl alcohol"),
    "acetonitrile": ("acetonitrile", "mecn", "methyl cyanide"),
}
"""Non-water liquids, by the words that name them."""


def water_model(text: str) -> str | None:
    """The water system a request names: a known model, plain water (SPC/E), or None.

    A named model simwright does not have raises :class:`ParseError` naming it.
    """
    for found in _ANY_WATER_MODEL.findall(text):
        key = found.lower()
        if not any(key in words for words in WATER_MODELS.values()):
            known = "SPC/E, TIP3P (original), TIP4P/2005"
            raise ParseError(f"water model {found!r} is not available; known: {known}")
    for system, words in WATER_MODELS.items():
        if has_word(text, *words):
            return system
    if has_word(text, "water", "h2o"):
        return "spce_water"
    return None


def water_model_assumed(text: str) -> frozenset[str]:
    """``{"system"}`` when the request says plain "water" without naming a model: the
    liquid is given, the model (SPC/E) is assumed (see :attr:`Protocol.defaulted`)."""
    named = any(has_word(text, *words) for words in WATER_MODELS.values())
    plain = has_word(text, "water", "h2o")
    return frozenset({"system"}) if plain and not named else frozenset()


def liquid_system(text: str, allowed: tuple[str, ...], protocol: str) -> str | None:
    """The system of ``allowed`` that ``text`` names, None if it names no liquid.

    A named liquid (or water model) the protocol does not run raises ParseError.
    """
    found = water_model(text)
    if found is None:
        found = next((s for s, words in OTHER_LIQUIDS.items() if has_word(text, *words)), None)
    if found is not None and found not in allowed:
        raise ParseError(f"{protocol} does not run {found}; it runs {', '.join(allowed)}")
    return found


def state_quantities(text: str) -> dict[str, Any]:
    """Temperature (K or °C), pressure (bar, atm, MPa) and the number of molecules."""
    out: dict[str, Any] = {}
    kelvin = set(re.findall(r"(-?\d+(?:\.\d+)?)\s*K\b", text))
    celsius = set(re.findall(r"(-?\d+(?:\.\d+)?)\s*°\s*C\b", text))
    if len(kelvin) + len(celsius) > 1:
        raise ParseError("the request names more than one temperature")
    if kelvin:
        out["temperature_k"] = float(kelvin.pop())
    if celsius:
        out["temperature_k"] = float(celsius.pop()) + 273.15
    pressures = re.findall(r"(\d+(?:\.\d+)?)\s*(bar|atm|MPa)\b", text)
    if len(set(pressures)) > 1:
        raise ParseError("the request names more than one pressure")
    if pressures:
        value, unit = pressures[0]
        out["pressure_bar"] = float(value) * {"bar": 1.0, "atm": 1.01325, "MPa": 10.0}[unit]
    density = re.findall(r"(\d+(?:\.\d+)?)\s*g\s*/\s*cm(?:3|³|\^3)", text)
    if density:
        out["density_g_cm3"] = float(density[0])
    count = re.search(r"(\d+)\s+(?:molecules|atoms|ion pairs|formula units)\b", text)
    if count:
        out["n_molecules"] = int(count.group(1))
    return out


def parse_liquid_request(
    text: str, triggers: tuple[str, ...], allowed: tuple[str, ...], protocol: str
) -> dict[str, Any] | None:
    """Raw parameters when ``text`` asks for one of ``triggers`` of an allowed liquid."""
    low = text.lower()
    if not any(re.search(rf"(?<!\w){re.escape(t)}(?!\w)", low) for t in triggers):
        return None
    system = liquid_system(text, allowed, protocol)
    if system is None:
        return None
    return {"system": system, **state_quantities(text)}
