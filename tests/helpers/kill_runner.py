"""Run the lattice_constant protocol and kill this very process at a chosen moment.

Usage: python kill_runner.py HOME MODE, MODE =

* ``between``: SIGKILL right after step 1 is committed, before step 2 starts;
* ``during``: SIGKILL in the middle of the volume scan (step 2);
* ``after-scan``: SIGKILL right after step 2 (the scan) is committed;
* ``created``: SIGKILL right after the run row is written, before any step;
* ``term-between``: SIGTERM right after step 1 is committed, with the command line's
  signal handlers installed (the process then records the interruption and exits 0).

Prints the run id first, so the test can resume it.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from simwright.cli.signals import interrupt_on_signals
from simwright.graph import Runner
from simwright.protocols.solids.lattice_constant import PROTOCOL
from simwright.settings import settings_at
from simwright.store import Store
from simwright.store.models import RunRow


class Killer:
    """An observer that kills (or terminates) the process at the requested moment."""

    def __init__(self, mode: str) -> None:
        self.mode = mode

    def step_started(self, run_id: str, seq: int, name: str, attempt: int) -> None:
        print(run_id, flush=True)

    def step_progress(self, fraction: float | None, message: str) -> None:
        if self.mode == "during" and fraction is not None and fraction >= 0.4:
            os.kill(os.getpid(), signal.SIGKILL)

    def step_finished(self, run_id: str, seq: int, name: str, status: str, wall_s: float) -> None:
        if self.mode == "between" and seq == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        if self.mode == "after-scan" and seq == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        if self.mode == "term-between" and seq == 1:
            os.kill(os.getpid(), signal.SIGTERM)


class KillAfterCreate(Store):
    """A real store whose process is killed as soon as the run row is committed."""

    def create_run(self, run_id: str, protocol: str, **kw: Any) -> RunRow:
        row = super().create_run(run_id, protocol, **kw)
        print(run_id, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        return row


def main() -> None:
    home, mode = Path(sys.argv[1]), sys.argv[2]
    settings = settings_at(home)  # its config.toml allows helpers.slowcalc (see the test)
    params = PROTOCOL.validate(
        {
            "element": "Cu",
            "lattice": "fcc",
            "n_points": 9,
            "calculator": "helpers.slowcalc:SlowEMT",
            "calculator_kwargs": {"delay_s": 0.05},
        }
    )
    home.mkdir(parents=True, exist_ok=True)
    store_type = KillAfterCreate if mode == "created" else Store
    store = store_type.at(home / "simwright.db")
    interrupt_on_signals()
    runner = Runner(store, settings, observer=Killer(mode))
    outcome = runner.start(
        PROTOCOL.graph,
        PROTOCOL.first_step(params),
        protocol=PROTOCOL.name,
        params=params,
        request="kill test",
    )
    print(outcome.status, flush=True)


if __name__ == "__main__":
    main()
