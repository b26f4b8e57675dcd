"""A one-step graph running a long LAMMPS job, for tests that kill or hang up on it.

Usage: python lammps_runner.py HOME. Installs the command line's signal handlers (SIGTERM,
SIGHUP and SIGINT interrupt the run) and prints the run's final status when it returns.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from simwright.cli.signals import interrupt_on_signals
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.settings import Settings
from simwright.store import Store

SCRIPT = """units lj
lattice fcc 0.8442
region box block 0 6 0 6 0 6
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.0 4928
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
fix 1 all nve
thermo 1000
run {steps}
"""


@dataclass(frozen=True)
class LongLammps(Step):
    """Run an LJ crystal for many steps (long enough to be killed while it runs)."""

    steps: int

    def run(self, ctx: RunContext) -> Done[int]:
        launcher = LammpsLauncher(find_lmp(), omp_threads=1)
        launcher.run(SCRIPT.format(steps=self.steps), ctx.workdir)
        return Done(self.steps)


GRAPH = Graph.build("long_lammps", [LongLammps])


def main() -> None:
    home = Path(sys.argv[1])
    store = Store.at(home / "simwright.db")
    interrupt_on_signals()
    runner = Runner(store, Settings(home=home))
    outcome = runner.start(GRAPH, LongLammps(100_000_000), protocol="long_lammps")
    print(outcome.status, flush=True)


if __name__ == "__main__":
    main()
