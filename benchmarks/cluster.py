"""Submission and collection overhead per engine job through a real one-node Slurm.

Starts the throw-away cluster of the tests (``tests/helpers/slurm.py``: needs root,
``slurm-wlm`` and ``munge``), then runs ``--jobs`` trivial engine calls (``/bin/true``)
three ways, one after another, and reports the wall time per job:

- ``local``: :class:`~simwright.executors.local.LocalExecutor` (the pool, a subprocess);
- ``psij``: PSI/J alone — ``sbatch`` through the job's end seen in ``squeue``;
- ``durable``: what a run uses — the write-ahead journal in a SQLite store, PSI/J, and
  the records of the job's end.

The overhead per job is ``durable`` minus ``local``; PSI/J's queue polling interval
(``--poll``, seconds) bounds how late an end is seen.

    sudo python benchmarks/cluster.py --jobs 10 --poll 0.2
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import slurm
from simwright.engines.base import run_subprocess
from simwright.executors.durable import DurableRunner
from simwright.executors.journal import Journal
from simwright.executors.local import CorePool, LocalExecutor
from simwright.executors.psij_backend import PsijBackend
from simwright.jobs import EngineJob, ExecutorProfile
from simwright.store import Store


def _job(folder: Path) -> EngineJob:
    folder.mkdir(parents=True, exist_ok=True)
    return EngineJob("true", ("/bin/true",), folder, folder / "o", folder / "e")


def _timed(n: int, once: Callable[[int], None]) -> list[float]:
    walls = []
    for i in range(n):
        start = time.perf_counter()
        once(i)
        walls.append(time.perf_counter() - start)
    return walls


def main() -> int:
    """Run the three ways and print one line each (mean, median, max seconds per job)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10)
    parser.add_argument("--poll", type=float, default=0.2)
    args = parser.parse_args()
    reason = slurm.why_unavailable()
    if reason:
        print(f"skipped: {reason}")
        return 2
    root = Path(tempfile.mkdtemp(prefix="simwright-bench-cluster-"))
    profile = ExecutorProfile(kind="slurm", poll_interval_s=args.poll, retries=0)
    with slurm.running_cluster() as cluster:
        os.environ["SLURM_CONF"] = str(cluster.conf)
        store = Store.at(root / "simwright.db")
        store.create_run("bench", "bench", request="", params_json="{}", workdir=str(root),
                         version="0")  # fmt: skip
        step = store.begin_step("bench", seq=1, attempt=1, name="Bench", step_json="{}",
                                inputs_hash="", workdir=str(root))  # fmt: skip
        local = LocalExecutor(CorePool(1))
        raw = PsijBackend(profile, root / "jobs-raw")
        durable = DurableRunner(PsijBackend(profile, root / "jobs"), Journal(store, "bench", step),
                                "bench/001", retries=0)  # fmt: skip

        def psij_once(i: int) -> None:
            job = _job(root / f"raw-{i}")
            raw.wait(job, raw.submit(job, f"bench-raw-{i}"))

        rows = {
            "local": _timed(args.jobs, lambda i: local.run(_job(root / f"local-{i}"))),
            "psij": _timed(args.jobs, psij_once),
            "durable": _timed(
                args.jobs,
                lambda i: run_subprocess("true", ["/bin/true"], root / f"d-{i}", runner=durable),
            ),
        }
        store.close()
    shutil.rmtree(root, ignore_errors=True)
    print(f"{args.jobs} jobs of /bin/true, PSI/J polling every {args.poll} s, one-node Slurm")
    for name, walls in rows.items():
        print(f"{name:8s} mean {statistics.mean(walls):.2f} s  median "
              f"{statistics.median(walls):.2f} s  max {max(walls):.2f} s per job")  # fmt: skip
    overhead = statistics.mean(rows["durable"]) - statistics.mean(rows["local"])
    print(f"overhead per job (durable - local): {overhead:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
