"""A lattice constant stated in a request: "a = 5.43 Å", "with a lattice constant of 5.43 Å".

A stated value is the structure's ``a_a`` (Å) wherever a protocol builds a bulk crystal;
"at the experimental lattice constant" states no number and is not read here. The
phrase "lattice constant" *without* a value asks for one (an equation of state): see
:func:`states_value` and :func:`simwright.dft.request.is_eos_request`.

Lengths are read in Å (Å, A, angstrom), nm or bohr; a lattice-constant phrase whose
number has no length unit is refused by name rather than guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ase.units import Bohr

from simwright.errors import ParseError

_NUMBER = r"(?P<number>\d+(?:\.\d+)?)"
_UNIT = r"(?P<unit>Å|A|angstroms?|ångströms?|nm|bohrs?|a\.u\.|au)?(?![\w.])"
_NAMED = (
    r"\blattice (?:constant|parameter)s?(?:\s+(?:of|is|equal to|set to|=|:))?"
    r"(?:\s*(?:a|a0|a_0)\s*=)?"
)
_SYMBOL = r"(?<![\w.])(?:a|a0|a_0)\s*="
_PHRASE = re.compile(rf"(?:{_NAMED}|{_SYMBOL})\s*{_NUMBER}\s*{_UNIT}", re.IGNORECASE)
_TO_ANGSTROM = {"nm": 10.0, "bohr": float(Bohr)}
_OTHER_AXIS = re.compile(
    r"(?<![\w./])(?:(?:b|c)\s*=\s*\d+(?:\.\d+)?\s*(?:Å|A|angstroms?|nm|bohrs?)(?![\w.])"
    r"|c/a\s*=\s*\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class StatedLattice:
    """A lattice constant the request states: its value in Å and the words that state it."""

    a_a: float
    text: str
    start: int
    end: int


def _angstrom(value: float, unit: str | None, phrase: str) -> float:
    """``value`` in Å; a missing unit is refused (5.43 Å and 10.26 bohr differ)."""
    if unit is None:
        raise ParseError(
            f"{phrase!r}: give the lattice constant's unit, e.g. 'a = 5.43 Å' or 'a = 10.26 bohr'"
        )
    low = unit.lower().rstrip("s")
    if low in ("bohr", "a.u.", "au"):
        return value * _TO_ANGSTROM["bohr"]
    return value * _TO_ANGSTROM.get(low, 1.0)


def stated_lattice(text: str) -> StatedLattice | None:
    """The lattice constant ``text`` states, or None; two different values, and another
    cell parameter ("c = 5.21 Å", "c/a = 1.62"), which words do not set, are refused."""
    other = _OTHER_AXIS.search(text)
    if other is not None:
        raise ParseError(
            f"{other.group(0).strip()!r}: only a lattice constant a is read from a request in "
            "words; write a spec file with the structure (c_a, or cellpar for a general cell)"
        )
    found = [
        StatedLattice(
            _angstrom(float(m.group("number")), m.group("unit"), m.group(0).strip()),
            m.group(0).strip(),
            m.start(),
            m.end(),
        )
        for m in _PHRASE.finditer(text)
    ]
    values = {round(f.a_a, 6) for f in found}
    if len(values) > 1:
        raise ParseError(
            "the request states several lattice constants "
            f"({', '.join(repr(f.text) for f in found)}); state one"
        )
    return found[0] if found else None


def states_value(text: str) -> bool:
    """True when ``text`` states a lattice constant's value (so "lattice constant" in it
    names the value, not a quantity to compute)."""
    return _PHRASE.search(text) is not None


def as_symbol(text: str) -> tuple[str, StatedLattice | None]:
    """``text`` with a stated lattice constant written as "a = 5.43 Å" (the form every DFT
    module's ``a_a`` cue reads, and not the words "lattice constant" that ask for an
    equation of state), and what was stated."""
    stated = stated_lattice(text)
    if stated is None:
        return text, None
    symbol = f"a = {stated.a_a:g} Å"
    return text[: stated.start] + symbol + text[stated.end :], stated
