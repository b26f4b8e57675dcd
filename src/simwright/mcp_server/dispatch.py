"""Who executes the runs the MCP server queues: its own worker pool, or a service.

Runs submitted through MCP go to the store's queue, like those of ``simwright serve``.
One dispatcher serves a home at a time (``service.lock``): the MCP server takes the
lock when it is free and starts a :class:`~simwright.service.pool.WorkerPool`;
when a service (or another MCP server) holds it, that one executes the queued runs
and this server only queues them. Each submission tries the lock again, so runs are
never left waiting after the other dispatcher stopped.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from pathlib import Path

from simwright.errors import PolicyError
from simwright.locks import exclusive_lock
from simwright.service.pool import WorkerArgv, WorkerPool
from simwright.store.queue import RunQueue


class Dispatcher:
    """Starts a worker pool for the home's queue when no other dispatcher holds it."""

    def __init__(self, queue: RunQueue, home: Path, argv: WorkerArgv, *, size: int = 2) -> None:
        self.queue = queue
        self.home = home
        self.argv = argv
        self.size = size
        self.pool: WorkerPool | None = None
        self._held = ExitStack()
        self._mutex = threading.Lock()

    @property
    def dispatching(self) -> bool:
        """True when this server executes the queue's runs."""
        return self.pool is not None

    def start(self) -> bool:
        """Take the home's dispatcher lock and start the pool; False when another
        process dispatches."""
        with self._mutex:
            if self.pool is not None:
                return True
            busy = PolicyError("another dispatcher serves this home")
            try:
                self._held.enter_context(
                    exclusive_lock(self.home / "service.lock", busy=lambda: busy)
                )
            except PolicyError:
                return False
            self.pool = WorkerPool(
                self.queue, self.argv, size=self.size, log_dir=self.home / "service" / "logs"
            )
            self.pool.start()
            return True

    def wake(self) -> None:
        """A run was queued or cancelled: dispatch it now (taking the lock if it is free)."""
        if self.start() and self.pool is not None:
            self.pool.wake()

    def stop(self) -> None:
        """Stop the pool (its runs resume at the next start) and release the lock."""
        with self._mutex:
            if self.pool is not None:
                self.pool.stop()
                self.pool = None
            self._held.close()
