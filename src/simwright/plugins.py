"""Plugins are found through entry-point groups; one loader serves every registry.

A package adds an engine, a protocol or a campaign engine by exposing an object
under the group that registry reads (``simwright.engines``, ``simwright.protocols``,
``simwright.campaign_engines``); the in-tree ones are registered the same way in
``pyproject.toml``. A plugin that fails to import, or exposes the wrong kind of
object, is reported by name.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import TypeVar

from simwright.errors import SimwrightError

T = TypeVar("T")


def plugin_names(group: str) -> tuple[str, ...]:
    """The names registered under the entry-point ``group``, sorted (nothing is imported)."""
    return tuple(sorted({ep.name for ep in entry_points(group=group)}))


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
    for ep in entry_points(group=group):
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
    out = {ep.name: _load(ep, kind, what, error) for ep in entry_points(group=group)}
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
