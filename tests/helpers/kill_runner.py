"""Run the lattice_constant protocol and SIGKILL this very process at a chosen moment.

Usage: python kill_runner.py HOME MODE, MODE = "between" (right after step 1 is
committed, before step 2 starts) or "during" (in the middle of the volume scan).
Prints the run id first, so the test can resume it.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from simwright.graph import Runner
from simwright.protocols.lattice_constant import PROTOCOL
from simwright.settings import settings_at
from simwright.store import Store


class Killer:
    """An observer that kills the process at the requested moment."""

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
    runner = Runner(Store.at(home / "simwright.db"), settings, observer=Killer(mode))
    runner.start(
        PROTOCOL.graph,
        PROTOCOL.first_step(params),
        protocol=PROTOCOL.name,
        params=params,
        request="kill test",
    )


if __name__ == "__main__":
    main()
