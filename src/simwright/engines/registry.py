"""Engines are discovered through the ``simwright.engines`` entry-point group.

A package adds an engine by exposing an :class:`EngineInfo` under that group;
the in-tree engines are registered the same way, in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

from simwright.errors import SimwrightError

ENGINE_GROUP = "simwright.engines"


@dataclass(frozen=True)
class EngineInfo:
    """What simwright knows about an engine: its name, purpose, version and availability."""

    name: str
    description: str
    version: Callable[[], str]
    available: Callable[[], bool]


def load_engines() -> dict[str, EngineInfo]:
    """All registered engines by name (a broken plugin is reported by name)."""
    out: dict[str, EngineInfo] = {}
    for ep in entry_points(group=ENGINE_GROUP):
        try:
            info = ep.load()
        except Exception as exc:
            raise SimwrightError(f"engine plugin {ep.name!r} failed to load: {exc}") from exc
        if not isinstance(info, EngineInfo):
            raise SimwrightError(f"engine plugin {ep.name!r} is not an EngineInfo")
        out[info.name] = info
    return dict(sorted(out.items()))
