"""Engine calls on this machine, through a bounded pool of cores.

:class:`CorePool` counts the cores engine calls hold; :class:`LocalExecutor` takes the
cores a call uses (MPI ranks × threads, at most the whole pool) before it starts the
engine and gives them back when it ends, so concurrent calls — several runs or
campaign systems in one process — never ask for more cores than the machine has.
The engine itself runs as before (:func:`simwright.processes.run_group`: own process
group, killed whole on timeout or when simwright dies).
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from simwright.jobs import EngineJob, JobOutcome
from simwright.processes import run_group


class CorePool:
    """``total`` cores shared by engine calls; :meth:`hold` blocks until enough are free."""

    def __init__(self, total: int) -> None:
        if total < 1:
            raise ValueError(f"a core pool needs at least one core, got {total}")
        self.total = total
        self._free = total
        self._cond = threading.Condition()

    @property
    def free(self) -> int:
        """Cores not held by any call now."""
        with self._cond:
            return self._free

    def acquire(self, cores: int, timeout_s: float | None = None) -> int:
        """Take ``cores`` (at most the whole pool); the number taken, 0 after ``timeout_s``."""
        want = max(1, min(cores, self.total))
        with self._cond:
            if not self._cond.wait_for(lambda: self._free >= want, timeout=timeout_s):
                return 0
            self._free -= want
        return want

    def release(self, cores: int) -> None:
        """Give back ``cores`` taken by :meth:`acquire`."""
        with self._cond:
            self._free = min(self.total, self._free + cores)
            self._cond.notify_all()

    @contextmanager
    def hold(self, cores: int) -> Iterator[int]:
        """Hold ``cores`` for the duration of the block."""
        taken = self.acquire(cores)
        try:
            yield taken
        finally:
            self.release(taken)


class LocalExecutor:
    """Runs engine jobs here, each once its cores are free in ``pool``."""

    name = "local"

    def __init__(self, pool: CorePool) -> None:
        self.pool = pool

    def run(
        self,
        job: EngineJob,
        monitor: Callable[[], None] | None = None,
        monitor_every_s: float = 2.0,
    ) -> JobOutcome:
        """Run ``job`` in its working directory once its cores are free; its exit code."""
        env = _environment(job)
        with (
            self.pool.hold(job.cores) as cores,
            job.stdout_path.open("wb") as out,
            job.stderr_path.open("wb") as err,
        ):
            stdin = job.stdin_path.open("rb") if job.stdin_path else subprocess.DEVNULL
            try:
                code = run_group(
                    job.argv, job.workdir, env, stdin, out, err,
                    job.timeout_s, monitor, monitor_every_s,
                )  # fmt: skip
            except FileNotFoundError:
                code = 127
                err.write(f"executable not found: {job.argv[0]}\n".encode())
            finally:
                if job.stdin_path:
                    stdin.close()  # type: ignore[union-attr]
        return JobOutcome(code, {"executor": self.name, "cores_held": str(cores)})


def _environment(job: EngineJob) -> dict[str, str]:
    """This process's environment with the job's additions (as ``run_subprocess`` does)."""
    full = dict(os.environ)
    full.update(job.env)
    return full
