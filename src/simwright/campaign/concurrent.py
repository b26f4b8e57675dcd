"""Advancing the systems of a campaign side by side, in threads of one process.

The engines run as subprocesses, so threads are enough to keep several busy; the
campaign lock stays with the one process, and every record is still one
transaction with a compare-and-set on its state. Threads are daemons: on Ctrl-C the
main thread sets ``stop`` and leaves at once (a segment cut short leaves no record,
as after a kill, and its engine dies with the process).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence

JOIN_POLL_S = 0.2
"""How often the main thread wakes while waiting (so Ctrl-C is taken at once)."""


def advance_side_by_side(
    systems: Sequence[str],
    jobs: int,
    advance: Callable[[str], None],
    stop: threading.Event,
) -> None:
    """Call ``advance(system)`` for every system, ``jobs`` at a time, in threads.

    The first error stops the others at their next boundary (``stop``) and is raised
    once they have returned; a ``KeyboardInterrupt`` sets ``stop`` and is raised at once.
    """
    todo: queue.SimpleQueue[str] = queue.SimpleQueue()
    for system in systems:
        todo.put(system)
    errors: list[BaseException] = []

    def work() -> None:
        while not stop.is_set():
            try:
                system = todo.get_nowait()
            except queue.Empty:
                return
            try:
                advance(system)
            except BaseException as exc:  # handed to the main thread
                errors.append(exc)
                stop.set()
                return

    threads = [
        threading.Thread(target=work, name=f"campaign-system-{i}", daemon=True) for i in range(jobs)
    ]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(JOIN_POLL_S)
    except KeyboardInterrupt:
        stop.set()
        raise
    if errors:
        raise errors[0]
