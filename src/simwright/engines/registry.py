"""Engines are discovered through the ``simwright.engines`` entry-point group.

A package adds an engine by exposing an :class:`EngineInfo` under that group: a
name, a description and how its :class:`~simwright.engines.base.EngineLauncher` is
made from :class:`~simwright.settings.Settings`. The in-tree engines are registered
the same way, in ``pyproject.toml``. ``simwright engines`` lists them with their
versions and command lines; the run preflight
(:mod:`simwright.protocols.preflight`) locates executables through the same launchers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simwright.engines.base import EngineLauncher
from simwright.errors import SimwrightError
from simwright.plugins import load_plugins
from simwright.settings import Settings

ENGINE_GROUP = "simwright.engines"


@dataclass(frozen=True)
class EngineStatus:
    """What an engine looks like on this machine: found or not, version, command line."""

    name: str
    description: str
    available: bool
    version: str = ""
    command: str = ""
    problem: str = ""


@dataclass(frozen=True)
class EngineInfo:
    """A registered engine: its name, purpose and how its launcher is made from settings."""

    name: str
    description: str
    launcher: Callable[[Settings], EngineLauncher]

    def status(self, settings: Settings) -> EngineStatus:
        """Locate the engine with ``settings`` and ask its version (never raises)."""
        try:
            launcher = self.launcher(settings)
        except SimwrightError as exc:
            return EngineStatus(self.name, self.description, False, problem=str(exc))
        if not launcher.available():
            return EngineStatus(
                self.name, self.description, False, problem="found but cannot be started"
            )
        return EngineStatus(
            self.name, self.description, True, launcher.version(), " ".join(launcher.argv())
        )


def load_engines() -> dict[str, EngineInfo]:
    """All registered engines by name (a broken plugin is reported by name)."""
    found = load_plugins(ENGINE_GROUP, EngineInfo, what="engine")
    return dict(sorted((info.name, info) for info in found.values()))
