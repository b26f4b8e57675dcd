"""Engines are discovered through the ``simwright.engines`` entry-point group.

A package adds an engine by exposing an :class:`EngineInfo` under that group;
the in-tree engines are registered the same way, in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simwright.plugins import load_plugins

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
    found = load_plugins(ENGINE_GROUP, EngineInfo, what="engine")
    return dict(sorted((info.name, info) for info in found.values()))
