"""The built-in force fields by name: each name maps to the function that builds it,
imported only when that force field is asked for."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Final

from simwright.errors import ValidationError

if TYPE_CHECKING:
    from simwright.forcefields.base import ForceField

_BUILDERS: Final[Mapping[str, str]] = {
    "lj_argon": "lj_argon:lj_argon",
    "nacl_tosi_fumi": "molten_salts:nacl_tosi_fumi",
    "opls_acetonitrile": "opls:opls_acetonitrile",
    "opls_ethanol": "opls:opls_ethanol",
    "opls_methanol": "opls:opls_methanol",
    "spce": "spce:spce",
    "tip3p": "water:tip3p",
    "tip4p2005": "water:tip4p2005",
}
"""Built-in force fields by name: ``module:function`` under :mod:`simwright.forcefields`,
each function giving the force field with its default settings."""

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


def forcefield_builder(name: str) -> Callable[[], ForceField]:
    """The function that builds the built-in force field ``name`` (exact key)."""
    module, _, function = _BUILDERS[name].partition(":")
    builder: Callable[[], ForceField] = getattr(
        import_module(f"simwright.forcefields.{module}"), function
    )
    return builder


class _Registry(Mapping[str, "Callable[[], ForceField]"]):
    """:data:`FORCEFIELDS` as a mapping that imports a force field's module on access."""

    def __getitem__(self, name: str) -> Callable[[], ForceField]:
        if name not in _BUILDERS:
            raise KeyError(name)
        return forcefield_builder(name)

    def __iter__(self) -> Iterator[str]:
        return iter(_BUILDERS)

    def __len__(self) -> int:
        return len(_BUILDERS)


FORCEFIELDS: Final[Mapping[str, Callable[[], ForceField]]] = _Registry()
"""Built-in force fields by name, each with its default settings (loaded on access)."""


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
