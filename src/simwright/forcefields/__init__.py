"""Classical force fields as typed values, and a registry of the built-in ones.

>>> get_forcefield("spce").pair_style.cutoff_a
9.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.lazy import lazy_exports

if TYPE_CHECKING:
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
    from simwright.forcefields.registry import FORCEFIELDS, forcefield_names, get_forcefield
    from simwright.forcefields.spce import spce
    from simwright.forcefields.topology import Topology, assign_types
    from simwright.forcefields.torsions import DihedralType, ImproperType
    from simwright.forcefields.water import tip3p, tip4p2005

_WHERE = {
    "AngleType": "base",
    "assign_types": "topology",
    "AtomType": "base",
    "BondType": "base",
    "BornPair": "pair_terms",
    "DihedralType": "torsions",
    "EV_PER_KJ_MOL": "base",
    "ForceField": "base",
    "forcefield_names": "registry",
    "FORCEFIELDS": "registry",
    "get_forcefield": "registry",
    "ImproperType": "torsions",
    "KSpace": "base",
    "lj_argon": "lj_argon",
    "LJParams": "base",
    "mix": "base",
    "MixingRule": "base",
    "MoleculeTemplate": "base",
    "nacl_tosi_fumi": "molten_salts",
    "opls_acetonitrile": "opls",
    "opls_ethanol": "opls",
    "opls_methanol": "opls",
    "PairKind": "base",
    "PairOverride": "base",
    "PairStyle": "base",
    "Shake": "base",
    "spce": "spce",
    "tip3p": "water",
    "tip4p2005": "water",
    "Tip4pSite": "pair_terms",
    "Topology": "topology",
}

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
    "opls_acetonitrile",
    "opls_ethanol",
    "opls_methanol",
    "spce",
    "tip3p",
    "tip4p2005",
]

__getattr__ = lazy_exports(__name__, _WHERE)

# Two functions share their submodule's name: importing ``forcefields.lj_argon`` (as the
# solid-state engine does) would bind the package attribute to the submodule, and
# ``from simwright.forcefields import lj_argon`` would then give a module. Bound here,
# eagerly, they are always the functions (both modules are small).
from simwright.forcefields.lj_argon import lj_argon  # noqa: E402
from simwright.forcefields.spce import spce  # noqa: E402
