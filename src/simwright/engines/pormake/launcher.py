"""How the PORMAKE worker is started and versioned (an
:class:`~simwright.engines.base.EngineLauncher`)."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from importlib import metadata
from typing import ClassVar

from simwright.engines.registry import EngineInfo
from simwright.settings import Settings

ENGINE_NAME = "pormake"


def package_version(distribution: str) -> str:
    """The installed version of ``distribution`` ('' when absent)."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


@dataclass(frozen=True)
class PormakeLauncher:
    """``python -m simwright.engines.pormake.worker`` with this Python."""

    name: ClassVar[str] = ENGINE_NAME
    python: str

    @classmethod
    def from_settings(cls, settings: Settings) -> PormakeLauncher:
        """The running Python (PORMAKE is a Python package of this environment)."""
        return cls(sys.executable)

    def available(self) -> bool:
        """True when PORMAKE can be imported."""
        return importlib.util.find_spec("pormake") is not None

    def version(self) -> str:
        """PORMAKE's version."""
        return package_version("pormake")

    def argv(self) -> list[str]:
        """The worker's command line (it reads ``pormake.json`` in its folder)."""
        return [self.python, "-m", "simwright.engines.pormake.worker"]


ENGINE = EngineInfo(
    name=ENGINE_NAME,
    description="PORMAKE: MOFs from a topology and building blocks (extra [mofs])",
    launcher=PormakeLauncher.from_settings,
)
