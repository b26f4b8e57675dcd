"""Signals at the command-line edge: SIGTERM, SIGHUP and SIGINT all mean "interrupt".

The runner knows one way to be interrupted, :class:`KeyboardInterrupt`: it stops the
running engine (its whole process group), marks the step and the run ``interrupted``
and returns, so ``simwright resume`` continues later. A closed terminal (SIGHUP) or a
``kill`` (SIGTERM) must end the same way as Ctrl-C. Only the first signal interrupts;
those arriving while the run is being recorded as interrupted are ignored, so a
second Ctrl-C cannot break that last transaction (SIGKILL still ends everything).
"""

from __future__ import annotations

import signal
from types import FrameType

INTERRUPTING = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
"""The signals treated like Ctrl-C."""


class InterruptOnSignal:
    """A signal handler raising :class:`KeyboardInterrupt` once, then ignoring repeats."""

    def __init__(self) -> None:
        self.received: list[int] = []

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        """Handle ``signum``: interrupt on the first signal only."""
        self.received.append(signum)
        if len(self.received) == 1:
            raise KeyboardInterrupt(signal.Signals(signum).name)

    def install(self) -> InterruptOnSignal:
        """Handle :data:`INTERRUPTING` with this handler (main thread only); returns self."""
        for signum in INTERRUPTING:
            signal.signal(signum, self)
        return self


def interrupt_on_signals() -> InterruptOnSignal:
    """Install the handler that turns SIGTERM, SIGHUP and SIGINT into one interrupt."""
    return InterruptOnSignal().install()
