"""Names of substances a request may mention, whether or not a module supports them.

Modules list the substances they support as choices of a parameter (``system``,
``salt``, ``solvents``). This table is wider: it lets the planner tell "a substance
this module does not support" (methanol for the diffusivity protocol) from "a word
it does not know", and name the substance in the refusal instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from simwright.text import ACRONYMS, PhraseMatch, find_phrases

Kind = Literal["liquid", "solvent", "salt", "gas", "ion"]
"""What role a substance usually plays in a request."""


@dataclass(frozen=True)
class Substance:
    """A named substance and the ways a request may write it."""

    id: str
    name: str
    kind: Kind
    aliases: tuple[str, ...]


SUBSTANCES: tuple[Substance, ...] = (
    Substance("water", "water", "liquid", ("water", "h2o", "spc/e", "spce")),
    Substance("d2o", "heavy water (D2O)", "liquid", ("heavy water", "d2o", "deuterated water")),
    Substance("tip3p", "TIP3P water", "liquid", ("tip3p", "tip3p water")),
    Substance("tip4p", "TIP4P water (original)", "liquid", ("tip4p", "tip4p water")),
    Substance("tip4p2005", "TIP4P/2005 water", "liquid", ("tip4p/2005", "tip4p2005")),
    Substance("tip4p_ew", "TIP4P-Ew water", "liquid", ("tip4p-ew", "tip4pew")),
    Substance("tip4p_ice", "TIP4P/Ice water", "liquid", ("tip4p/ice",)),
    Substance("tip5p", "TIP5P water", "liquid", ("tip5p", "tip5p water")),
    Substance("spc", "SPC water", "liquid", ("spc", "spc water")),
    Substance("opc", "OPC water", "liquid", ("opc", "opc water", "opc3")),
    Substance("argon", "argon", "liquid", ("argon", "ar", "lj argon")),
    Substance("ec", "ethylene carbonate", "solvent", ("ec", "ethylene carbonate")),
    Substance("dmc", "dimethyl carbonate", "solvent", ("dmc", "dimethyl carbonate")),
    Substance("dec", "diethyl carbonate", "solvent", ("dec", "diethyl carbonate")),
    Substance("pc", "propylene carbonate", "solvent", ("pc", "propylene carbonate")),
    Substance("emc", "ethyl methyl carbonate", "solvent", ("emc", "ethyl methyl carbonate")),
    Substance("dme", "1,2-dimethoxyethane", "solvent", ("dme", "dimethoxyethane", "glyme")),
    Substance(
        "lipf6", "lithium hexafluorophosphate", "salt", ("lipf6", "lithium hexafluorophosphate")
    ),
    Substance("libf4", "lithium tetrafluoroborate", "salt", ("libf4", "lithium tetrafluoroborate")),
    Substance("litfsi", "LiTFSI", "salt", ("litfsi", "lithium bis(trifluoromethanesulfonyl)imide")),
    Substance("lifsi", "LiFSI", "salt", ("lifsi", "lithium bis(fluorosulfonyl)imide")),
    Substance("liclo4", "lithium perchlorate", "salt", ("liclo4", "lithium perchlorate")),
    Substance("nacl", "sodium chloride", "salt", ("nacl", "sodium chloride")),
    Substance("methanol", "methanol", "liquid", ("methanol", "meoh", "ch3oh")),
    Substance("ethanol", "ethanol", "liquid", ("ethanol", "etoh")),
    Substance("acetonitrile", "acetonitrile", "liquid", ("acetonitrile", "mecn", "ch3cn")),
    Substance("acetone", "acetone", "liquid", ("acetone",)),
    Substance("benzene", "benzene", "liquid", ("benzene",)),
    Substance("toluene", "toluene", "liquid", ("toluene",)),
    Substance("dmso", "dimethyl sulfoxide", "liquid", ("dmso", "dimethyl sulfoxide")),
    Substance("glycerol", "glycerol", "liquid", ("glycerol",)),
    Substance("ionic_liquid", "an ionic liquid", "liquid", ("ionic liquid", "ionic liquids")),
    Substance("methane", "methane", "gas", ("methane", "ch4")),
    Substance("co2", "carbon dioxide", "gas", ("co2", "carbon dioxide")),
    Substance("nitrogen_gas", "nitrogen", "gas", ("n2", "nitrogen")),
    Substance("krypton", "krypton", "liquid", ("krypton", "kr")),
    Substance("xenon", "xenon", "liquid", ("xenon", "xe")),
    Substance("neon", "neon", "liquid", ("neon", "ne")),
    Substance("li_ion", "Li+", "ion", ("li+", "li ion", "lithium ion", "lithium ions")),
)
"""Substances simwright can name in its messages (supported or not)."""

_FILLERS = frozenset(
    ["liquid", "bulk", "pure", "the", "a", "an", "neat", "supercooled", "dense", "molten", "solid"]
)
_CANDIDATE = re.compile(r"\b(?:of|in|for)\s+((?:[A-Za-z][\w/+()-]*\s+){0,2}[A-Za-z][\w/+()-]*)")


@dataclass(frozen=True)
class Compound:
    """A compound or material named in words, with the structure its name implies."""

    formula: str
    kind: str | None = None
    lattice: str | None = None


COMPOUNDS: dict[str, Compound] = {
    "boron nitride": Compound("BN"),
    "cubic boron nitride": Compound("BN", "bulk", "zincblende"),
    "c-bn": Compound("BN", "bulk", "zincblende"),
    "hexagonal boron nitride": Compound("hBN", "two_d"),
    "h-bn": Compound("hBN", "two_d"),
    "hbn": Compound("hBN", "two_d"),
    "gallium arsenide": Compound("GaAs"),
    "aluminium arsenide": Compound("AlAs"),
    "aluminum arsenide": Compound("AlAs"),
    "silicon carbide": Compound("SiC"),
    "sodium chloride": Compound("NaCl"),
    "table salt": Compound("NaCl"),
    "magnesium oxide": Compound("MgO"),
    "magnesia": Compound("MgO"),
    "nickel oxide": Compound("NiO"),
    "lithium fluoride": Compound("LiF"),
    "titanium carbide": Compound("TiC"),
    "titanium dioxide": Compound("TiO2"),
    "titania": Compound("TiO2"),
    "silica": Compound("SiO2"),
    "silicon dioxide": Compound("SiO2"),
    "alumina": Compound("Al2O3"),
    "zinc oxide": Compound("ZnO"),
    "graphene": Compound("graphene", "two_d"),
    "molybdenum disulfide": Compound("MoS2"),
    "water": Compound("H2O", "molecule"),
    "methane": Compound("CH4", "molecule"),
    "ammonia": Compound("NH3", "molecule"),
    "carbon monoxide": Compound("CO", "molecule"),
    "carbon dioxide": Compound("CO2", "molecule"),
    "hydrogen molecule": Compound("H2", "molecule"),
    "oxygen molecule": Compound("O2", "molecule"),
    "nitrogen molecule": Compound("N2", "molecule"),
    "benzene": Compound("C6H6", "molecule"),
}
"""Materials a DFT request may name in words, and the formula (or layer name) meant."""


def find_compounds(text: str) -> list[PhraseMatch[Compound]]:
    """Compounds of :data:`COMPOUNDS` named in ``text``, longest names first."""
    return find_phrases(text, list(COMPOUNDS.items()))


def find_substances(text: str) -> list[PhraseMatch[Substance]]:
    """Substances of :data:`SUBSTANCES` named in ``text``, in order."""
    return find_phrases(text, [(alias, s) for s in SUBSTANCES for alias in s.aliases])


def substance_candidate(text: str, ignore: Collection[str] = ()) -> str | None:
    """The word a phrase like "diffusion of methanol" puts in a substance's place, or None.

    Used only when a module needs a substance and none it knows was found, so that the
    refusal can name the word ("unknown substance 'methanol'") instead of a generic
    "which system?". Words in ``ignore`` (lower case; e.g. the module's own vocabulary)
    and upper-case abbreviations are skipped.
    """
    for m in _CANDIDATE.finditer(text):
        for word in m.group(1).split():
            low = word.lower()
            if low in _FILLERS or low in ignore or word in ACRONYMS:
                continue
            return word
    return None
