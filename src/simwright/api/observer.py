"""An observer that writes a run's progress into the store as events.

A run executed apart from its client (a service worker) tells about itself only
through the store: step transitions and engine progress become events with ordered
ids, which the service streams (Server-Sent Events) and a client resumes after the
last id it saw.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from simwright.store.records import EventRecord
from simwright.store.store import Store


class StoreObserver:
    """Records ``step_started``/``step_finished`` and throttled ``progress`` events."""

    def __init__(
        self,
        store: Store,
        run_id: str,
        *,
        min_interval_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.run_id = run_id
        self.min_interval_s = min_interval_s
        self.clock = clock
        self._last = -float("inf")
        self._step = ""

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        """Record that a step attempt started."""
        self._step = f"{seq}-{name}"
        payload = json.dumps({"seq": seq, "step": name, "attempt": attempt})
        message = f"step {seq} {name}" + (f" (attempt {attempt})" if attempt > 1 else "")
        self.store.add_event(run_id, EventRecord("step_started", message, payload))
        self._last = -float("inf")

    def step_progress(self, fraction: float | None, message: str) -> None:
        """Record progress of the running step, at most once per ``min_interval_s``."""
        now = self.clock()
        if now - self._last < self.min_interval_s and (fraction is None or fraction < 1.0):
            return
        self._last = now
        payload = json.dumps({"step": self._step, "fraction": fraction})
        self.store.add_event(self.run_id, EventRecord("progress", message, payload))

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        """Record that a step attempt ended, with its status and wall time."""
        payload = json.dumps({"seq": seq, "step": name, "status": status, "wall_s": wall_s})
        message = f"step {seq} {name} {status} ({wall_s:.2f} s)"
        self.store.add_event(run_id, EventRecord("step_finished", message, payload))
