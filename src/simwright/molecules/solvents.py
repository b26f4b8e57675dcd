"""Solvents for implicit solvation: static dielectric constants and xTB's ALPB names.

Dielectric constants (25 °C) are those of the Minnesota Solvent Descriptor Database
(C. P. Kelly, C. J. Cramer, D. G. Truhlar et al., University of Minnesota, 1999-2010;
the same values Gaussian's SCRF keyword tabulates). ALPB names are those GFN2-xTB
parametrised (S. Ehlert, M. Stahn, S. Spicher, S. Grimme, J. Chem. Theory Comput. 17,
4250 (2021)); a solvent without one cannot be used with xTB.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from simwright.errors import ValidationError


@dataclass(frozen=True)
class Solvent:
    """A solvent: its static dielectric constant and its GFN2-xTB ALPB name (if any)."""

    name: str
    epsilon: float
    alpb: str | None
    aliases: tuple[str, ...] = ()


_TABLE: tuple[Solvent, ...] = (
    Solvent("water", 78.3553, "water", ("aqueous", "h2o")),
    Solvent("methanol", 32.613, "methanol", ("meoh",)),
    Solvent("ethanol", 24.852, "ethanol", ("etoh",)),
    Solvent("acetonitrile", 35.688, "acetonitrile", ("mecn",)),
    Solvent("dmso", 46.826, "dmso", ("dimethyl sulfoxide",)),
    Solvent("acetone", 20.493, "acetone"),
    Solvent("dichloromethane", 8.93, "ch2cl2", ("dcm",)),
    Solvent("chloroform", 4.7113, "chcl3"),
    Solvent("thf", 7.4257, "thf", ("tetrahydrofuran",)),
    Solvent("toluene", 2.3741, "toluene"),
    Solvent("benzene", 2.2706, "benzene"),
    Solvent("hexane", 1.8819, "hexane", ("n-hexane",)),
    Solvent("cyclohexane", 2.0165, None),
)

SOLVENTS: Mapping[str, Solvent] = {k: s for s in _TABLE for k in (s.name, *s.aliases)}
"""Every solvent name and alias (lower case) -> :class:`Solvent`."""


def find_solvent(name: str) -> Solvent:
    """The solvent called ``name``; an unknown one is refused with the known names."""
    key = name.strip().lower()
    if key in SOLVENTS:
        return SOLVENTS[key]
    raise ValidationError(
        f"unknown solvent {name!r}; known: {', '.join(s.name for s in _TABLE)} (or 'gas' for none)"
    )


def solvent_pattern() -> str:
    """A regular expression matching any solvent name or alias, longest first."""
    return "|".join(re.escape(n) for n in sorted(SOLVENTS, key=len, reverse=True))
