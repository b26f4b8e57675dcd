"""Molecules by name for quantum chemistry: a small table of names and SMILES.

SMILES are written for simwright from the standard structures (as listed by PubChem,
National Center for Biotechnology Information); a few entries state a spin
multiplicity that a SMILES cannot carry (triplet O2). Everything else is a SMILES or
an XYZ file stated by the user.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from simwright.errors import ValidationError


@dataclass(frozen=True)
class Species:
    """A named molecule: SMILES, and a multiplicity where the SMILES cannot say it."""

    name: str
    smiles: str
    multiplicity: int | None = None
    aliases: tuple[str, ...] = ()


_TABLE: tuple[Species, ...] = (
    Species("hydrogen", "[H][H]", aliases=("h2", "dihydrogen")),
    Species("water", "O", aliases=("h2o",)),
    Species("ammonia", "N", aliases=("nh3",)),
    Species("oxygen", "O=O", 3, aliases=("o2", "dioxygen")),
    Species("nitrogen", "N#N", aliases=("n2", "dinitrogen")),
    Species("carbon monoxide", "[C-]#[O+]", aliases=("co",)),
    Species("carbon dioxide", "O=C=O", aliases=("co2",)),
    Species("hydrogen fluoride", "F", aliases=("hf molecule",)),
    Species("methane", "C", aliases=("ch4",)),
    Species("ethane", "CC", aliases=("c2h6",)),
    Species("propane", "CCC", aliases=("c3h8",)),
    Species("butane", "CCCC", aliases=("n-butane",)),
    Species("isobutane", "CC(C)C", aliases=("2-methylpropane",)),
    Species("ethene", "C=C", aliases=("ethylene", "c2h4")),
    Species("cyclopropane", "C1CC1"),
    Species("cyclobutane", "C1CCC1"),
    Species("cyclopentane", "C1CCCC1"),
    Species("cyclohexane", "C1CCCCC1"),
    Species("benzene", "c1ccccc1"),
    Species("formaldehyde", "C=O", aliases=("methanal",)),
    Species("acetaldehyde", "CC=O", aliases=("ethanal",)),
    Species("acetone", "CC(C)=O", aliases=("propanone",)),
    Species("methanol", "CO"),
    Species("ethanol", "CCO"),
    Species("formic acid", "OC=O"),
    Species("acetic acid", "CC(=O)O"),
    Species("chloroacetic acid", "OC(=O)CCl"),
    Species("benzoic acid", "OC(=O)c1ccccc1"),
    Species("phenol", "Oc1ccccc1"),
    Species("4-chlorophenol", "Oc1ccc(Cl)cc1", aliases=("p-chlorophenol",)),
    Species("4-nitrophenol", "Oc1ccc(cc1)[N+](=O)[O-]", aliases=("p-nitrophenol",)),
    Species("formate", "[O-]C=O"),
    Species("acetate", "CC(=O)[O-]"),
    Species("phenolate", "[O-]c1ccccc1", aliases=("phenoxide",)),
    Species("hydroxide", "[OH-]"),
    Species("hydride", "[H-]", aliases=("hydride ion",)),
    Species("methyl cation", "[CH3+]"),
    Species("ethyl cation", "C[CH2+]"),
    Species("isopropyl cation", "C[CH+]C", aliases=("2-propyl cation",)),
    Species("tert-butyl cation", "C[C+](C)C", aliases=("t-butyl cation",)),
)

SPECIES: Mapping[str, Species] = {key: s for s in _TABLE for key in (s.name, *s.aliases)}
"""Every name and alias (lower case) -> its :class:`Species`."""


def known_species() -> tuple[str, ...]:
    """The primary names of the table."""
    return tuple(s.name for s in _TABLE)


def find_species(name: str) -> Species:
    """The species called ``name`` (case-insensitive); refuses an unknown name with the fix."""
    key = re.sub(r"\s+", " ", name.strip().lower())
    if key in SPECIES:
        return SPECIES[key]
    raise ValidationError(
        f"unknown molecule {name!r}: give a SMILES (e.g. `smiles: CCO`) or an XYZ file; "
        f"named molecules are: {', '.join(known_species())}"
    )


def species_pattern() -> str:
    """A regular expression matching any name or alias of the table, longest first."""
    names = sorted(SPECIES, key=len, reverse=True)
    return "|".join(re.escape(n) for n in names)
