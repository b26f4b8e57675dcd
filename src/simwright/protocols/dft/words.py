"""Words that send a DFT request to a post-processing or energy-difference protocol.

``dft_scf`` leaves these requests alone ("band gap of Si with PBE" is not a bare SCF);
each protocol claims its own.
"""

from __future__ import annotations

import re
from typing import Any

from simwright.dft.request import parse_functional, parse_structure
from simwright.errors import ParseError
from simwright.text import element_mentions

BANDS = re.compile(r"\bband[- ]?(?:structure|gap|diagram)s?\b|\bbandgaps?\b|\belectronic bands\b")
DOS = re.compile(
    r"\bdensit(?:y|ies) of (?:electronic )?states\b|\b(?:p|projected |partial |total )?dos\b|"
    r"\bpdos\b",
    re.IGNORECASE,
)
WORK_FUNCTION = re.compile(r"\bwork[- ]?functions?\b")
COHESIVE = re.compile(r"\bcohesive energ(?:y|ies)\b|\batomi[sz]ation energ(?:y|ies)\b")
VACANCY = re.compile(r"\b(?:mono)?vacanc(?:y|ies)\b")
FORMATION = re.compile(
    r"\bformation (?:energ(?:y|ies)|enthalp(?:y|ies))\b|\b(?:enthalpy|heat) of formation\b"
)
SURFACE_ENERGY = re.compile(r"\bsurface (?:free )?energ(?:y|ies)\b")
ADSORPTION = re.compile(r"\b(?:adsorption|binding) energ(?:y|ies)\b")


def asks_bands(text: str) -> bool:
    """The request asks for a band structure or a band gap."""
    return BANDS.search(text.lower()) is not None


def asks_dos(text: str) -> bool:
    """The request asks for a (projected) density of states."""
    return DOS.search(text) is not None


def asks_cohesive(text: str) -> bool:
    """The request asks for a cohesive (atomisation) energy of a solid."""
    return COHESIVE.search(text.lower()) is not None


def asks_work_function(text: str) -> bool:
    """The request asks for the work function of a surface."""
    return WORK_FUNCTION.search(text.lower()) is not None


def asks_vacancy(text: str) -> bool:
    """The request asks for a vacancy formation energy."""
    low = text.lower()
    return VACANCY.search(low) is not None and FORMATION.search(low) is not None


def asks_formation(text: str) -> bool:
    """The request asks for the formation energy of a compound (not of a vacancy)."""
    return FORMATION.search(text.lower()) is not None and not asks_vacancy(text)


def asks_surface_energy(text: str) -> bool:
    """The request asks for a surface energy."""
    return SURFACE_ENERGY.search(text.lower()) is not None


def asks_adsorption(text: str) -> bool:
    """The request asks for an adsorption (binding) energy."""
    return ADSORPTION.search(text.lower()) is not None


def asks_property(text: str) -> bool:
    """The request asks for one of these properties (not a bare SCF)."""
    return any(
        ask(text)
        for ask in (
            asks_bands,
            asks_dos,
            asks_cohesive,
            asks_work_function,
            asks_vacancy,
            asks_formation,
            asks_surface_energy,
            asks_adsorption,
        )
    )


def element_symbols(text: str) -> str:
    """``text`` with element names written as symbols ("bcc iron" -> "bcc Fe")."""

    out = text
    for m in reversed(element_mentions(text)):
        if m.text != m.meaning:
            out = out[: m.start] + m.meaning + out[m.end :]
    return out


def flat_structure(structure: dict[str, Any]) -> dict[str, Any]:
    """The flat form of a structure the knowledge modules also use: ``formula``,
    ``structure`` (bulk, surface...), ``lattice``, ``facet``."""
    flat = {"formula": structure["name"], "structure": structure["kind"]}
    flat.update({k: v for k, v in structure.items() if k not in ("name", "kind")})
    return flat


def property_request(text: str, what: str) -> dict[str, Any]:
    """Raw :class:`~simwright.dft.request.DftRequest` parameters (flat form) of a property
    request: the bulk material, the functional and spin words; ``what`` names the property in
    refusals. A surface, molecule or layer, or a hybrid functional, is refused."""

    structure = parse_structure(element_symbols(text))
    if structure["kind"] != "bulk":
        raise ParseError(f"{what} is computed for bulk crystals here, e.g. '{what} of Si with PBE'")
    raw: dict[str, Any] = flat_structure(structure)
    functional, hybrid = parse_functional(text)
    if hybrid is not None:
        raise ParseError(
            f"{what} with the hybrid functional {hybrid.upper()} is not supported; "
            "choose LDA, PBE or PBEsol"
        )
    if functional is not None:
        raw["functional"] = functional
    low = text.lower()
    if re.search(r"\bnon[- ]?magnetic\b|\bwithout spin\b", low):
        raw["spin"] = False
    elif re.search(r"\bspin[- ]polari[sz]ed\b|\bmagnetic\b", low):
        raw["spin"] = True
    return raw
