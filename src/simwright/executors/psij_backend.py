"""Slurm and PBS through PSI/J (``psij-python``, the ``cluster`` extra; imported lazily).

One :class:`PsijBackend` per run folder: its PSI/J executor keeps the submit scripts and
the exit-code files (``<job id>.ec``) in ``work_dir/<scheduler>``, where a restarted
controller finds them again when it re-attaches. PSI/J reads the queue every
``poll_interval_s`` seconds (``squeue``/``qstat``); jobs are found by name with
``squeue --name`` / ``qselect -N`` when a controller died between submitting a job and
recording its id.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from simwright.errors import EngineError
from simwright.executors.backend import FINISHED, REQUEUED, JobEnd, StateChange
from simwright.jobs import STOPPED_EXIT, EngineJob, ExecutorProfile

if TYPE_CHECKING:
    from psij import Job, JobExecutor, JobSpec

TIMEOUT_EXIT: Final = STOPPED_EXIT
"""The exit code reported for a job stopped at its wall time (as for a local timeout)."""

REQUEUE_CHECK_S: Final = 1.0
"""How often a continuable Slurm job is checked for a requeue (PSI/J ignores a job going
back from running to pending)."""
_RESTARTS: Final = re.compile(r"\bRestarts=(\d+)")

MIN_WALLTIME_S: Final = 60.0
"""Schedulers count wall time in minutes: never ask for less than one."""

_FIND: Final = {
    "slurm": lambda name: ["squeue", "-h", "-t", "all", "-o", "%i", "--name", name],
    "pbs": lambda name: ["qselect", "-x", "-N", name],
}
_CANCEL: Final = {"slurm": "scancel", "pbs": "qdel"}
_NAME_DIRECTIVE: Final = {"slurm": "slurm.job-name", "pbs": "pbs.N"}
"""The scheduler directive naming a job (PSI/J 0.9 renders no name of its own)."""


class PsijBackend:
    """Submits, follows and cancels engine jobs on Slurm or PBS through PSI/J."""

    def __init__(self, profile: ExecutorProfile, work_dir: Path) -> None:
        if not profile.batch:
            raise EngineError("PsijBackend needs a batch scheduler profile (slurm or pbs)")
        self.profile = profile
        self.work_dir = work_dir
        self._executor: JobExecutor | None = None
        self._lock = threading.Lock()
        self._jobs: dict[str, tuple[Job, list[StateChange], float]] = {}

    @property
    def name(self) -> str:
        """``slurm`` or ``pbs``."""
        return self.profile.kind

    def _psij(self) -> JobExecutor:
        """The PSI/J executor, made on first use."""
        with self._lock:
            if self._executor is None:
                self._executor = _make_executor(self.profile, self.work_dir)
            return self._executor

    def submit(self, job: EngineJob, job_name: str) -> str:
        """Submit ``job`` as ``job_name``; the scheduler's job id."""
        # lazy: psij-python is the optional `cluster` extra
        from psij import Job, SubmitException

        executor = self._psij()
        pjob = Job(self._spec(job, job_name))
        history = self._follow(pjob)
        try:
            executor.submit(pjob)
        except SubmitException as exc:
            raise EngineError(f"{self.name} refused job {job_name}: {exc}") from exc
        job_id = pjob.native_id
        if job_id is None:
            raise EngineError(f"{self.name} gave no job id for {job_name}")
        self._jobs[job_id] = (pjob, history, time.monotonic())
        return job_id

    def find(self, job_name: str) -> str | None:
        """The newest job named ``job_name`` the scheduler still lists, or None."""
        try:
            out = subprocess.run(
                _FIND[self.name](job_name), capture_output=True, text=True, timeout=60, check=False
            ).stdout
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise EngineError(f"cannot ask {self.name} for job {job_name}: {exc}") from exc
        ids = [line.strip().split(".")[0] for line in out.splitlines() if line.strip()]
        return ids[-1] if ids else None

    def wait(
        self,
        job: EngineJob,
        job_id: str,
        monitor: Callable[[], None] | None = None,
        monitor_every_s: float = 2.0,
    ) -> JobEnd:
        """Follow ``job_id`` to its end (attaching first when this process did not submit it)."""
        if job_id not in self._jobs:
            self._jobs[job_id] = self._attach(job, job_id)
        pjob, history, since = self._jobs.pop(job_id)
        watch = job.continuable and self.name == "slurm"
        every = _wake_every(monitor_every_s if monitor else None, watch)
        while True:
            status = pjob.wait(timeout=every)
            if status is not None and status.state.final:
                break
            if monitor is not None:
                monitor()
            if watch and self._requeued(job_id):
                return self._stop_requeued(job_id, history, since)
        if not history or history[-1].state != status.state.name:
            history.append(StateChange(status.state.name, time.monotonic()))
        message = status.message or ""
        return JobEnd(
            state=status.state.name,
            exit_code=_exit_code(status.state.name, status.exit_code, message),
            history=_relative(history, since),
            message=message,
        )

    def _requeued(self, job_id: str) -> bool:
        """True when Slurm has requeued ``job_id`` after it started (``Restarts`` > 0)."""
        try:
            out = subprocess.run(
                ["scontrol", "-o", "show", "job", job_id],
                capture_output=True, text=True, timeout=60, check=False,
            ).stdout  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            return False
        found = _RESTARTS.search(out)
        return found is not None and int(found.group(1)) > 0

    def _stop_requeued(self, job_id: str, history: list[StateChange], since: float) -> JobEnd:
        """Cancel a requeued continuable job: its caller continues it from its restarts."""
        self.cancel(job_id)
        message = "requeued by the scheduler after it started; stopped to continue from restarts"
        history.append(StateChange(REQUEUED, time.monotonic(), message))
        return JobEnd(REQUEUED, STOPPED_EXIT, _relative(history, since), message)

    def cancel(self, job_id: str) -> None:
        """Cancel ``job_id`` (``scancel`` / ``qdel``)."""
        subprocess.run([_CANCEL[self.name], job_id], capture_output=True, timeout=60, check=False)

    def _attach(self, job: EngineJob, job_id: str) -> tuple[Job, list[StateChange], float]:
        # lazy: psij-python is the optional `cluster` extra
        from psij import Job

        pjob = Job(self._spec(job, ""))
        history = self._follow(pjob)
        self._psij().attach(pjob, job_id)
        return pjob, history, time.monotonic()

    @staticmethod
    def _follow(pjob: Job) -> list[StateChange]:
        """Record every state PSI/J reports for ``pjob`` (with the monotonic time)."""
        history: list[StateChange] = []

        def note(_job: Any, status: Any) -> None:
            history.append(StateChange(status.state.name, time.monotonic(), status.message or ""))

        pjob.set_job_status_callback(note)
        return history

    def _spec(self, job: EngineJob, job_name: str) -> JobSpec:
        # lazy: psij-python is the optional `cluster` extra
        from psij import JobAttributes, JobSpec, ResourceSpecV1

        walltime = max(MIN_WALLTIME_S, job.timeout_s or self.profile.walltime_s)
        resources = ResourceSpecV1(
            node_count=self.profile.nodes,
            process_count=self.profile.nodes,
            cpu_cores_per_process=max(1, job.cores),
            gpu_cores_per_process=self.profile.gpus_per_call or None,
        )
        attributes = JobAttributes(
            duration=timedelta(seconds=walltime),
            queue_name=self.profile.queue,
            account=self.profile.account,
            custom_attributes={_NAME_DIRECTIVE[self.name]: job_name} if job_name else None,
        )
        return JobSpec(
            executable=job.argv[0],
            arguments=list(job.argv[1:]),
            directory=job.workdir,
            inherit_environment=True,
            environment=dict(job.env),
            stdin_path=job.stdin_path,
            stdout_path=job.stdout_path,
            stderr_path=job.stderr_path,
            resources=resources,
            attributes=attributes,
        )


def _make_executor(profile: ExecutorProfile, work_dir: Path) -> JobExecutor:
    """A PSI/J batch executor polling every ``profile.poll_interval_s`` seconds.

    PSI/J types the intervals as whole seconds but sleeps with ``time.sleep``, which
    takes fractions: a short interval keeps the overhead per job small.
    """
    # lazy: psij-python is the optional `cluster` extra
    from psij import JobExecutor
    from psij.executors.batch.pbs import PBSExecutorConfig
    from psij.executors.batch.slurm import SlurmExecutorConfig

    work_dir.mkdir(parents=True, exist_ok=True)
    interval = cast(int, profile.poll_interval_s)
    options: dict[str, Any] = {
        "work_directory": work_dir,
        "queue_polling_interval": interval,
        "initial_queue_polling_delay": interval,
        "keep_files": True,
    }
    if profile.kind == "slurm":
        return JobExecutor.get_instance("slurm", config=SlurmExecutorConfig(**options))
    return JobExecutor.get_instance("pbs", config=PBSExecutorConfig(**options))


def _wake_every(monitor_every_s: float | None, watch: bool) -> timedelta | None:
    """How long to wait between wake-ups: the monitor's interval, shortened to
    :data:`REQUEUE_CHECK_S` while watching for a requeue; None: only at the end."""
    seconds = [s for s in (monitor_every_s, REQUEUE_CHECK_S if watch else None) if s]
    return timedelta(seconds=min(seconds)) if seconds else None


def _exit_code(state: str, code: int | None, message: str) -> int | None:
    """The engine's exit code, or None when it did not run to its end.

    A job the scheduler stopped at its wall time counts as a timeout (exit 124), like a
    local engine call stopped at its limit; a job it cancelled, preempted or lost has
    no exit code (the durable runner resubmits it).
    """
    if "time limit" in message.lower():
        return TIMEOUT_EXIT
    if state in (FINISHED, "FAILED"):
        return code
    return None


def _relative(history: list[StateChange], since: float) -> tuple[StateChange, ...]:
    """States with times (monotonic clock) made relative to ``since``, when following began."""
    return tuple(StateChange(c.state, max(0.0, c.at_s - since), c.message) for c in history)
