"""Read a pw.x input file: namelists with a real Fortran-namelist parser, then the cards.

:func:`parse_pw_file` splits the text the way pw.x reads it (namelist groups
first, then cards), hands the namelists to ``f90nml`` and returns a
:class:`PwFile` holding every namelist variable as written (array elements as
``name(i)`` or ``name(i,j)``) and every card as rows of tokens.
:func:`read_pw_input` turns that into the template's
:class:`~simwright.engines.espresso.template.PwInput`, the inverse of
:func:`~simwright.engines.espresso.template.render` (see
:mod:`simwright.engines.espresso.pw_structure` for the geometry).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import f90nml

from simwright.engines.espresso.pw_structure import to_pw_input
from simwright.engines.espresso.template import PwInput, Value
from simwright.errors import ParseError

CARDS: frozenset[str] = frozenset(
    {
        "ATOMIC_SPECIES",
        "ATOMIC_POSITIONS",
        "K_POINTS",
        "ADDITIONAL_K_POINTS",
        "CELL_PARAMETERS",
        "REF_CELL_PARAMETERS",
        "OCCUPATIONS",
        "CONSTRAINTS",
        "ATOMIC_FORCES",
        "ATOMIC_VELOCITIES",
        "HUBBARD",
        "SOLVENTS",
        "TOTAL_CHARGE",
        "AUTOPILOT",
        "KSOUT",
        "PLOT_WANNIER",
        "DIPOLE",
        "ESR",
    }
)
"""Card names recognised at the start of a line (pw.x 6.7 ignores the ones it does not read)."""

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_OPTION = re.compile(r"^[\s{(]*([A-Za-z_\-]*)[\s})]*$")


@dataclass(frozen=True)
class Card:
    """One card: its name, its option (``automatic``, ``angstrom``; '' if none) and rows."""

    name: str
    option: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class PwFile:
    """A pw.x input as written: namelist -> variable -> value, and the cards by name.

    Namelist names are lower case; variable names keep the spelling of the file,
    array elements are ``name(i)``. ``namelist_order`` is the order of the groups
    in the file; ``notes`` records what the namelist parser dropped.
    """

    namelists: Mapping[str, Mapping[str, Value]]
    cards: Mapping[str, Card] = field(default_factory=dict)
    namelist_order: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def get(self, name: str, default: Value | None = None) -> Value | None:
        """The value of ``name`` in any namelist (case-insensitive), or ``default``."""
        for values in self.namelists.values():
            for key, value in values.items():
                if key.lower() == name.lower():
                    return value
        return default


def parse_pw_file(text: str) -> PwFile:
    """Parse pw.x input text; :class:`ParseError` when the namelists are unreadable."""
    namelist_text, card_lines = _split(text)
    groups, order, notes = _read_namelists(namelist_text)
    return PwFile(groups, _read_cards(card_lines), order, notes)


def read_pw_input(text: str) -> PwInput:
    """The template's :class:`PwInput` of a pw.x input text (the inverse of ``render``).

    :class:`ParseError` for unreadable text, :class:`ValidationError` for an input
    the template cannot express (labels that are not elements, k-point lists...).
    """
    return to_pw_input(parse_pw_file(text))


# -- splitting -------------------------------------------------------------------------------
def _strip_comment(line: str) -> tuple[str, bool]:
    """The line up to a ``!`` outside quotes, and whether a ``/`` outside quotes ends a group."""
    quote: str | None = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return line[:i], False
        elif ch == "/":
            return line[: i + 1], True
    return line, False


def _split(text: str) -> tuple[str, list[str]]:
    """Namelist text (groups only) and the card lines that follow, as pw.x reads them."""
    lines = text.splitlines()
    groups: list[str] = []
    inside = False
    for n, line in enumerate(lines):
        code, ends = _strip_comment(line)
        stripped = code.strip()
        if not inside:
            if not stripped or stripped.startswith("#"):
                continue
            if not stripped.startswith(("&", "$")):
                if groups:  # after the namelists: the cards
                    return "\n".join(groups), lines[n:]
                continue  # a title before the first group, skipped as Fortran does
            inside = True
        groups.append(code)
        if ends or re.search(r"[&$]end\s*$", stripped, re.IGNORECASE):
            inside = False
    if inside:
        raise ParseError("a namelist group is not closed with '/'")
    return "\n".join(groups), []


# -- namelists -------------------------------------------------------------------------------
def _read_namelists(
    text: str,
) -> tuple[dict[str, dict[str, Value]], tuple[str, ...], tuple[str, ...]]:

    parser = f90nml.Parser()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            nml = parser.reads(text)
        except Exception as exc:  # f90nml raises ValueError, IndexError, StopIteration...
            raise ParseError(f"the namelists cannot be read: {exc}") from exc
    notes = tuple(str(w.message) for w in caught)
    spelling = _spellings(text)
    out: dict[str, dict[str, Value]] = {}
    order: list[str] = []
    for group, values in _groups(nml):
        name = group.lower()
        order.append(name)
        target = out.setdefault(name, {})
        starts = getattr(values, "start_index", {}) or {}
        for key, value in values.items():
            if not _NAME.match(key) or key.lower() == name:
                raise ParseError(f"&{name.upper()}: {key!r} is not a variable name")
            written = spelling.get(key.lower(), key)
            for flat, item in _flatten(written, value, starts.get(key)):
                target[flat] = _value(flat, item)
    return out, tuple(order), notes


def _groups(nml: Any) -> Iterator[tuple[str, Any]]:
    """(group name, values) for every group, repeated groups included."""
    for name, values in nml.items():
        if isinstance(values, list):  # a repeated group
            for v in values:
                yield name, v
        else:
            yield name, values


def _spellings(text: str) -> dict[str, str]:
    """Lower-case variable name -> its first spelling in the text (f90nml lower-cases)."""
    out: dict[str, str] = {}
    for m in re.finditer(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\))?\s*=", text):
        out.setdefault(m.group(1).lower(), m.group(1))
    return out


def _flatten(name: str, value: Any, start: list[int | None] | None) -> list[tuple[str, Any]]:
    """``name``/value pairs with array elements spelled ``name(i,j)`` (Fortran order)."""
    if not isinstance(value, list):
        if start:
            return [(f"{name}({','.join(str(s or 1) for s in start)})", value)]
        return [(name, value)]
    out: list[tuple[str, Any]] = []
    for offsets, item in _walk(value, ()):
        if item is None:
            continue
        fortran = tuple(reversed(offsets))  # f90nml nests the last index outermost
        begin = [b if b is not None else 1 for b in (start or [])]
        index = [(begin[d] if d < len(begin) else 1) + off for d, off in enumerate(fortran)]
        out.append((f"{name}({','.join(str(i) for i in index)})", item))
    return out


def _walk(value: Any, prefix: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], Any]]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, (*prefix, i))
    else:
        yield prefix, value


def _value(name: str, item: Any) -> Value:
    if isinstance(item, bool | int | float | str):
        return item
    raise ParseError(f"{name}: pw.x reads no value like {item!r}")


# -- cards -----------------------------------------------------------------------------------
def _card_header(line: str) -> tuple[str, str] | None:
    tokens = line.split(None, 1)
    if not tokens or tokens[0].upper() not in CARDS:
        return None
    rest = tokens[1] if len(tokens) > 1 else ""
    m = _OPTION.match(rest)
    option = m.group(1) if m else rest.strip().strip("{}()")
    return tokens[0].upper(), option.lower()


def _read_cards(lines: list[str]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    current: tuple[str, str] | None = None
    rows: list[tuple[str, ...]] = []
    for raw in lines:
        line = re.split(r"[!#]", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        header = _card_header(line)
        if header is not None:
            if current is not None:
                cards.setdefault(current[0], Card(current[0], current[1], tuple(rows)))
            current, rows = header, []
        elif current is not None:
            rows.append(tuple(line.split()))
    if current is not None:
        cards.setdefault(current[0], Card(current[0], current[1], tuple(rows)))
    return cards
