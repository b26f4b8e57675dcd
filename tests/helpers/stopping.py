"""A job runner that stops its first job the way a scheduler stops one at its wall time.

:class:`StopAtSnapshot` runs each engine job on this machine; the first ones it kills
(SIGKILL, as ``slurmstepd`` does after the grace time) as soon as the job has written
more than ``stop_after`` periodic restarts, and reports exit
code 124 (wall time), like a local call at its limit or a Slurm job ended with TIMEOUT.
The kill point is set by the job's own progress, not by a clock, so tests stay
deterministic on a loaded machine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from simwright.jobs import EngineJob, JobOutcome


@dataclass
class StopAtSnapshot:
    """Stops the first ``stops`` jobs that get more than ``stop_after`` files matching
    ``stop_when`` in their folder (by default: periodic restarts); runs the others."""

    stop_after: int = 2
    stops: int = 1
    stop_when: str = "snapshot.*.restart"
    calls: list[EngineJob] = field(default_factory=list)
    stopped: int = 0

    def run(
        self,
        job: EngineJob,
        monitor: Callable[[], None] | None = None,
        monitor_every_s: float = 2.0,
    ) -> JobOutcome:
        """Run ``job``; stop it early while stops remain."""
        self.calls.append(job)
        stop = self.stopped < self.stops
        stdin = str(job.stdin_path) if job.stdin_path else os.devnull
        with (
            job.stdout_path.open("wb") as out,
            job.stderr_path.open("wb") as err,
            open(stdin, "rb") as source,
        ):
            proc = subprocess.Popen(
                list(job.argv), cwd=job.workdir, env={**os.environ, **job.env},
                stdout=out, stderr=err, stdin=source, start_new_session=True,
            )  # fmt: skip
            while proc.poll() is None:
                if stop and len(list(job.workdir.glob(self.stop_when))) > self.stop_after:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    self.stopped += 1
                    return JobOutcome(124, {"executor": "test", "job_id": f"t{len(self.calls)}"})
                time.sleep(0.005)
        return JobOutcome(proc.returncode, {"executor": "test", "job_id": f"t{len(self.calls)}"})
