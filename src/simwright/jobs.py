"""An engine call as a job, the profile of where jobs run, and the protocol of what runs them.

Every file-based engine call goes through :func:`simwright.engines.base.run_subprocess`.
Handed a :class:`JobRunner`, it describes the call as an :class:`EngineJob` (command,
working directory, environment, cores, wall time) and lets the runner decide where it
runs: on this machine (:class:`simwright.executors.local.LocalExecutor`, a bounded pool)
or on a batch scheduler through PSI/J (:mod:`simwright.executors.psij_backend`), with
write-ahead submission records so a restarted controller re-attaches to its jobs
(:mod:`simwright.executors.durable`). The runner writes the engine's stdout and stderr
into the two files the job names and returns a :class:`JobOutcome`; ``run_subprocess``
builds the engine-call record from them, whatever ran the job.

:class:`ExecutorProfile` is the ``[executor]`` table of ``config.toml``
(docs/cluster.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final, Protocol

from simwright.errors import ParseError

KINDS: Final = ("local", "slurm", "pbs")
"""The executors a profile may name."""


@dataclass(frozen=True)
class EngineJob:
    """One engine call to run: ``argv`` in ``workdir`` with ``env`` added to the environment.

    ``stdout_path``/``stderr_path`` receive the engine's output in full; ``stdin_path``
    (if any) is its standard input. ``cores`` is what the call uses (MPI ranks × threads);
    ``timeout_s`` its wall-time limit (None: none). ``continuable``: the engine can go on
    from the restart files it writes, so a job the scheduler requeues (preemption) is
    stopped instead and reported like one at its wall time (exit code 124), for the
    caller to continue it (:mod:`simwright.engines.lammps.continuation`).
    """

    engine: str
    argv: tuple[str, ...]
    workdir: Path
    stdout_path: Path
    stderr_path: Path
    env: Mapping[str, str] = field(default_factory=dict)
    stdin_path: Path | None = None
    timeout_s: float | None = None
    cores: int = 1
    continuable: bool = False


@dataclass(frozen=True)
class JobOutcome:
    """How a job ended: the engine's exit code and what to add to the engine-call record
    (``extra``: executor, job id, scheduler state history...)."""

    exit_code: int
    extra: Mapping[str, str] = field(default_factory=dict)


STOPPED_EXIT: Final = 124
"""The exit code of an engine call stopped before its end: at its wall time (local or
batch), or requeued by the scheduler while continuable (``extra['stopped_by']`` says)."""


class JobRunner(Protocol):
    """Runs engine jobs somewhere and waits for them."""

    def run(
        self,
        job: EngineJob,
        monitor: Callable[[], None] | None = None,
        monitor_every_s: float = 2.0,
    ) -> JobOutcome:
        """Run ``job`` to its end; ``monitor`` is called every ``monitor_every_s`` seconds."""
        ...


@dataclass(frozen=True)
class JobScope:
    """Where engine calls are made: the run, the step (sequence number and store id)."""

    run_id: str
    seq: int
    step_id: int
    run_dir: Path


JobRunnerFactory = Callable[[JobScope], JobRunner]
"""Gives the runner of one step attempt's engine calls (the graph runner calls it)."""


@dataclass(frozen=True)
class ExecutorProfile:
    """Where engine calls run (``[executor]`` in config.toml; docs/cluster.md).

    ``kind``: ``local`` (default: a pool on this machine, ``max_cores`` cores, 0 = all),
    ``slurm`` or ``pbs`` (through PSI/J). For a scheduler: ``queue`` (Slurm partition /
    PBS queue), ``account``, ``nodes``, ``gpus_per_call``, ``walltime_s`` (when the run
    has no engine-call limit of its own, else that limit is the job's wall time),
    ``retries`` (resubmissions of a job the scheduler cancelled, failed or lost),
    ``poll_interval_s`` (how often the queue is read) and ``work_dir`` (the submit scripts
    and exit-code files; default ``<run>/jobs``).
    """

    kind: str = "local"
    max_cores: int = 0
    queue: str | None = None
    account: str | None = None
    nodes: int = 1
    gpus_per_call: int = 0
    walltime_s: float = 3600.0
    retries: int = 2
    poll_interval_s: float = 1.0
    work_dir: Path | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ParseError(
                f"config.toml: [executor] kind must be one of {', '.join(KINDS)}, got {self.kind!r}"
            )
        if self.nodes < 1:
            raise ParseError(f"config.toml: [executor] nodes must be >= 1, got {self.nodes}")

    @property
    def batch(self) -> bool:
        """True for a batch scheduler (Slurm, PBS)."""
        return self.kind != "local"


_INTS: Final = ("max_cores", "nodes", "gpus_per_call", "retries")
_FLOATS: Final = ("walltime_s", "poll_interval_s")
_STRINGS: Final = ("kind", "queue", "account")


def parse_profile(table: Any) -> ExecutorProfile:
    """The :class:`ExecutorProfile` of an ``[executor]`` table; unknown keys refused by name."""
    if not isinstance(table, dict):
        raise ParseError("config.toml: [executor] must be a table")
    known = {f.name for f in fields(ExecutorProfile)}
    unknown = set(table) - known
    if unknown:
        raise ParseError(
            f"config.toml: unknown [executor] key(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))}"
        )
    values: dict[str, Any] = {}
    for key, value in table.items():
        values[key] = _value(key, value)
    return ExecutorProfile(**values)


def _value(key: str, value: Any) -> Any:
    where = f"config.toml: [executor] {key}"
    if key in _STRINGS:
        if not isinstance(value, str) or not value:
            raise ParseError(f"{where} must be a non-empty string, got {value!r}")
        return value
    if key == "work_dir":
        if not isinstance(value, str) or not value:
            raise ParseError(f"{where} must be a folder path, got {value!r}")
        return Path(value).expanduser()
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParseError(f"{where} must be a number, got {value!r}")
    if key in _INTS:
        if not isinstance(value, int) or value < 0:
            raise ParseError(f"{where} must be a whole number >= 0, got {value!r}")
        return value
    if not math.isfinite(value) or value <= 0:
        raise ParseError(f"{where} must be finite and > 0, got {value}")
    return float(value)
