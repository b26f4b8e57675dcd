"""The command line's progress display: bars on a terminal, plain lines elsewhere."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from simwright.cli.progress import EngineCallClock, RichObserver, clock_text


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _plain() -> tuple[RichObserver, io.StringIO, Clock]:
    buffer, clock = io.StringIO(), Clock()
    console = Console(file=buffer, force_terminal=False, width=200)
    return RichObserver(console, clock, plain_every_s=10.0), buffer, clock


def test_plain_lines_carry_speed_elapsed_and_time_left() -> None:
    observer, buffer, clock = _plain()
    observer.step_started("r", 5, "Production", 1)
    observer.step_progress(None, "LAMMPS nvt, 50000 steps")
    clock.now += 2
    observer.step_progress(0.1, "step 5000/50000 · 412 steps/s")  # too soon for a line
    clock.now += 10
    observer.step_progress(0.2, "step 10000/50000 · 415 steps/s · 3.1 ns/day")
    clock.now += 3
    observer.step_finished("r", 5, "Production", "completed", 15.0)
    lines = buffer.getvalue().splitlines()
    assert lines == [
        "[5] Production ...",
        "    LAMMPS nvt, 50000 steps · 0:00 elapsed",
        "    20 % step 10000/50000 · 415 steps/s · 3.1 ns/day · 0:12 elapsed · 1:20 left",
        "✓ [5] Production completed (15.0 s) · step 10000/50000 · 415 steps/s · 3.1 ns/day",
    ]


def test_a_second_engine_call_gets_its_own_clock() -> None:
    observer, buffer, clock = _plain()
    observer.step_started("r", 2, "Equilibrate", 1)
    observer.step_progress(0.5, "step 500/1000")
    clock.now += 30
    observer.step_progress(0.9, "step 900/1000")
    observer.step_progress(None, "LAMMPS npt, 2000 steps")  # the bar stays at 90 %
    assert "90 % LAMMPS npt, 2000 steps" in observer.plain_line(clock.now)
    clock.now += 5
    observer.step_progress(0.25, "step 500/2000")  # the fraction went back: a new call
    observer.step_finished("r", 2, "Equilibrate", "failed", 80.0)
    lines = buffer.getvalue().splitlines()
    assert lines[-2] == "    25 % step 500/2000 · 0:00 elapsed"
    assert lines[-1] == "✗ [2] Equilibrate failed (1:20)"


def test_reports_without_a_fraction_keep_the_bar_and_change_the_note() -> None:
    observer, buffer, clock = _plain()
    observer.step_started("r", 3, "ScanVolumes", 1)
    observer.step_progress(0.4, "volume 3/5")
    clock.now += 20
    observer.step_progress(None, "SCF iteration 4 · ΔE -2e-05 Ry")
    assert observer.plain_line(clock.now).startswith("40 % SCF iteration 4 · ΔE -2e-05 Ry")
    assert buffer.getvalue().splitlines()[-1].startswith("    40 % SCF iteration 4")


def test_a_terminal_gets_bars_and_one_line_per_step() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120)
    observer = RichObserver(console, Clock())
    observer.step_started("r", 1, "Minimize", 1)
    observer.step_progress(0.5, "step 50/100 · 1e+03 steps/s")
    observer.step_finished("r", 1, "Minimize", "completed", 0.5)
    assert "[1] Minimize completed (0.5 s) · step 50/100" in buffer.getvalue()


def test_time_left_follows_the_pace_since_the_first_report() -> None:
    call = EngineCallClock(started=0.0)
    assert call.remaining(5.0) is None
    call.update(10.0, 0.1)
    assert call.remaining(10.0) is None  # no pace yet
    call.update(40.0, 0.4)
    assert call.remaining(40.0) == pytest.approx(60.0)
    assert clock_text(3725) == "1:02:05" and clock_text(61) == "1:01"
