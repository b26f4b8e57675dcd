"""Engines are discovered through the ``simwright.engines`` entry-point group.

A package adds an engine by exposing an :class:`EngineInfo` under that group: a
name, a description and how its :class:`~simwright.engines.base.EngineLauncher` is
made from :class:`~simwright.settings.Settings`. The in-tree engines are registered
the same way, in ``pyproject.toml``. ``simwright engines`` lists them with their
versions, and ``simwright run`` refuses a protocol whose engines are missing before
any compute starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from simwright.engines.base import EngineLauncher
from simwright.errors import EngineError, SimwrightError
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


def require_engines(
    names: Iterable[str], settings: Settings, engines: Mapping[str, EngineInfo] | None = None
) -> None:
    """Refuse, naming each, engines in ``names`` that are unknown or not installed here."""
    engines = load_engines() if engines is None else engines
    problems: list[str] = []
    for name in names:
        info = engines.get(name)
        if info is None:
            problems.append(f"{name}: no such engine is registered")
            continue
        status = info.status(settings)
        if not status.available:
            problems.append(f"{name}: {status.problem}")
    if problems:
        raise EngineError(
            "missing engine(s) — " + "; ".join(problems) + " (see `simwright engines`; "
            "set a path under [engines] in $SIMWRIGHT_HOME/config.toml)"
        )
