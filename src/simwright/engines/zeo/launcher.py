"""How the Zeo++ worker is started and versioned (an
:class:`~simwright.engines.base.EngineLauncher`)."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from typing import ClassVar

from simwright.engines.pormake.launcher import package_version
from simwright.engines.registry import EngineInfo
from simwright.settings import Settings

ENGINE_NAME = "zeo++"


@dataclass(frozen=True)
class ZeoLauncher:
    """``python -m simwright.engines.zeo.worker`` with this Python (pyzeo bindings)."""

    name: ClassVar[str] = ENGINE_NAME
    python: str

    @classmethod
    def from_settings(cls, settings: Settings) -> ZeoLauncher:
        """The running Python (pyzeo is a Python package of this environment)."""
        return cls(sys.executable)

    def available(self) -> bool:
        """True when pyzeo can be imported."""
        return importlib.util.find_spec("pyzeo") is not None

    def version(self) -> str:
        """The pyzeo bindings' version (Zeo++ itself is compiled into them)."""
        return f"pyzeo {package_version('pyzeo')}"

    def argv(self) -> list[str]:
        """The worker's command line (it reads ``zeo.json`` in its folder)."""
        return [self.python, "-m", "simwright.engines.zeo.worker"]


ENGINE = EngineInfo(
    name=ENGINE_NAME,
    description="Zeo++ (pyzeo): pore diameters, accessible area and volume (extra [mofs])",
    launcher=ZeoLauncher.from_settings,
)
