"""Progress display of running steps for the command line.

On a terminal each engine call of the running step gets a live bar with its own
speed (LAMMPS: steps/s and ns/day; pw.x: SCF iteration and energy change), the time
elapsed and the time left; when the step ends its bars give way to one line. When the
output is not a terminal (CI, a pipe, a log file) plain lines are printed instead: one
when an engine call starts, then at most one every ``plain_every_s`` seconds.

A step reports progress as ``(fraction, message)``; a new engine call is recognised
when the fraction goes back. A report without a fraction keeps the bar where it is and
changes only its note (pw.x inside an equation-of-state scan: the bar counts volumes,
the note shows the SCF iteration).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def clock_text(seconds: float) -> str:
    """``1:02:03`` or ``2:03`` for a duration in seconds."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@dataclass
class EngineCallClock:
    """Elapsed and remaining time of one engine call, from its reported fractions."""

    started: float
    first: tuple[float, float] | None = None  # (time, fraction) of the first known fraction
    fraction: float | None = None

    def update(self, now: float, fraction: float | None) -> None:
        """Take a new report (one without a fraction keeps the last one)."""
        if fraction is None:
            return
        if self.first is None:
            self.first = (now, fraction)
        self.fraction = fraction

    def remaining(self, now: float) -> float | None:
        """Seconds left at the pace seen so far (None before the pace is known)."""
        if self.first is None or self.fraction is None:
            return None
        t0, f0 = self.first
        if self.fraction <= f0 or now <= t0:
            return None
        return (now - t0) * (1.0 - self.fraction) / (self.fraction - f0)


class RichObserver:
    """Shows the running step's engine calls as bars (or plain lines) and one line per step."""

    def __init__(
        self,
        console: Console,
        clock: Callable[[], float] = time.monotonic,
        plain_every_s: float = 10.0,
    ) -> None:
        self.console = console
        self.live = console.is_terminal
        self.clock = clock
        self.plain_every_s = plain_every_s
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._call: EngineCallClock | None = None
        self._label = ""
        self._note = ""
        self._last_line = 0.0

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        """Start the step's display."""
        self._label = f"[{seq}] {name}" + (f" (attempt {attempt})" if attempt > 1 else "")
        self._call, self._note = None, ""
        if not self.live:
            self.console.print(f"{self._label} ...", highlight=False, markup=False)
            return
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[note]}", markup=False),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self._progress.start()

    def step_progress(self, fraction: float | None, message: str) -> None:
        """Update the current engine call's bar, or start a new one."""
        now = self.clock()
        previous = self._call.fraction if self._call is not None else None
        new_call = self._call is None or (
            previous is not None and fraction is not None and fraction < previous
        )
        if new_call:
            self._start_call(now)
        assert self._call is not None
        self._call.update(now, fraction)
        self._note = message
        if self._progress is not None and self._task is not None:
            if fraction is None:
                self._progress.update(self._task, note=message)
            else:
                self._progress.update(self._task, total=1.0, completed=fraction, note=message)
        elif not self.live and (new_call or now - self._last_line >= self.plain_every_s):
            self._last_line = now
            self.console.print(f"    {self.plain_line(now)}", highlight=False, markup=False)

    def plain_line(self, now: float) -> str:
        """``19 % step 9450/50000 · 412 steps/s · 0:23 elapsed · 1:40 left``."""
        call = self._call
        if call is None:
            return self._note
        parts = [f"{100 * call.fraction:.0f} % {self._note}" if call.fraction else self._note]
        parts.append(f"{clock_text(now - call.started)} elapsed")
        left = call.remaining(now)
        if left is not None:
            parts.append(f"{clock_text(left)} left")
        return " · ".join(p for p in parts if p)

    def _start_call(self, now: float) -> None:
        self._call = EngineCallClock(started=now)
        if self._progress is None:
            return
        if self._task is not None:  # the previous call stays on screen, finished
            task = self._progress.tasks[-1]
            self._progress.update(self._task, total=task.total or 1.0, completed=task.total or 1.0)
            self._progress.stop_task(self._task)
        self._task = self._progress.add_task(self._label, total=None, note="")

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        """Close the step's display with one line: status, wall time and the last report."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        self._task = None
        mark = {"completed": "[green]✓[/]", "failed": "[red]✗[/]"}.get(status, "[yellow]•[/]")
        last = f" · {self._note}" if self._note and status == "completed" else ""
        self.console.print(
            f"{mark} {_escape(self._label)} {status} "
            f"({f'{wall_s:.1f} s' if wall_s < 60 else clock_text(wall_s)})"
            f"{_escape(last)}",
            highlight=False,
        )


def _escape(text: str) -> str:

    return escape(text)


class TerminalGone:
    """Wraps a display observer so that a terminal that went away (SIGHUP: writes fail
    with an I/O error) stops the display, never the run: the run goes on to record its
    interruption and exit with its own code."""

    def __init__(self, inner: RichObserver) -> None:
        self.inner = inner
        self.gone = False

    def _call(self, method: str, *args: Any) -> None:
        if self.gone:
            return
        try:
            getattr(self.inner, method)(*args)
        except OSError:
            self.gone = True

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        """Forward to the display while the terminal is there."""
        self._call("step_started", run_id, seq, name, attempt)

    def step_progress(self, fraction: float | None, message: str) -> None:
        """Forward to the display while the terminal is there."""
        self._call("step_progress", fraction, message)

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        """Forward to the display while the terminal is there."""
        self._call("step_finished", run_id, seq, name, status, wall_s)
