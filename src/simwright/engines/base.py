"""The contract every engine adapter follows, and the subprocess runner they share.

An adapter is two small pieces, after ASE's file-I/O calculators:

- a **launcher** (:class:`EngineLauncher`): how the engine is located (from
  :class:`~simwright.settings.Settings`), which version it is, whether it is there, and
  the command line it is started with in the working directory;
- for a file-based engine, a **template** (:class:`EngineTemplate`): a pure function
  from a typed spec to the text of its input files, and a reader from the files the
  engine wrote to a typed result. Templates start no process; golden-file tests
  check them.

:func:`run_subprocess` starts a launcher's command with ``cwd=workdir`` in its own
process group and returns the :class:`~simwright.store.records.EngineCall` record.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar, runtime_checkable

from simwright.engines.confine import Confinement
from simwright.errors import EngineError
from simwright.jobs import EngineJob, JobRunner
from simwright.processes import run_group
from simwright.store.records import EngineCall, tail

SpecT = TypeVar("SpecT", contravariant=True)
OutT = TypeVar("OutT", covariant=True)


@runtime_checkable
class EngineLauncher(Protocol):
    """How an engine is located, versioned and started.

    Built from :class:`~simwright.settings.Settings` by each adapter's
    ``from_settings`` (which raises :class:`~simwright.errors.EngineError` when the
    engine cannot be found). An in-process engine (ASE) starts no process: its
    :meth:`argv` is empty.
    """

    @property
    def name(self) -> str:
        """The engine's registry name (``lammps``, ``espresso``, ``packmol``, ``ase``)."""
        ...

    def available(self) -> bool:
        """True when the engine can be started here (never raises)."""
        ...

    def version(self) -> str:
        """The engine's version ('' when it cannot be told)."""
        ...

    def argv(self) -> list[str]:
        """The command line run in the working directory (empty for an in-process engine)."""
        ...


class EngineTemplate(Protocol[SpecT, OutT]):
    """The pure file I/O of a file-based engine: spec -> input files, output files -> result."""

    def inputs(self, spec: SpecT) -> dict[str, str]:
        """Every input file the engine reads, by file name: text only, nothing written."""
        ...

    def parse(self, spec: SpecT, workdir: Path) -> OutT:
        """The typed result read from the files the engine wrote into ``workdir``."""
        ...


def find_executable(name: str, install_hint: str) -> Path:
    """The executable ``name`` next to the running Python (its virtual environment, where
    pip puts ``lmp`` and ``packmol``), else on ``PATH``; :class:`EngineError` naming
    ``install_hint`` when there is none."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which(name)
    if found:
        return Path(found)
    raise EngineError(
        f"executable {name!r} not found next to {sys.executable} nor on PATH; {install_hint}"
    )


def write_inputs(files: Mapping[str, str], workdir: Path) -> dict[str, Path]:
    """Write a template's input files into ``workdir``; their paths by file name.

    Each name must pass the confinement rule (:mod:`simwright.engines.confine`).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    rule = Confinement(workdir)
    paths = {name: rule.require(name) for name in files}
    for name, text in files.items():
        paths[name].write_text(text, encoding="utf-8")
    return paths


def run_subprocess(
    engine: str,
    argv: Sequence[str],
    workdir: Path,
    *,
    version: str = "",
    env: Mapping[str, str] | None = None,
    stdin_path: Path | None = None,
    timeout_s: float | None = None,
    monitor: Callable[[], None] | None = None,
    monitor_every_s: float = 2.0,
    runner: JobRunner | None = None,
    cores: int = 1,
    continuable: bool = False,
) -> EngineCall:
    """Run ``argv`` with ``cwd=workdir`` and return its :class:`EngineCall` record.

    stdout and stderr are written in full to ``<engine>.stdout`` / ``<engine>.stderr``
    inside ``workdir``; the record keeps their tails. A timeout gives exit code 124.
    ``monitor`` (if given) is called every ``monitor_every_s`` seconds while the
    engine runs, e.g. to report progress from its log file. ``runner`` (if given)
    decides where the call runs — a local pool, a batch scheduler (:mod:`simwright.jobs`)
    — and ``cores`` is what the call uses; without one it runs here, now. ``continuable``:
    the engine can go on from its restart files (:class:`simwright.jobs.EngineJob`).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    if runner is not None:
        job = EngineJob(
            engine=engine,
            argv=tuple(str(a) for a in argv),
            workdir=workdir,
            stdout_path=workdir / f"{engine}.stdout",
            stderr_path=workdir / f"{engine}.stderr",
            env=dict(env or {}),
            stdin_path=stdin_path,
            timeout_s=timeout_s,
            cores=cores,
            continuable=continuable,
        )
        return _run_job(runner, job, version, monitor, monitor_every_s)
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    out_path = workdir / f"{engine}.stdout"
    err_path = workdir / f"{engine}.stderr"
    start = time.perf_counter()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        stdin = stdin_path.open("rb") if stdin_path else subprocess.DEVNULL
        try:
            code = run_group(
                argv, workdir, full_env, stdin, out, err, timeout_s, monitor, monitor_every_s
            )
        except FileNotFoundError:
            code = 127
            err.write(f"executable not found: {argv[0]}\n".encode())
        finally:
            if stdin_path:
                stdin.close()  # type: ignore[union-attr]
    wall = time.perf_counter() - start
    return EngineCall(
        engine=engine,
        command=" ".join(str(a) for a in argv),
        version=version,
        exit_code=code,
        wall_s=wall,
        stdout_tail=tail(out_path.read_text(errors="replace")),
        stderr_tail=tail(err_path.read_text(errors="replace")),
        workdir=str(workdir),
    )


def _run_job(
    runner: JobRunner,
    job: EngineJob,
    version: str,
    monitor: Callable[[], None] | None,
    monitor_every_s: float,
) -> EngineCall:
    """Run ``job`` through ``runner``; the engine-call record from its output files."""
    start = time.perf_counter()
    outcome = runner.run(job, monitor, monitor_every_s)
    wall = time.perf_counter() - start
    return EngineCall(
        engine=job.engine,
        command=" ".join(job.argv),
        version=version,
        exit_code=outcome.exit_code,
        wall_s=wall,
        stdout_tail=_tail_of(job.stdout_path),
        stderr_tail=_tail_of(job.stderr_path),
        workdir=str(job.workdir),
        extra=dict(outcome.extra),
    )


def _tail_of(path: Path) -> str:
    """The tail of a text file ('' when the job left none)."""
    try:
        return tail(path.read_text(errors="replace"))
    except OSError:
        return ""
