"""How quickly the quick commands answer: wall time of ``simwright <command>`` as a subprocess.

A scratch home is prepared first (one completed ``lattice_constant`` run with EMT,
which also enters the episodic memory, and the protocol catalogue written once).
Then each command runs ``--repeat`` times as ``python -m simwright ...`` with stdout
discarded; the median and the fastest wall time are reported, in seconds. The
commands are what a person types between runs: ``version``, ``protocols``,
``runs``, ``show``, ``plan`` and ``memory search``.

    python benchmarks/cli_speed.py [--repeat 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAN_REQUEST = "lattice constant of fcc Cu with EMT"


def simwright(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m simwright ARGS`` with ``home`` as its home."""
    env = dict(os.environ, SIMWRIGHT_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "simwright", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def prepare(home: Path) -> str:
    """A completed run (remembered) and a written protocol catalogue; returns the run id."""
    done = simwright(home, "run", PLAN_REQUEST, "--json")
    if done.returncode != 0:
        raise SystemExit(f"preparing the home failed:\n{done.stderr[-2000:]}")
    simwright(home, "protocols")
    return str(json.loads(done.stdout)["run_id"])


def wall_times(home: Path, args: list[str], repeat: int) -> list[float]:
    """Wall time of each of ``repeat`` runs of the command (the exit code must be 0)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = simwright(home, *args)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"simwright {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return times


def main() -> None:
    """Measure and print a Markdown table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        run_id = prepare(home)
        commands = {
            "version": ["version"],
            "protocols": ["protocols"],
            "runs": ["runs"],
            "show RUN": ["show", run_id],
            "plan REQUEST": ["plan", PLAN_REQUEST],
            "memory search": ["memory", "search", "copper lattice constant"],
        }
        rows = {}
        for name, argv in commands.items():
            times = wall_times(home, argv, args.repeat)
            rows[name] = {"median_s": statistics.median(times), "min_s": min(times)}
    if args.json:
        print(json.dumps({"repeat": args.repeat, "commands": rows}, indent=2))
        return
    print(f"| command | median s | fastest s |  (n = {args.repeat})")
    print("|---|---|---|")
    for name, r in rows.items():
        print(f"| `simwright {name}` | {r['median_s']:.2f} | {r['min_s']:.2f} |")


if __name__ == "__main__":
    main()
