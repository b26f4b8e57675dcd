"""The engine-call runners a profile asks for (the composition root of the CLI and the API)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from simwright.errors import EngineError
from simwright.executors.durable import DurableRunner
from simwright.executors.file_journal import FileJournal
from simwright.executors.journal import Journal
from simwright.executors.local import CorePool, LocalExecutor
from simwright.executors.psij_backend import PsijBackend
from simwright.jobs import JobRunner, JobRunnerFactory, JobScope
from simwright.settings import Settings

if TYPE_CHECKING:
    from simwright.store.store import Store

SUBMIT_COMMANDS: Final = {"slurm": "sbatch", "pbs": "qsub"}


def profile_problem(settings: Settings) -> str | None:
    """Why the configured executor cannot be used here; None when it can."""
    profile = settings.executor
    if not profile.batch:
        return None
    command = SUBMIT_COMMANDS[profile.kind]
    if shutil.which(command) is None:
        return f"[executor] kind = {profile.kind!r}, but {command!r} is not on PATH"
    try:
        # lazy: psij-python is the optional `cluster` extra; only checked for a scheduler
        import psij  # noqa: F401
    except ImportError:
        return (
            f"[executor] kind = {profile.kind!r} needs psij-python: "
            "pip install 'simwright[cluster]'"
        )
    return None


def job_runners(settings: Settings, store: Store) -> JobRunnerFactory:
    """The runner of each step attempt's engine calls, from ``settings.executor``.

    ``local``: one :class:`LocalExecutor` over a pool of ``max_cores`` (0 = the cores
    settings allow) shared by every run of this process. ``slurm``/``pbs``: a
    :class:`DurableRunner` per step attempt over one PSI/J backend per run folder.
    Raises :class:`EngineError` when the scheduler's commands or PSI/J are missing.
    """
    profile = settings.executor
    if not profile.batch:
        local = LocalExecutor(CorePool(profile.max_cores or settings.cores()))

        def here(_scope: JobScope) -> JobRunner:
            return local

        return here
    problem = profile_problem(settings)
    if problem:
        raise EngineError(problem)
    backends: dict[Path, PsijBackend] = {}

    def batch(scope: JobScope) -> JobRunner:
        folder = profile.work_dir or scope.run_dir / "jobs"
        backend = backends.setdefault(folder, PsijBackend(profile, folder))
        journal = Journal(store, scope.run_id, scope.step_id)
        prefix = f"{scope.run_id}/{scope.seq:03d}"
        return DurableRunner(backend, journal, prefix, retries=profile.retries)

    return batch


def segment_job_runners(settings: Settings) -> Callable[[str], JobRunner] | None:
    """For campaign segments: the runner of the calls under a key prefix, or None (local).

    Segments are not steps of a run: their submissions are recorded in
    ``<home>/campaigns/jobs.jsonl`` (:class:`FileJournal`), their scripts and exit codes
    in ``work_dir`` (default ``<home>/campaigns/jobs``). The scheduler's commands and
    PSI/J are checked on the first segment.
    """
    profile = settings.executor
    if not profile.batch:
        return None
    root = settings.campaigns_path
    backend = PsijBackend(profile, profile.work_dir or root / "jobs")
    journal = FileJournal(root / "jobs.jsonl")

    def batch(prefix: str) -> JobRunner:
        problem = profile_problem(settings)
        if problem:
            raise EngineError(problem)
        return DurableRunner(backend, journal, prefix, retries=profile.retries)

    return batch
