"""How pw.x is started: the executable, optional MPI ranks, and the root exception of mpirun."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from simwright.engines.espresso.template import INPUT_NAME
from simwright.jobs import JobRunner
from simwright.settings import Settings

DEFAULT_EXECUTABLE = "pw.x"


@dataclass(frozen=True)
class PwLauncher:
    """The command line of pw.x: ``[mpirun [--allow-run-as-root] -np N] pw.x -in pw.in``.

    ``as_root`` None means: ask the operating system (mpirun refuses root unless told).
    ``mpirun`` empty means: the ``mpirun`` installed beside pw.x when there is one (the
    MPI library pw.x was built with; a virtual environment may put another MPI's
    ``mpirun`` first on ``PATH``), else the first on ``PATH``.
    """

    name: ClassVar[str] = "espresso"
    executable: str = DEFAULT_EXECUTABLE
    mpi_ranks: int = 1
    mpirun: str = ""
    as_root: bool | None = None
    timeout_s: float | None = None
    runner: JobRunner | None = field(default=None, compare=False, repr=False)
    """Decides where each call runs (a local pool, a batch scheduler: docs/cluster.md);
    without one pw.x runs here, now."""

    @classmethod
    def from_settings(cls, settings: Settings, *, timeout_s: float | None = None) -> PwLauncher:
        """A launcher from :class:`Settings` (``engine_paths['pw.x']``, ``mpi_ranks``)."""
        paths: Mapping[str, str] = settings.engine_paths
        exe = paths.get("pw.x") or paths.get("espresso") or DEFAULT_EXECUTABLE
        return cls(executable=exe, mpi_ranks=max(1, settings.mpi_ranks), timeout_s=timeout_s)

    def argv(self, input_name: str = INPUT_NAME) -> list[str]:
        """The command to run in the working directory (pw.x reads ``-in input_name``)."""
        base = [self.executable, "-in", input_name]
        if self.mpi_ranks <= 1:
            return base
        root = self.as_root if self.as_root is not None else os.geteuid() == 0
        extra = ["--allow-run-as-root"] if root else []
        return [
            self.mpirun or mpirun_beside(self.executable),
            *extra,
            "-np",
            str(self.mpi_ranks),
            *base,
        ]

    def available(self) -> bool:
        """True when the executable is found."""
        return shutil.which(self.executable) is not None

    def version(self) -> str:
        """The pw.x version ('' when it cannot be run)."""
        return pw_version(self.executable)


def mpirun_beside(executable: str) -> str:
    """The ``mpirun`` in the directory of ``executable`` if it has one, else ``mpirun``."""
    found = shutil.which(executable)
    if found is not None:
        for folder in (Path(found).parent, Path(found).resolve().parent):
            beside = folder / "mpirun"
            if beside.is_file() and os.access(beside, os.X_OK):
                return str(beside)
    return "mpirun"


@functools.cache
def pw_version(executable: str = DEFAULT_EXECUTABLE) -> str:
    """The version pw.x prints in its banner (it is started once with an empty input)."""
    if shutil.which(executable) is None:
        return ""
    try:
        with tempfile.TemporaryDirectory(prefix="simwright-pw-version-") as scratch:
            proc = subprocess.run(
                [executable],
                cwd=scratch,
                input="",
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    for line in proc.stdout.splitlines():
        if "Program PWSCF v." in line:
            return line.split("v.", 1)[1].split()[0]
    return ""
