"""Which parameter a value found in a request belongs to, from its kind and nearby cues.

A value (a quantity such as "2 fs", or an element mention) can only go to a
parameter of the same kind (the pint dimensionality of the parameter's unit, or
"element"). When several parameters share the kind, the nearest *cue* decides: a
word of the parameter's ``cues`` within three words before or after the value, not
across a comma, a semicolon or a linking word ("then", "and"). Ties go to the cue
before the value, and a cue serves one value only, so "2 fs timestep, 1 ns
production" and "timestep 2 fs production 1 ns" both read right. A value with no
cue goes to the kind's ``primary`` parameter; without one, the request is refused
and asked to name the parameter. A parameter marked ``cue_required`` takes a value only
through its cue, never as the kind's only parameter or by elimination ("at 5.43 Å" is
no vacuum): a value no other parameter takes is left over (and refused by the resolver).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from simwright.errors import ParseError
from simwright.knowledge.schema import ParameterSpec
from simwright.text import PhraseMatch, find_phrases

MAX_CUE_DISTANCE = 3
"""How many words may stand between a value and its cue."""

_FILLER_LIST = (
    "of a an the is at about around approximately by lasting long during using with to be "
    "for = : ~ ≈ in"
)
_FILLERS = frozenset(_FILLER_LIST.split())
_BOUNDARY = re.compile(r"[,;]|\b(?:then|and|but|while|followed|after|before)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """A value found in the request: its kind, where it is, and what it holds."""

    kind: str
    start: int
    end: int
    text: str
    value: object


def _distance(text: str, a: int, b: int, items: Sequence[Item]) -> int | None:
    """Words between positions a < b, or None when a boundary or a value lies between."""
    if any(a <= it.start < b for it in items):
        return None
    between = text[a:b]
    if _BOUNDARY.search(between):
        return None
    words = [w for w in re.findall(r"[^\s]+", between) if w.lower() not in _FILLERS]
    return len(words) if len(words) <= MAX_CUE_DISTANCE else None


def _best_cue(
    text: str,
    item: Item,
    cues: Sequence[PhraseMatch[str]],
    allowed: set[str],
    items: Sequence[Item],
    used: set[int],
) -> PhraseMatch[str] | None:
    best: tuple[int, int, PhraseMatch[str]] | None = None
    for i, cue in enumerate(cues):
        if i in used or cue.meaning not in allowed:
            continue
        if cue.end <= item.start:
            d, side = _distance(text, cue.end, item.start, items), 0
        elif cue.start >= item.end:
            d, side = _distance(text, item.end, cue.start, items), 1
        else:
            continue
        if d is not None and (best is None or (d, side) < best[:2]):
            best = (d, side, cue)
    if best is not None:
        used.add(cues.index(best[2]))
    return None if best is None else best[2]


def assign(
    text: str,
    items: Sequence[Item],
    params: Mapping[str, ParameterSpec],
    kind_of: Callable[[ParameterSpec], str | None],
) -> tuple[list[tuple[str, Item]], list[Item]]:
    """Pairs (parameter, item), and the items whose kind no parameter takes."""
    by_kind: dict[str, list[str]] = {}
    for name, spec in params.items():
        kind = kind_of(spec)
        if kind is not None:
            by_kind.setdefault(kind, []).append(name)
    cues = find_phrases(text, [(cue, name) for name, spec in params.items() for cue in spec.cues])
    used: set[int] = set()
    pairs: list[tuple[str, Item]] = []
    orphans: list[Item] = []
    for item in sorted(items, key=lambda it: it.start):
        names = by_kind.get(item.kind, [])
        if len(names) == 1 and not params[names[0]].cue_required:
            pairs.append((names[0], item))
            continue
        chosen = _choose(text, item, names, params, cues, items, used) if names else None
        if chosen is None:
            orphans.append(item)
        else:
            pairs.append((chosen, item))
    return pairs, orphans


def _choose(
    text: str,
    item: Item,
    names: list[str],
    params: Mapping[str, ParameterSpec],
    cues: Sequence[PhraseMatch[str]],
    items: Sequence[Item],
    used: set[int],
) -> str | None:
    cue = _best_cue(text, item, cues, set(names), items, used)
    if cue is not None:
        return cue.meaning
    names = [n for n in names if not params[n].cue_required]
    if not names:
        return None
    if len(names) == 1:
        return names[0]
    primary = [n for n in names if params[n].primary]
    if len(primary) == 1:
        return primary[0]
    examples = "; ".join(f"{n} ({', '.join(params[n].cues[:2]) or 'no cue'})" for n in names)
    raise ParseError(
        f"which parameter does {item.text!r} set? it could be {examples}; "
        f"put its name next to the value"
    )
