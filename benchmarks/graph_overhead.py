"""Per-transition overhead of the typed graph on SQLite: record + hash + transition.

A trivial step (it only returns its successor) is run N times through the real
Runner and Store; the same chain is also run as plain method calls in the same
process. The difference per step is simwright's bookkeeping per transition:
two transactions (begin, finish), hashing and encoding the step, creating the
step's working directory, and the edge check.

    python benchmarks/graph_overhead.py [--steps 500]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.settings import Settings
from simwright.store import Store


@dataclass(frozen=True)
class Tick(Step):
    """Count down to zero."""

    left: int

    def run(self, ctx: RunContext) -> Tick | Done[int]:
        return Done(0) if self.left <= 1 else Tick(self.left - 1)


GRAPH = Graph.build("ticks", [Tick])


def bare(n: int) -> float:
    start = time.perf_counter()
    step: Tick | Done[int] = Tick(n)
    while isinstance(step, Tick):
        step = step.run(None)  # type: ignore[arg-type]
    return time.perf_counter() - start


def recorded(n: int, home: Path) -> float:
    settings = Settings(home=home)
    store = Store.at(home / "simwright.db")
    runner = Runner(store, settings)
    start = time.perf_counter()
    out = runner.start(GRAPH, Tick(n), protocol="ticks")
    elapsed = time.perf_counter() - start
    assert out.status == "completed" and len(store.steps(out.run_id)) == n
    store.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        recorded(20, Path(tmp) / "warm")  # import and migration costs out of the measurement
        t_rec = recorded(args.steps, Path(tmp) / "bench")
    t_bare = bare(args.steps)
    per_ms = 1000 * (t_rec - t_bare) / args.steps
    print(
        json.dumps(
            {
                "steps": args.steps,
                "recorded_s": round(t_rec, 3),
                "bare_s": round(t_bare, 6),
                "overhead_per_transition_ms": round(per_ms, 3),
                "target_ms": 5.0,
                "meets_target": per_ms < 5.0,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
