"""Many runs at once (``simwright run --many``): plan them all, then run them side by side.

A batch is a text file of requests (one per line; blank lines and ``#`` comments are
skipped) or a directory of YAML spec files. Every entry is planned first, exactly as
``simwright run`` plans one (resolver, preflight, build stage); the refusals are all
known before any run exists. The accepted entries become ``queued`` runs, and a
:class:`BatchPool` executes them, each in its own worker process
(``simwright worker RUN_ID``, the service's worker), at most ``jobs`` at a time. A
worker interrupted (Ctrl-C, SIGTERM) records its run as interrupted; runs not yet
started stay ``queued``: ``simwright resume RUN_ID`` continues either.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simwright.api.requests import plan
from simwright.errors import SimwrightError, ValidationError
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import Resolution
from simwright.lifetime import die_with_parent
from simwright.protocols.registry import Protocol
from simwright.settings import Settings
from simwright.store.store import Store

SPEC_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class BatchEntry:
    """One request of a batch and where it came from (``file:line`` or the spec file)."""

    origin: str
    request: str


@dataclass(frozen=True)
class PlannedEntry:
    """An entry after planning: its resolution, or the refusal (one of the two)."""

    entry: BatchEntry
    resolution: Resolution | None = None
    refusal: str | None = None


def read_batch(path: Path) -> list[BatchEntry]:
    """The entries of a request file or of a directory of YAML specs (sorted by name)."""
    if path.is_dir():
        specs = sorted(p for p in path.iterdir() if p.suffix in SPEC_SUFFIXES and p.is_file())
        if not specs:
            raise ValidationError(f"{path} holds no .yaml spec file")
        return [BatchEntry(p.name, str(p)) for p in specs]
    if not path.is_file():
        raise ValidationError(f"no request file or spec directory {path}")
    entries = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        text = line.split("#", 1)[0].strip()
        if text:
            request = str(path.parent / text) if text.endswith(SPEC_SUFFIXES) else text
            entries.append(BatchEntry(f"{path.name}:{number}", request))
    if not entries:
        raise ValidationError(f"{path} holds no request (one per line, # for comments)")
    return entries


def plan_batch(
    entries: Sequence[BatchEntry], settings: Settings, protocols: Mapping[str, Protocol]
) -> list[PlannedEntry]:
    """Plan every entry (nothing is created); a refusal is kept with its message."""
    planned = []
    for entry in entries:
        try:
            resolution = plan(entry.request, settings, protocols)
        except SimwrightError as exc:
            planned.append(PlannedEntry(entry, refusal=str(exc)))
        else:
            planned.append(PlannedEntry(entry, resolution=resolution))
    return planned


def create_runs(planned: Sequence[PlannedEntry], store: Store, settings: Settings) -> list[str]:
    """Create a ``queued`` run for every accepted entry, in order; their ids."""
    ids = []
    for item in planned:
        if item.resolution is None:
            continue
        resolved = item.resolution
        proto = resolved.protocol
        ids.append(
            Runner(store, settings).create(
                proto.graph,
                proto.first_step(resolved.params),
                protocol=proto.name,
                params=resolved.params,
                request=resolved.request,
            )
        )
    return ids


def cores_per_run(settings: Settings) -> int:
    """Cores one run is expected to use: MPI ranks × threads (one thread when unset)."""
    return max(1, settings.mpi_ranks) * max(1, settings.threads)


def default_jobs(settings: Settings, cores: int | None = None) -> int:
    """How many runs fit side by side: the machine's cores / :func:`cores_per_run`."""
    total = cores if cores is not None else (os.cpu_count() or 1)
    return max(1, total // cores_per_run(settings))


WorkerArgv = Callable[[str], Sequence[str]]
"""The command line of the worker that executes one run (given its id)."""


@dataclass
class BatchPool:
    """Runs worker processes for given run ids, at most ``jobs`` at a time.

    ``env`` is added to each worker's environment (e.g. its thread count); ``log_dir``
    receives each worker's output as ``<run_id>.log`` (None discards it).
    """

    argv: WorkerArgv
    jobs: int
    env: Mapping[str, str] = field(default_factory=dict)
    log_dir: Path | None = None
    waiting: list[str] = field(default_factory=list)
    running: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    exit_codes: dict[str, int] = field(default_factory=dict)

    def submit(self, run_ids: Sequence[str]) -> None:
        """Add runs to execute, in order."""
        self.waiting.extend(run_ids)

    @property
    def done(self) -> bool:
        """True when every submitted run's worker has exited."""
        return not self.waiting and not self.running

    def tick(self) -> None:
        """Reap the workers that exited and start waiting runs into the free slots."""
        for run_id, proc in list(self.running.items()):
            code = proc.poll()
            if code is not None:
                self.exit_codes[run_id] = code
                del self.running[run_id]
        while self.waiting and len(self.running) < self.jobs:
            run_id = self.waiting.pop(0)
            self.running[run_id] = self._spawn(run_id)

    def wait(self, poll_s: float = 0.2, on_tick: Callable[[], None] | None = None) -> None:
        """Tick until every run is done, calling ``on_tick`` after each round."""
        while not self.done:
            self.tick()
            if on_tick is not None:
                on_tick()
            if not self.done:
                time.sleep(poll_s)

    def interrupt(self, grace_s: float = 30.0) -> None:
        """Start nothing more; ask the running workers to stop (SIGTERM: each records its run
        as interrupted) and wait for them, killing those that do not stop in time."""
        self.waiting.clear()
        for proc in self.running.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        for run_id, proc in list(self.running.items()):
            try:
                code = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            self.exit_codes[run_id] = code
            del self.running[run_id]

    def _spawn(self, run_id: str) -> subprocess.Popen[bytes]:
        log: int = subprocess.DEVNULL
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            log = os.open(self.log_dir / f"{run_id}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            return subprocess.Popen(
                list(self.argv(run_id)),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, **self.env},
                start_new_session=True,  # Ctrl-C reaches the batch, which stops them in order
                preexec_fn=die_with_parent(),
            )
        finally:
            if log != subprocess.DEVNULL:
                os.close(log)
