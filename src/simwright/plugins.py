"""Pluggable names resolve through registries, never by importing a string from data.

A name in a spec, a request, a model reply or a campaign (a calculator, an engine,
a protocol) is looked up in a registry: the built-in names, then the entry points a
package registers under a ``simwright.*`` group. An installation may allow more
``module:attr`` names in its own ``$SIMWRIGHT_HOME/config.toml``
(``[plugins] allow = [...]``, :attr:`simwright.settings.Settings.plugins`);
:func:`import_allowed` imports such a name only when it is on that list.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Iterable
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Final

from simwright.errors import ValidationError

PLUGIN_GROUPS: Final = (
    "simwright.protocols",
    "simwright.engines",
    "simwright.calculators",
    "simwright.campaign_engines",
)
"""Entry-point groups through which packages register pluggable names."""


def registered(group: str) -> dict[str, Any]:
    """Entry points of ``group`` by name (not loaded)."""
    return {ep.name: ep for ep in entry_points(group=group)}


def import_allowed(path: str, allow: Collection[str], *, what: str, known: Iterable[str]) -> Any:
    """The object named ``module:attr``, imported only when ``allow`` lists it.

    Refuses (:class:`~simwright.errors.ValidationError`) any other name before
    anything is imported, naming the allowed values: the ``known`` registered names
    and the allow-list.
    """
    if path not in allow:
        raise ValidationError(refusal(path, what, known, allow))
    module_name, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise ValidationError(f"cannot import allowed {what} {path!r}: {exc}") from exc
    return obj


def refusal(name: str, what: str, known: Iterable[str], allow: Collection[str]) -> str:
    """The message for a name no registry knows: the allowed values and how to add one."""
    names = [*known, *allow]
    return (
        f"unknown {what} {name!r}; allowed: {', '.join(names) or 'none'}. "
        f"simwright never imports a {what} named in a spec: register it under an entry point, "
        "or allow it in $SIMWRIGHT_HOME/config.toml ([plugins] allow = ['module:Class'])"
    )


@cache
def entry_point_packages() -> frozenset[str]:
    """Top-level packages of the entry points registered in :data:`PLUGIN_GROUPS`."""
    out = set()
    for group in PLUGIN_GROUPS:
        for ep in entry_points(group=group):
            out.add(ep.value.partition(":")[0].split(".")[0])
    return frozenset(out)


def trusted_module(module_name: str, allow: Collection[str] = ()) -> bool:
    """True when ``module_name`` may be imported to rebuild a stored value.

    Trusted: simwright's own modules, the packages of registered entry points and
    the packages of allow-listed plugins.
    """
    top = module_name.split(".")[0]
    if top == "simwright":
        return True
    allowed_tops = {a.partition(":")[0].split(".")[0] for a in allow}
    return top in allowed_tops or top in entry_point_packages()
