"""Observers receive progress of a run (the CLI draws it with Rich; tests can count it)."""

from __future__ import annotations

from typing import Protocol


class RunObserver(Protocol):
    """Callbacks the runner and steps call while a run advances."""

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        """A step attempt started."""
        ...

    def step_progress(self, fraction: float | None, message: str) -> None:
        """The current step reports progress (fraction in [0, 1], or None if unknown)."""
        ...

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        """A step attempt finished with ``status``."""
        ...


class NullObserver:
    """An observer that ignores everything."""

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        """Ignore."""

    def step_progress(self, fraction: float | None, message: str) -> None:
        """Ignore."""

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        """Ignore."""
