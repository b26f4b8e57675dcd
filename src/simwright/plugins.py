"""Pluggable names resolve through registries; one entry-point loader serves every registry.

A name in a spec, a request, a model reply or a campaign (a calculator, an engine,
a protocol, a campaign engine) is looked up in a registry: the built-in names, then
the entry points a package registers under a ``simwright.*`` group
(:data:`PLUGIN_GROUPS`); the in-tree ones are registered the same way in
``pyproject.toml``. :func:`load_plugins` and :func:`load_plugin` import them and
report a plugin that fails to import, or exposes the wrong kind of object, by name.
An installation may allow more ``module:attr`` names in its own
``$SIMWRIGHT_HOME/config.toml`` (``[plugins] allow = [...]``,
:attr:`simwright.settings.Settings.plugins`); :func:`import_allowed` imports such a
name only when it is on that list.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Iterable
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Final, TypeVar

from simwright.errors import SimwrightError, ValidationError

T = TypeVar("T")

PLUGIN_GROUPS: Final = (
    "simwright.protocols",
    "simwright.engines",
    "simwright.calculators",
    "simwright.campaign_engines",
    "simwright.kg_descriptors",
)
"""Entry-point groups through which packages register pluggable names."""


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
def _plugin_entry_points() -> dict[str, tuple[EntryPoint, ...]]:
    """The entry points of :data:`PLUGIN_GROUPS`, read once per process.

    Reading them scans the metadata of every installed distribution (hundreds in a
    scientific environment, ~15 ms a scan); one process looks groups up several times.
    """
    every = entry_points()
    return {group: tuple(every.select(group=group)) for group in PLUGIN_GROUPS}


def group_entry_points(group: str) -> tuple[EntryPoint, ...]:
    """The entry points registered under ``group`` (those of :data:`PLUGIN_GROUPS`
    are read once per process)."""
    known = _plugin_entry_points()
    return known[group] if group in known else tuple(entry_points(group=group))


@cache
def entry_point_packages() -> frozenset[str]:
    """Top-level packages of the entry points registered in :data:`PLUGIN_GROUPS`."""
    out = set()
    for group in PLUGIN_GROUPS:
        for ep in group_entry_points(group):
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


def plugin_names(group: str) -> tuple[str, ...]:
    """The names registered under the entry-point ``group``, sorted (nothing is imported)."""
    return tuple(sorted({ep.name for ep in group_entry_points(group)}))


def load_plugin(
    group: str,
    name: str,
    kind: type[T],
    *,
    what: str = "plugin",
    error: type[SimwrightError] = SimwrightError,
) -> T | None:
    """The object registered as ``name`` under ``group``, or None when none is.

    ``kind`` is the type the object must have (``object`` for any); ``what`` names the
    plugin kind in messages and ``error`` is the exception raised for a broken one.
    """
    for ep in group_entry_points(group):
        if ep.name == name:
            return _load(ep, kind, what, error)
    return None


def load_plugins(
    group: str,
    kind: type[T],
    *,
    what: str = "plugin",
    error: type[SimwrightError] = SimwrightError,
) -> dict[str, T]:
    """Every object registered under ``group`` by entry-point name, sorted by name.

    Each must be an instance of ``kind``; a broken one raises ``error`` naming it.
    """
    out = {ep.name: _load(ep, kind, what, error) for ep in group_entry_points(group)}
    return dict(sorted(out.items()))


def _load(ep: EntryPoint, kind: type[T], what: str, error: type[SimwrightError]) -> T:
    """Import one entry point and check its type."""
    try:
        obj = ep.load()
    except Exception as exc:
        raise error(f"{what} plugin {ep.name!r} failed to load: {exc}") from exc
    if not isinstance(obj, kind):
        raise error(f"{what} plugin {ep.name!r} is not a {kind.__name__}")
    return obj
