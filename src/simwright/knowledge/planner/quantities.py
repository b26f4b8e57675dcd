"""Numbers with units in a request ("25 °C", "1.5 ns", "2 atm", "1 mol/kg"), via pint.

Only the unit spellings listed in :data:`UNIT_SPELLINGS` are recognised after a
number, so ordinary words are never read as units (pint alone would take "3 points"
for typographic points). Two spellings are domain choices, documented here: a bare
``m`` after a number is *molal* (mol/kg; nobody gives lengths in metres in these
requests) and a bare ``C`` is degrees Celsius. A bare ``F`` is refused as ambiguous
(farad, fluorine, Fahrenheit). ``M`` is molar (mol/L), a different dimension from
molality, so it is never silently taken for one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from simwright.errors import ParseError
from simwright.units import unit_registry

_KELVIN = ("K", "kelvin", "Kelvin", "kelvins")
_CELSIUS = (
    "°C",
    "º C",
    "ºC",
    "° C",
    "degC",
    "deg C",
    "degrees C",
    "degree C",
    "degrees Celsius",
    "degree Celsius",
    "Celsius",
    "celsius",
    "C",
)
_FAHRENHEIT = ("°F", "ºF", "degF", "deg F", "degrees F", "degrees Fahrenheit", "Fahrenheit")
_PLAIN = {
    "bar": "bar",
    "bars": "bar",
    "mbar": "millibar",
    "kbar": "kilobar",
    "atm": "atm",
    "atmosphere": "atm",
    "atmospheres": "atm",
    "Pa": "pascal",
    "kPa": "kilopascal",
    "MPa": "megapascal",
    "GPa": "gigapascal",
    "torr": "torr",
    "Torr": "torr",
    "fs": "femtosecond",
    "ps": "picosecond",
    "ns": "nanosecond",
    "μs": "microsecond",
    "us": "microsecond",
    "mol/kg": "mol/kg",
    "mol kg-1": "mol/kg",
    "mol kg^-1": "mol/kg",
    "mol·kg-1": "mol/kg",
    "molal": "mol/kg",
    "m": "mol/kg",
    "M": "mol/L",
    "mM": "mmol/L",
    "mol/L": "mol/L",
    "mol/l": "mol/L",
    "mol L-1": "mol/L",
    "molar": "mol/L",
    "g/cm3": "g/cm^3",
    "g/cm^3": "g/cm^3",
    "g cm-3": "g/cm^3",
    "g cm^-3": "g/cm^3",
    "g/cc": "g/cm^3",
    "g/mL": "g/cm^3",
    "g/ml": "g/cm^3",
    "kg/m3": "kg/m^3",
    "kg/m^3": "kg/m^3",
    "Ry": "rydberg",
    "Rydberg": "rydberg",
    "rydberg": "rydberg",
    "eV": "eV",
    "meV": "meV",
    "Ha": "hartree",
    "hartree": "hartree",
    "Hartree": "hartree",
    "eV/Å": "eV/angstrom",
    "eV/A": "eV/angstrom",
    "eV/angstrom": "eV/angstrom",
    "eV Å-1": "eV/angstrom",
    "1/Å": "1/angstrom",
    "1/A": "1/angstrom",
    "Å-1": "1/angstrom",
    "Å^-1": "1/angstrom",
    "A-1": "1/angstrom",
    "A^-1": "1/angstrom",
    "/Å": "1/angstrom",
    "1/angstrom": "1/angstrom",
    "angstrom^-1": "1/angstrom",
    "Å": "angstrom",
    "A": "angstrom",
    "angstrom": "angstrom",
    "angstroms": "angstrom",
    "Angstrom": "angstrom",
    "nm": "nanometer",
    "pm": "picometer",
    "bohr": "bohr",
    "%": "percent",
    "percent": "percent",
    "per cent": "percent",
}
_PLURAL_TIMES = {
    f"{prefix}second{s}": f"{prefix}second"
    for prefix in ("femto", "pico", "nano", "micro")
    for s in ("", "s")
}

UNIT_SPELLINGS: dict[str, str] = {
    **dict.fromkeys(_KELVIN, "kelvin"),
    **dict.fromkeys(_CELSIUS, "degC"),
    **dict.fromkeys(_FAHRENHEIT, "degF"),
    **_PLAIN,
    **_PLURAL_TIMES,
}
"""How a unit may be written after a number, and the pint expression it stands for."""

_AMBIGUOUS = {"F": "write °F or degF (a bare F could be farad, fluorine or Fahrenheit)"}

_NUMBER = (
    r"(?:(?<![\w.])(?P<sign>[-+−±]))?"
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?|\.\d+)(?:[eE](?P<exp>[-+]?\d+))?"
)
_UNITS_ALT = "|".join(
    re.escape(u) for u in sorted([*UNIT_SPELLINGS, *_AMBIGUOUS], key=len, reverse=True)
)
_QUANTITY = re.compile(rf"{_NUMBER}[ \t]?(?P<unit>{_UNITS_ALT})(?![A-Za-z0-9])")
_BARE = re.compile(rf"{_NUMBER}(?![\w.])")
_RANGE_BEFORE = re.compile(r"\d(?:\.\d+)?\s*(?:-|–|—|to|or)\s*$")


@dataclass(frozen=True)
class FoundQuantity:
    """A number with a unit as written in a request, at ``start:end`` of the text."""

    value: float
    unit: str
    text: str
    start: int
    end: int

    def dimensionality(self) -> str:
        """Pint's dimensionality of the unit, as a string ('[temperature]')."""
        return dimensionality(self.unit)

    def to(self, unit: str) -> float:
        """The value converted to ``unit`` (12 significant digits)."""
        q = unit_registry().Quantity(self.value, self.unit).to(unit)
        return float(f"{float(q.magnitude):.12g}")


@dataclass(frozen=True)
class FoundNumber:
    """A number without a unit, at ``start:end`` of the text."""

    value: float
    text: str
    start: int
    end: int


@cache
def dimensionality(unit: str) -> str:
    """Pint's dimensionality of ``unit`` as a string, e.g. '[mass] / [length] ** 3'."""
    return str(unit_registry().parse_units(unit).dimensionality)


def _value(match: re.Match[str]) -> float:
    value = float(match["num"]) * 10.0 ** int(match["exp"] or 0)
    return -value if match["sign"] in ("-", "−") else value


def find_quantities(text: str) -> list[FoundQuantity]:
    """Every number-with-unit in ``text``, in order.

    Raises :class:`ParseError` for a range ("300-350 K": one value per run) and for
    an ambiguous unit.
    """
    found: list[FoundQuantity] = []
    for m in _QUANTITY.finditer(text):
        written = m["unit"]
        if written in _AMBIGUOUS:
            raise ParseError(f"ambiguous unit in {m.group(0)!r}: {_AMBIGUOUS[written]}")
        if _RANGE_BEFORE.search(text[: m.start()]):
            before = text[max(0, m.start() - 12) : m.end()].strip()
            raise ParseError(
                f"the request gives a range ({before!r}); give one value per run "
                "(a series of conditions is a campaign)"
            )
        found.append(
            FoundQuantity(_value(m), UNIT_SPELLINGS[written], m.group(0), m.start(), m.end())
        )
    return found


def find_numbers(text: str) -> list[FoundNumber]:
    """Every number in ``text`` not followed by a letter; mask quantities out first."""
    return [FoundNumber(_value(m), m.group(0), m.start(), m.end()) for m in _BARE.finditer(text)]
