"""PySCF and tblite as registered engines (``simwright engines`` lists them)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from simwright.engines.qc.pyscf_calc import pyscf_version
from simwright.engines.qc.xtb_calc import tblite_version
from simwright.engines.registry import EngineInfo
from simwright.settings import Settings


@dataclass(frozen=True)
class InProcessLauncher:
    """An engine that runs inside simwright's process: importable or not, no command."""

    name: str
    module: str

    def available(self) -> bool:
        """True when the engine's Python package is installed."""
        return importlib.util.find_spec(self.module) is not None

    def version(self) -> str:
        """The package's version ('' when absent)."""
        return pyscf_version() if self.module == "pyscf" else tblite_version()

    def argv(self) -> list[str]:
        """Empty: no process is started."""
        return []


def _pyscf(settings: Settings) -> InProcessLauncher:
    return InProcessLauncher("pyscf", "pyscf")


def _xtb(settings: Settings) -> InProcessLauncher:
    return InProcessLauncher("xtb", "tblite")


PYSCF_ENGINE = EngineInfo(
    name="pyscf",
    description="in-process PySCF: HF, DFT, TDDFT, PCM/ddCOSMO (extra [molecules])",
    launcher=_pyscf,
)
XTB_ENGINE = EngineInfo(
    name="xtb",
    description="in-process GFN2-xTB through tblite, ALPB solvation (extra [molecules])",
    launcher=_xtb,
)
