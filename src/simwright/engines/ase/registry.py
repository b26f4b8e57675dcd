"""ASE calculators by name: the built-in ones, the ``simwright.calculators`` group, the allow-list.

A calculator named in a spec is looked up here and nowhere else; a string is never
imported because a spec says so. Built in: ``emt``, ``lj`` (ASE) and ``sevennet``,
``chgnet`` (:mod:`simwright.engines.ase.mlip`). A package adds a calculator by
exposing a factory (``(**kwargs) -> ase Calculator``) under the
``simwright.calculators`` entry-point group; an installation may allow a
``module:Class`` in ``$SIMWRIGHT_HOME/config.toml`` (``[plugins] allow``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Final

from simwright.engines.ase.mlip import chgnet, sevennet
from simwright.errors import ValidationError
from simwright.plugins import import_allowed, load_plugin, plugin_names, refusal

CALCULATOR_GROUP: Final = "simwright.calculators"

Factory = Callable[..., Any]
"""Makes an ASE calculator from keyword arguments."""


def _emt() -> Factory:
    # lazy: ase.calculators.emt takes ~1 s to import
    from ase.calculators.emt import EMT

    return EMT


def _lj() -> Factory:
    # lazy: ase.calculators.lj takes ~1 s to import
    from ase.calculators.lj import LennardJones

    return LennardJones


def _sevennet() -> Factory:

    return sevennet


def _chgnet() -> Factory:

    return chgnet


BUILTIN: Final[Mapping[str, Callable[[], Factory]]] = {
    "emt": _emt,
    "lj": _lj,
    "sevennet": _sevennet,
    "chgnet": _chgnet,
}
"""Built-in calculators: name -> loader of the calculator class or factory."""

DESCRIPTIONS: Final[Mapping[str, str]] = {
    "emt": "ase.calculators.emt:EMT",
    "lj": "ase.calculators.lj:LennardJones",
    "sevennet": "simwright.engines.ase.mlip:sevennet",
    "chgnet": "simwright.engines.ase.mlip:chgnet",
}
"""Where each built-in calculator lives (for the record; never imported from here)."""

SHIPPED_WITH_ASE: Final = frozenset({"emt", "lj"})
"""Built-in calculators that ASE itself ships: importable wherever simwright is, so a
check before a run needs only the name, not the (slow) import."""


def calculator_names() -> tuple[str, ...]:
    """Registered calculator names: built-in, then entry points."""
    return (*BUILTIN, *sorted(set(plugin_names(CALCULATOR_GROUP)) - set(BUILTIN)))


def is_known(name: str, allow: Collection[str] = ()) -> bool:
    """True when ``name`` is registered or allow-listed."""
    return name.lower() in calculator_names() or name in allow


def check_calculator(name: str, allow: Collection[str] = ()) -> None:
    """Refuse a calculator name that is neither registered nor allow-listed."""
    if not is_known(name, allow):
        raise ValidationError(refusal(name, "calculator", calculator_names(), allow))


def resolve_calculator(name: str, allow: Collection[str] = ()) -> Factory:
    """The calculator class or factory called ``name`` (registered, else allow-listed)."""
    key = name.lower()
    if key in BUILTIN:
        return BUILTIN[key]()
    factory = load_plugin(CALCULATOR_GROUP, key, object, what="calculator", error=ValidationError)
    if factory is None:
        factory = import_allowed(name, allow, what="calculator", known=calculator_names())
    if not callable(factory):
        raise ValidationError(f"calculator {name!r} is not callable")
    return factory


def describe(name: str) -> str:
    """``module:attr`` of a calculator for the record (the name itself for plugins)."""
    return DESCRIPTIONS.get(name.lower(), name)
