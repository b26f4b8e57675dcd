"""Where the CPU of one campaign cycle goes: the floor behind ``scale.py --only bookkeeping``.

Runs the synthetic campaign (``benchmarks/campaign.py``'s spec, ``--systems`` systems
× 5 conditions) through the real ``CampaignRunner`` on a fresh SQLite store twice:
once plain, for CPU per cycle (``time.process_time``), and once under ``cProfile``
(also on process time), for each component's share of a cycle. The profiler slows
Python code more than C code, so read the shares as ratios and the plain run for
the absolute figure; in the plain run the engine's own CPU (``run_segment``, which
stands in for a real engine) is timed apart, so the bookkeeping's cost per cycle is
stated without it. Beside them, the same work done without the framework: a raw
``sqlite3`` transaction of the same shape (insert + compare-and-set update + commit)
and a bare folder + file + two SHA-256 — what a cycle could cost at the floor.

    python benchmarks/cycle_profile.py --systems 8
    python benchmarks/cycle_profile.py --systems 8 --plain   # no profiler run, no floors

``TMPDIR`` decides where the campaign's folders and store lie (the file system's cost
is part of a cycle: state it).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from simwright.campaign import CampaignRunner, SyntheticEngine, parse_spec
from simwright.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from campaign import synthetic_spec  # a sibling benchmark module

COMPONENTS = {
    "store transaction (CampaignStore.add_segment)": ("repository.py", "add_segment"),
    "synthetic engine (run_segment)": ("synthetic.py", "run_segment"),
    "rules and window statistics (StateRunner._judge)": ("cycle.py", "_judge"),
    "provenance re-hash of the last restart": ("archive.py", "check_segment_restart"),
    "segment folder (SegmentRunner._attempt)": ("segments.py", "_attempt"),
    "hashing files (sha256_file, all callers)": ("hashing.py", "sha256_file"),
}


class TimedEngine:
    """The synthetic engine, with the CPU seconds spent inside ``run_segment`` summed."""

    def __init__(self) -> None:
        self.inner = SyntheticEngine()
        self.name = self.inner.name
        self.cpu_s = 0.0

    def observables(self) -> Mapping[str, str]:
        """The synthetic engine's observables."""
        return self.inner.observables()

    def check_spec(self, spec: Any) -> list[Any]:
        """The synthetic engine's check."""
        return self.inner.check_spec(spec)

    def run_segment(self, request: Any) -> Any:
        """One synthetic segment, timed."""
        c0 = time.process_time()
        try:
            return self.inner.run_segment(request)
        finally:
            self.cpu_s += time.process_time() - c0


def _campaign(tmp: Path, systems: int, engine: Any) -> tuple[CampaignRunner, str, Store]:
    spec = parse_spec(synthetic_spec(systems, 5, 200), "profile", engine)
    store = Store(f"sqlite:///{tmp / 'store.db'}")
    runner = CampaignRunner(store, engine, root=tmp / "c")
    return runner, runner.create(spec), store


def _run(systems: int, profile: cProfile.Profile | None) -> tuple[int, float, float]:
    """Cycles, CPU seconds of the whole run, CPU seconds inside the engine."""
    engine = TimedEngine()
    with tempfile.TemporaryDirectory() as tmp:
        runner, campaign, store = _campaign(Path(tmp), systems, engine)
        c0 = time.process_time()
        if profile is not None:
            profile.enable()
        runner.run(campaign)
        if profile is not None:
            profile.disable()
        cpu = time.process_time() - c0
        cycles = len(runner.cstore.campaign_segments(campaign))
        store.close()
    return cycles, cpu, engine.cpu_s


def _shares(profile: cProfile.Profile) -> dict[str, float]:
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.values())
    shares = {}
    for label, (module, function) in COMPONENTS.items():
        cum = sum(v[3] for (f, _l, fn), v in stats.items() if f.endswith(module) and fn == function)
        shares[label] = round(cum / total, 3)
    return shares


def _per_call_ms(fn: Callable[[int], None], n: int = 2000) -> float:
    c0 = time.process_time()
    for i in range(n):
        fn(i)
    return round(1e3 * (time.process_time() - c0) / n, 4)


def floors(tmp: Path) -> dict[str, float]:
    """CPU ms of a cycle's store and file work done directly, without the framework."""
    db = sqlite3.connect(tmp / "floor.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE seg (id INTEGER PRIMARY KEY, chain TEXT, seq INT, series TEXT)")
    db.execute("CREATE TABLE st (id INTEGER PRIMARY KEY, status TEXT, cycles INT)")
    db.execute("INSERT INTO st VALUES (1, 'running', 0)")
    series = json.dumps({"local_steps": list(range(0, 200, 10)), "values": list(range(20))})

    def transaction(i: int) -> None:
        db.execute("BEGIN")
        db.execute("INSERT INTO seg (chain, seq, series) VALUES (?, ?, ?)", ("c", i, series))
        db.execute("UPDATE st SET cycles = ? WHERE id = 1 AND status = 'running'", (i,))
        db.execute("COMMIT")

    def files(i: int) -> None:
        folder = tmp / f"seg-{i:05d}"
        folder.mkdir()
        restart = folder / "restart.json"
        restart.write_text(series)
        for _ in range(2):
            hashlib.sha256(restart.read_bytes()).hexdigest()

    out = {"raw sqlite3 transaction": _per_call_ms(transaction)}
    out["folder + restart + 2 × sha256"] = _per_call_ms(files)
    db.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--systems", type=int, default=8, help="× 5 conditions, ≈ 110 cycles each")
    parser.add_argument("--plain", action="store_true", help="only the plain run")
    args = parser.parse_args()
    cycles, cpu, engine_cpu = _run(args.systems, None)
    result: dict[str, Any] = {
        "cycles": cycles,
        "cpu_ms_per_cycle": round(1e3 * cpu / cycles, 3),
        "cycles_per_cpu_s": round(cycles / cpu, 1),
        "engine_cpu_ms_per_cycle": round(1e3 * engine_cpu / cycles, 3),
        "bookkeeping_cpu_ms_per_cycle": round(1e3 * (cpu - engine_cpu) / cycles, 3),
        "engine_share": round(engine_cpu / cpu, 3),
    }
    if not args.plain:
        profile = cProfile.Profile(time.process_time)
        _run(args.systems, profile)
        result["shares_under_profiler"] = _shares(profile)
        with tempfile.TemporaryDirectory() as tmp:
            result["floor_ms"] = floors(Path(tmp))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
