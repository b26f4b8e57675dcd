"""The worker pool: queued runs executed by a bounded number of worker processes.

A thread of the service claims queued runs from the store's queue and starts one
worker process per run (the command line is injected: ``simwright worker RUN_ID``),
at most ``size`` at a time, so a slow run never blocks the API. Workers die with the
service (parent-death signal); the queue stays in the store, and a service started
again re-queues the runs its dead workers held, which resume from their last step.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simwright.lifetime import die_with_parent
from simwright.store.queue import RunQueue

WorkerArgv = Callable[[str, str | None], Sequence[str]]
"""The command line of the worker executing a run (run id, optional answer)."""


@dataclass
class WorkerPool:
    """Starts, watches and stops worker processes for the queue's runs."""

    queue: RunQueue
    argv: WorkerArgv
    size: int = 2
    poll_s: float = 0.2
    """How often finished workers are looked for (``poll()`` of each: no query)."""
    check_s: float = 1.0
    """How often the queue is read when nothing woke the pool (a cancellation or a run
    queued by another process); :meth:`wake` makes it read at once."""
    log_dir: Path | None = None
    """Where each worker's output goes (``<run_id>.log``); None discards it."""
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _wake: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _signalled: set[str] = field(default_factory=set)
    _draining: bool = False

    def start(self) -> list[str]:
        """Re-queue the runs of dead workers, then start dispatching; returns those ids."""
        requeued = self.queue.requeue_orphans()
        self._thread = threading.Thread(target=self._loop, name="simwright-pool", daemon=True)
        self._thread.start()
        return requeued

    def stop(self, grace_s: float = 10.0) -> None:
        """Stop dispatching and interrupt the workers; their runs stay ``running`` in the
        queue, so the next start of the service resumes them.

        The workers are stopped before the dispatching thread ends: they were started
        from it, and the parent-death signal follows the thread that started them.
        """
        self._draining = True
        live = [p for p in self.procs.values() if p.poll() is None]
        for proc in live:
            proc.send_signal(signal.SIGTERM)  # the worker records the run as interrupted
        for proc in live:
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=grace_s)

    def wake(self) -> None:
        """Dispatch now rather than at the next poll (a run was just queued)."""
        self._wake.set()

    def tick(self) -> None:
        """One round: reap finished workers, pass on cancellations, start queued runs."""
        self._reap()
        self._cancel()
        self._launch()

    def _loop(self) -> None:
        """Reap every ``poll_s``; read the queue when woken, when a worker ended, and
        every ``check_s`` (the queries cost the API's requests CPU time)."""
        checked = 0.0
        while not self._stop.is_set():
            woken = self._wake.wait(self.poll_s)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                reaped = self._reap()
                if woken or reaped or time.monotonic() - checked >= self.check_s:
                    checked = time.monotonic()
                    self._cancel()
                    self._launch()
            except Exception:  # the store may be busy for a moment: try again next round
                continue

    def _reap(self) -> bool:
        """Finish the queue entries of workers that ended; True when one did."""
        reaped = False
        for run_id, proc in list(self.procs.items()):
            code = proc.poll()
            if code is None:
                continue
            if self._draining:
                continue  # stopped by the service: its run resumes at the next start
            reaped = True
            del self.procs[run_id]
            self._signalled.discard(run_id)
            entry = self.queue.get(run_id)
            if entry is not None and entry.state == "cancelling":
                self.queue.finish(run_id, "cancelled", "cancelled through the service")
            elif entry is not None and entry.state == "running":
                self.queue.finish(run_id, "done", f"worker exited with code {code}")
        return reaped

    def _cancel(self) -> None:
        for entry in self.queue.entries(("cancelling",)):
            proc = self.procs.get(entry.run_id)
            if proc is not None and entry.run_id not in self._signalled:
                proc.send_signal(signal.SIGTERM)  # the worker marks the run interrupted
                self._signalled.add(entry.run_id)

    def _launch(self) -> None:
        free = self.size - len(self.procs)
        if free <= 0 or self._draining:
            return
        for entry in self.queue.entries(("queued",))[:free]:
            if not self.queue.claim(entry.run_id):
                continue
            proc = self._spawn(entry.run_id, entry.choose)
            self.procs[entry.run_id] = proc
            self.queue.set_worker(entry.run_id, proc.pid)

    def _spawn(self, run_id: str, choose: str | None) -> subprocess.Popen[bytes]:
        log = subprocess.DEVNULL
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            log = os.open(self.log_dir / f"{run_id}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            return subprocess.Popen(
                list(self.argv(run_id, choose)),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),  # dies with the service, even by SIGKILL
            )
        finally:
            if log != subprocess.DEVNULL:
                os.close(log)
