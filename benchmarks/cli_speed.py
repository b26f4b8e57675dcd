"""How quickly the quick commands answer: wall time of ``simwright <command>`` as a subprocess.

A scratch home is prepared first (one completed ``lattice_constant`` run with EMT,
which also enters the episodic memory, and the protocol catalogue written once).
Then each command runs ``--repeat`` times as ``python -m simwright ...`` with stdout
discarded; the median and the fastest wall time and the median CPU time (user +
system, steadier than wall time on a shared machine) are reported, in seconds. The
commands are what a person types between runs: ``version``, ``protocols``,
``runs``, ``show``, ``plan`` and ``memory search``.

The commands run as Python normally runs them: with the bytecode cache
(``__pycache__``) written on the first run and read afterwards. A set
``PYTHONDONTWRITEBYTECODE`` (some sandboxes and containers set it) is removed from the
commands' environment, and each command runs once unmeasured before its repeats, so
the figures do not include compiling simwright's ~500 modules from source on every call.

``--against SRC`` measures a second source tree too (e.g. ``/work/main/src``, an older
simwright), alternating the two run by run so that the load of a shared machine
weighs on both alike.

    python benchmarks/cli_speed.py [--repeat 7] [--against OTHER/src] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAN_REQUEST = "lattice constant of fcc Cu with EMT"


def simwright(home: Path, *args: str, src: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m simwright ARGS`` with ``home`` as its home (``src`` first on the path)."""
    env = dict(os.environ, SIMWRIGHT_HOME=str(home))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure with the bytecode cache, as users run
    if src is not None:
        env["PYTHONPATH"] = src
    return subprocess.run(
        [sys.executable, "-m", "simwright", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def prepare(home: Path, src: str | None) -> str:
    """A completed run (remembered) and a written protocol catalogue; returns the run id."""
    done = simwright(home, "run", PLAN_REQUEST, "--json", src=src)
    if done.returncode != 0:
        raise SystemExit(f"preparing the home failed:\n{done.stderr[-2000:]}")
    simwright(home, "protocols", src=src)
    simwright(home, "memory", "add-run", json.loads(done.stdout)["run_id"], src=src)
    return str(json.loads(done.stdout)["run_id"])


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(home: Path, args: list[str], src: str | None) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of the command (exit code 0).

    The CPU time is what the command itself consumed: on a shared machine it varies
    far less with the other load than the wall time does.
    """
    cpu0, start = _children_cpu_s(), time.perf_counter()
    proc = simwright(home, *args, src=src)
    wall, cpu = time.perf_counter() - start, _children_cpu_s() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"simwright {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return wall, cpu


def commands(run_id: str) -> dict[str, list[str]]:
    """The measured commands by name."""
    return {
        "version": ["version"],
        "protocols": ["protocols"],
        "runs": ["runs"],
        "show RUN": ["show", run_id],
        "plan REQUEST": ["plan", PLAN_REQUEST],
        "memory search": ["memory", "search", "copper lattice constant"],
    }


def main() -> None:
    """Measure and print a Markdown table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--against", help="another simwright source tree to measure too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees: dict[str, str | None] = {"this": None}
    if args.against:
        trees["against"] = args.against
    times: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
    cpus: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
    with tempfile.TemporaryDirectory() as tmp:
        homes = {t: Path(tmp) / t for t in trees}
        ids = {t: prepare(homes[t], src) for t, src in trees.items()}
        for name in commands(""):
            for tree, src in trees.items():  # warm-up: writes the bytecode cache
                simwright(homes[tree], *commands(ids[tree])[name], src=src)
            for _ in range(args.repeat):
                for tree, src in trees.items():
                    argv = commands(ids[tree])[name]
                    wall, cpu = timed(homes[tree], argv, src)
                    times[tree].setdefault(name, []).append(wall)
                    cpus[tree].setdefault(name, []).append(cpu)
    rows = {
        tree: {
            n: {
                "median_s": statistics.median(t),
                "min_s": min(t),
                "cpu_median_s": statistics.median(cpus[tree][n]),
            }
            for n, t in per.items()
        }
        for tree, per in times.items()
    }
    if args.json:
        print(json.dumps({"repeat": args.repeat, "against": args.against, "rows": rows}, indent=2))
        return
    other = " | against: median s | against: CPU s | CPU ratio" if args.against else ""
    print(f"| command | median s | fastest s | CPU s{other} |  (n = {args.repeat})")
    print("|---|---|---|---|" + ("---|---|---|" if args.against else ""))
    for name, r in rows["this"].items():
        extra = ""
        if args.against:
            a = rows["against"][name]
            ratio = r["cpu_median_s"] / a["cpu_median_s"]
            extra = f" | {a['median_s']:.2f} | {a['cpu_median_s']:.2f} | {ratio:.2f}"
        print(
            f"| `simwright {name}` | {r['median_s']:.2f} | {r['min_s']:.2f} | "
            f"{r['cpu_median_s']:.2f}{extra} |"
        )


if __name__ == "__main__":
    main()
