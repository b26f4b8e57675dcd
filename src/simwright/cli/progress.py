"""Progress display of running steps for the command line (Rich on a terminal, lines otherwise)."""

from __future__ import annotations

import time

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn


class RichObserver:
    """Shows each step with a spinner, a progress bar when the step reports one, and timings."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = console.is_terminal
        self._progress: Progress | None = None
        self._task: int | None = None
        self._label = ""
        self._last_line = 0.0

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        """Start a progress line for the step."""
        self._label = f"[{seq}] {name}" + (f" (attempt {attempt})" if attempt > 1 else "")
        if not self.live:
            self.console.print(f"{self._label} ...")
            return
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[note]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task(self._label, total=None, note="")

    def step_progress(self, fraction: float | None, message: str) -> None:
        """Update the bar (or print a line at most every 10 s without a terminal)."""
        if self._progress is not None and self._task is not None:
            total = 1.0 if fraction is not None else None
            self._progress.update(self._task, total=total, completed=fraction or 0, note=message)  # type: ignore[arg-type]
        elif not self.live and time.monotonic() - self._last_line > 10:
            self._last_line = time.monotonic()
            pct = f"{100 * fraction:.0f} % " if fraction is not None else ""
            self.console.print(f"    {pct}{message}")

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        """Close the step's line with its status and wall time."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        mark = {"completed": "[green]✓[/]", "failed": "[red]✗[/]"}.get(status, "[yellow]•[/]")
        self.console.print(f"{mark} {self._label} {status} ({wall_s:.1f} s)")
