"""Campaign bookkeeping throughput and the wall time of the shipped GCMC demo.

Bookkeeping: a campaign of the synthetic engine (instant synthetic observables, a
tiny restart file per segment) runs through the real CampaignRunner on SQLite.
Each cycle is the whole routine path: hash-check the start restart, make the
segment directory, run the engine, hash its restart, judge the window
(CV + trend), commit the segment with the decision, and now and then archive a
state. The same number of bare engine calls is timed apart, so the difference
is simwright's cost per cycle.

Demo: ``examples/gcmc_desorption/campaign.yaml`` with real LAMMPS (one process,
one thread per segment), from empty pores to the report with plots.

    python benchmarks/campaign.py                      # bookkeeping only
    python benchmarks/campaign.py --demo               # and the GCMC demo
    python benchmarks/campaign.py --json results.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from simwright.campaign import CampaignRunner, ScriptedReviewer, SyntheticEngine, parse_spec
from simwright.campaign.engine import FreshStart, SegmentRequest
from simwright.campaign.gcmc import GcmcSegmentEngine, gcmc_launcher
from simwright.campaign.report import write_report
from simwright.campaign.spec_load import load_spec
from simwright.settings import Settings
from simwright.store import Store

DEMO = Path(__file__).parents[1] / "examples" / "gcmc_desorption" / "campaign.yaml"


def synthetic_spec(systems: int, conditions: int, segment_steps: int) -> dict[str, Any]:
    return {
        "name": "bench",
        "objective": "bookkeeping throughput",
        "systems": [{"name": f"s{i}", "parameters": {"capacity": 100.0}} for i in range(systems)],
        "conditions": [
            {"name": f"p{i}", "pressure_bar": 80.0 / (i + 1)} for i in range(conditions)
        ],
        "segment": {
            "engine": "synthetic",
            "parameters": {"sample_every_steps": 50, "relaxation_steps": 2000.0, "noise": 0.02},
        },
        "observables": [{"name": "n_adsorbed"}],
        "acceptance": {
            "n_adsorbed": {
                "window_steps": 2000,
                "cv_max": 0.05,
                "trend_max": 0.05,
                "scale_floor": 5.0,
            }
        },
        "continuation": {"segment_steps": segment_steps, "max_local_steps": 200000},
    }


def bookkeeping(root: Path, systems: int, conditions: int, segment_steps: int) -> dict[str, Any]:
    engine = SyntheticEngine()
    spec = parse_spec(synthetic_spec(systems, conditions, segment_steps), "bench", engine)
    store = Store.at(root / "simwright.db")
    reviewer = ScriptedReviewer([])
    runner = CampaignRunner(store, engine, root=root / "campaigns", reviewer=reviewer)
    campaign = runner.create(spec)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    outcome = runner.run(campaign)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    cycles = len(runner.cstore.campaign_segments(campaign))
    assert outcome.status == "completed" and reviewer.calls == []
    bare = _bare_engine(root / "bare", spec, cycles, segment_steps)
    store.close()
    return {
        "states": systems * conditions,
        "cycles": cycles,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "cycles_per_s": round(cycles / wall, 1),
        "cycles_per_cpu_s": round(cycles / cpu, 1),
        "bare_engine_s": round(bare, 3),
        "overhead_ms_per_cycle": round(1000 * (wall - bare) / cycles, 3),
        "model_calls": 0,
    }


def _bare_engine(root: Path, spec: Any, cycles: int, steps: int) -> float:
    engine = SyntheticEngine()
    start = time.perf_counter()
    for i in range(cycles):
        workdir = root / f"{i:05d}"
        workdir.mkdir(parents=True)
        request = SegmentRequest(
            "bare", spec, spec.systems[0], spec.conditions[0], workdir, FreshStart(), steps, i + 1
        )
        engine.run_segment(request)
    return time.perf_counter() - start


def demo(root: Path) -> dict[str, Any]:
    settings = Settings(home=root)
    engine = GcmcSegmentEngine(lambda: gcmc_launcher(settings))
    spec = load_spec(DEMO, engine)
    store = Store.at(root / "simwright.db")
    runner = CampaignRunner(store, engine, root=root / "campaigns", report=write_report)
    campaign = runner.create(spec, DEMO.read_text())
    wall0, cpu0 = time.perf_counter(), time.process_time()
    outcome = runner.run(campaign)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    segments = runner.cstore.campaign_segments(campaign)
    engine_s = sum(s.wall_s for s in segments)
    states = runner.cstore.states(campaign)
    store.close()
    return {
        "status": outcome.status,
        "states": len(states),
        "archived": sum(s.status == "archived" for s in states),
        "segments": len(segments),
        "local_steps": sum(s.local_steps for s in states),
        "wall_s": round(wall, 1),
        "python_cpu_s": round(cpu, 1),
        "lammps_wall_s": round(engine_s, 1),
        "report": str(outcome.directory / "report" / "report.md"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--conditions", type=int, default=5)
    parser.add_argument("--segment-steps", type=int, default=200)
    parser.add_argument("--demo", action="store_true", help="also run the GCMC demo")
    parser.add_argument("--dir", type=Path, help="keep the campaigns in a new folder here")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()
    if args.dir is not None:  # keep the campaigns (and the demo's report) there
        args.dir.mkdir(parents=True, exist_ok=True)
        run_all(Path(tempfile.mkdtemp(dir=args.dir)), args)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            run_all(Path(tmp), args)


def run_all(root: Path, args: argparse.Namespace) -> None:
    results: dict[str, Any] = {
        "bookkeeping": bookkeeping(
            root / "bookkeeping", args.systems, args.conditions, args.segment_steps
        )
    }
    print(json.dumps(results["bookkeeping"]), flush=True)
    if args.demo:
        results["demo"] = demo(root / "demo")
        print(json.dumps(results["demo"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
