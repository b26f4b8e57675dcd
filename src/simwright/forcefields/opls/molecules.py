"""Which OPLS-AA type each atom of a library molecule takes (in the xyz file's order).

A molecule not listed here has no OPLS-AA parametrisation in simwright and is refused
by name (:func:`opls_entry`). The acyclic carbonates DMC, DEC and EMC are not listed:
OPLS-AA has no carbonate types for them and no published set was verified for
simwright (their ester types do not sum to a neutral molecule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from simwright.errors import ValidationError


@dataclass(frozen=True)
class OplsMolecule:
    """The OPLS-AA types of a library molecule's atoms; ``ion`` marks charges to scale."""

    name: str
    types: tuple[str, ...]
    ion: bool = False


OPLS_MOLECULES: Final = {
    m.name: m
    for m in (
        # C(=O), O=, O(ring), O(ring), CH2, CH2, 4 H
        OplsMolecule(
            "ec",
            ("opls_772", "opls_771", "opls_773", "opls_773")
            + ("opls_774",) * 2
            + ("opls_777",) * 4,
        ),
        # C(=O), O=, O, O, CH2, CH, CH3, H(CH), 2 H(CH2), 3 H(CH3)
        OplsMolecule(
            "pc",
            ("opls_772", "opls_771", "opls_773", "opls_773", "opls_774", "opls_775", "opls_776")
            + ("opls_778",)
            + ("opls_777",) * 2
            + ("opls_779",) * 3,
        ),
        OplsMolecule(
            "methanol",
            ("opls_157", "opls_154", "opls_156", "opls_155", "opls_156", "opls_156"),
        ),
        OplsMolecule(
            "ethanol",
            ("opls_135", "opls_157", "opls_154", "opls_155") + ("opls_140",) * 5,
        ),
        OplsMolecule("acetonitrile", ("opls_755", "opls_754", "opls_753") + ("opls_759",) * 3),
        OplsMolecule("li+", ("opls_406",), ion=True),
        OplsMolecule("pf6-", ("clp_P",) + ("clp_F",) * 6, ion=True),
    )
}
"""Library molecules with OPLS-AA types, by library name."""


def opls_molecule_names() -> tuple[str, ...]:
    """The library molecules simwright can type with OPLS-AA, sorted."""
    return tuple(sorted(OPLS_MOLECULES))


def opls_entry(name: str) -> OplsMolecule:
    """The OPLS-AA typing of library molecule ``name``; an unknown one is refused by name."""
    try:
        return OPLS_MOLECULES[name]
    except KeyError:
        raise ValidationError(
            f"molecule {name!r} has no OPLS-AA parameters in simwright; known: "
            f"{', '.join(opls_molecule_names())}"
        ) from None
