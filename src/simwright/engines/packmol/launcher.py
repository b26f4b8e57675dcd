"""How PACKMOL is found, versioned and started (an :class:`~simwright.engines.base.EngineLauncher`).

PACKMOL reads its input on stdin and needs it as a file: a pipe fails with "Illegal seek".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import ClassVar

from simwright.engines.base import find_executable
from simwright.settings import Settings

ENGINE_NAME = "packmol"


def find_packmol() -> Path:
    """The PACKMOL executable: next to the running Python (a venv), else on PATH."""
    return find_executable("packmol", "install it with: pip install packmol")


def packmol_version() -> str:
    """Version of the installed ``packmol`` Python distribution ("" if not installed by pip)."""
    try:
        return metadata.version("packmol")
    except metadata.PackageNotFoundError:
        return ""


def version_in_output(stdout_path: Path) -> str:
    """The version PACKMOL printed in its banner ('' when none)."""
    head = stdout_path.read_text(errors="replace")[:3000] if stdout_path.is_file() else ""
    match = re.search(r"Version\s+(\d+(?:\.\d+)*)", head)
    return match.group(1) if match else ""


@dataclass(frozen=True)
class PackmolLauncher:
    """The PACKMOL executable; it is started as ``packmol < packmol.inp``."""

    name: ClassVar[str] = ENGINE_NAME
    executable: Path

    @classmethod
    def from_settings(cls, settings: Settings) -> PackmolLauncher:
        """``settings.engine_paths['packmol']``, else the one :func:`find_packmol` finds."""
        path = settings.engine_paths.get("packmol")
        return cls(Path(path) if path else find_packmol())

    def available(self) -> bool:
        """True when the executable exists."""
        return self.executable.is_file()

    def version(self) -> str:
        """The version of the pip-installed PACKMOL ('' otherwise)."""
        return packmol_version()

    def argv(self) -> list[str]:
        """``[packmol]``; the input comes on stdin."""
        return [str(self.executable)]
