"""Classical force fields as typed values, and a registry of the built-in ones.

>>> get_forcefield("spce").pair_style.cutoff_a
9.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from simwright.errors import ValidationError
from simwright.forcefields.base import (
    EV_PER_KJ_MOL,
    AngleType,
    AtomType,
    BondType,
    ForceField,
    KSpace,
    LJParams,
    MixingRule,
    MoleculeTemplate,
    PairKind,
    PairOverride,
    PairStyle,
    Shake,
    mix,
)
from simwright.forcefields.lj_argon import lj_argon
from simwright.forcefields.molten_salts import nacl_tosi_fumi
from simwright.forcefields.opls import opls_acetonitrile, opls_ethanol, opls_methanol
from simwright.forcefields.pair_terms import BornPair, Tip4pSite
from simwright.forcefields.spce import spce
from simwright.forcefields.topology import Topology, assign_types
from simwright.forcefields.torsions import DihedralType, ImproperType
from simwright.forcefields.water import tip3p, tip4p2005

__all__ = [
    "EV_PER_KJ_MOL",
    "FORCEFIELDS",
    "AngleType",
    "AtomType",
    "BondType",
    "BornPair",
    "DihedralType",
    "ForceField",
    "ImproperType",
    "KSpace",
    "LJParams",
    "MixingRule",
    "MoleculeTemplate",
    "PairKind",
    "PairOverride",
    "PairStyle",
    "Shake",
    "Tip4pSite",
    "Topology",
    "assign_types",
    "forcefield_names",
    "get_forcefield",
    "lj_argon",
    "mix",
    "nacl_tosi_fumi",
    "spce",
    "tip3p",
    "tip4p2005",
]

FORCEFIELDS: Final[Mapping[str, Callable[[], ForceField]]] = {
    "lj_argon": lj_argon,
    "nacl_tosi_fumi": nacl_tosi_fumi,
    "opls_acetonitrile": opls_acetonitrile,
    "opls_ethanol": opls_ethanol,
    "opls_methanol": opls_methanol,
    "spce": spce,
    "tip3p": tip3p,
    "tip4p2005": tip4p2005,
}
"""Built-in force fields by name, each with its default settings."""

_ALIASES: Final = {
    "spc/e": "spce",
    "spc-e": "spce",
    "argon": "lj_argon",
    "lj-argon": "lj_argon",
    "tip4p/2005": "tip4p2005",
    "tip4p-2005": "tip4p2005",
    "nacl": "nacl_tosi_fumi",
    "tosi-fumi": "nacl_tosi_fumi",
    "tosi_fumi": "nacl_tosi_fumi",
}


def forcefield_names() -> tuple[str, ...]:
    """The names :func:`get_forcefield` knows, sorted."""
    return tuple(sorted(FORCEFIELDS))


def get_forcefield(name: str) -> ForceField:
    """The built-in force field ``name`` (case-insensitive; "SPC/E" works too)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FORCEFIELDS:
        raise ValidationError(
            f"unknown force field {name!r}; known: {', '.join(forcefield_names())}"
        )
    return FORCEFIELDS[key]()
