"""Choosing a catalogued potential by element and, when named, by author or family.

:func:`select_potential` honours a stated name or refuses it by name: "Mishin EAM"
for Cu gives ``Cu_mishin1.eam.alloy``; "Mishin" for Si is refused, listing what
the catalogue holds for Si. Without a name, a single candidate is taken, or the
one with recorded published values; otherwise the choice is refused, listed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from simwright.errors import ValidationError
from simwright.potentials.catalogue import Catalogue, Potential
from simwright.potentials.published import PUBLISHED


class PotentialNotFound(ValidationError):
    """No catalogued potential matches the stated name and elements (or several do)."""


def name_words(name: str) -> tuple[str, ...]:
    """The words of a potential's name in a request, lower case ("Mishin EAM" -> mishin, eam)."""
    if name.strip().lower() in ("stillinger-weber", "stillinger–weber"):
        return ("stillinger-weber",)
    return tuple(w for w in re.split(r"[\s,;]+", name.strip().lower()) if w and w != "potential")


def matches(potential: Potential, name: str) -> bool:
    """True when every word of ``name`` names ``potential`` (file, family or cited author)."""
    words = potential.words()
    if name.strip().lower() == potential.file.lower():
        return True
    return all(w in words for w in name_words(name))


def _listing(candidates: Sequence[Potential]) -> str:
    return "; ".join(p.describe() for p in candidates) or "none"


def _validated(candidates: Sequence[Potential], elements: Sequence[str]) -> list[Potential]:
    recorded = {(v.potential, v.element) for v in PUBLISHED}
    return [p for p in candidates if all((p.file, e) in recorded for e in elements)]


def select_potential(
    catalogue: Catalogue, elements: Sequence[str], name: str | None = None
) -> Potential:
    """The one potential for ``elements`` named by ``name`` (author, family or file).

    Raises :class:`PotentialNotFound` naming the request and listing what exists.
    """
    what = "-".join(elements) or "any element"
    covering = [p for p in catalogue.for_elements(tuple(elements)) if p.runnable]
    if not covering:
        raise PotentialNotFound(f"the LAMMPS potentials catalogue has no potential for {what}")
    candidates = [p for p in covering if matches(p, name)] if name else covering
    if not candidates:
        raise PotentialNotFound(
            f"no potential {name!r} for {what}; the catalogue has: {_listing(covering)}"
        )
    if len(candidates) == 1:
        return candidates[0]
    preferred = _validated(candidates, elements)
    if len(preferred) == 1:
        return preferred[0]
    stated = f"{name!r} names" if name else "the request names no potential;"
    raise PotentialNotFound(
        f"{stated} {len(candidates)} potentials for {what}: {_listing(candidates)}; "
        "name one (author, family or file)"
    )
