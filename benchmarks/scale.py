"""How far the store and the campaign runner scale: writers, backends, store size, jobs.

Sections (all by default, or pick with ``--only``):

- ``store``: state transitions per second written by 1, 4 and 8 writer processes on
  SQLite and on PostgreSQL. A transition is what a campaign cycle commits: a segment
  record inserted and its state moved ``running -> analyzing -> running`` by
  compare-and-set, in one transaction (``CampaignStore.add_segment``). Each writer has
  its own campaign; all start together; rate = all transitions / wall time.
- ``bookkeeping``: whole campaign cycles (synthetic engine through the real
  ``CampaignRunner``: restart hash check, segment folder, engine, hash, rules, commit)
  per second: one writer on SQLite, then 8 writer processes (one campaign each) on
  SQLite and on PostgreSQL.
- ``size``: the cost of one run-step transition (``begin_step`` + ``finish_step``) and of
  one campaign cycle on a store holding 10³ and then ``--big`` (10⁶) recorded steps
  and as many campaign segments, filled by bulk insert (not through the runner).
- ``demo``: the shipped GCMC demo campaign (real LAMMPS) with 1 and with ``--jobs``
  systems in flight: wall times and their ratio.

PostgreSQL is a throw-away server started for the run (``tests/helpers/postgres.py``:
Unix socket, ``fsync=off``; SQLite runs WAL with ``synchronous=NORMAL``: neither waits
for the disk at each commit), unless ``--pg-url`` names one.

    python benchmarks/scale.py                         # everything but the demo
    python benchmarks/scale.py --only size --big 1000000
    python benchmarks/scale.py --only demo --jobs 3
    python benchmarks/scale.py --json scale.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from simwright.campaign import CampaignRunner, SyntheticEngine, parse_spec
from simwright.campaign.repository import CampaignStore
from simwright.campaign.status import StateStatus
from simwright.store import Store
from simwright.store.models import RunRow, StepRow
from simwright.store.models_campaign import CampaignRow, CampaignSegmentRow, CampaignStateRow
from simwright.store.records import StepOutcome

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from campaign import DEMO, synthetic_spec
from cycle_profile import TimedEngine

S = StateStatus


# -- helpers ---------------------------------------------------------------------
@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[Callable[[], str] | None]:
    """A factory of new PostgreSQL databases (None when no server can be had)."""
    if url is not None:
        yield lambda: url
        return
    from helpers import postgres as pg  # lazy: only when no server is given

    why = pg.why_unavailable()
    if why is not None:
        print(f"PostgreSQL skipped: {why}", file=sys.stderr)
        yield None
        return
    with pg.running_server() as server:
        yield server.new_database


def _campaign_rows(campaign_id: str, workdir: str, states: int) -> tuple[CampaignRow, list]:
    row = CampaignRow(
        id=campaign_id,
        name="bench",
        objective="scale benchmark",
        spec_json="{}",
        spec_sha256="0" * 64,
        engine="synthetic",
        status="running",
        workdir=workdir,
        model_calls=0,
    )
    rows = [
        CampaignStateRow(
            campaign_id=campaign_id,
            system=f"s{i}",
            condition="p0",
            system_index=i,
            condition_index=0,
            status=S.RUNNING,
            chain_id=f"s{i}.c1",
            cycles=0,
            local_steps=0,
            max_local_steps=10**9,
            stop_reason="",
            values_json="{}",
        )
        for i in range(states)
    ]
    return row, rows


def _segment(state: Any, seq: int) -> dict[str, Any]:
    return {
        "campaign_id": state.campaign_id,
        "state_id": state.id,
        "chain_id": state.chain_id,
        "seq": seq,
        "attempt": 1,
        "status": "completed",
        "workdir": f"states/{state.system}/seg-{seq:06d}",
        "seed": seq,
        "steps": 200,
        "local_start": 200 * (seq - 1),
        "local_end": 200 * seq,
        "restart_path": f"states/{state.system}/seg-{seq:06d}/final.restart",
        "restart_sha256": f"{seq:064x}",
        "series_json": '{"local_steps": [0, 100, 200], "values": {"n": [1.0, 2.0, 3.0]}}',
        "decision": "continue",
    }


def _transitions(url: str, root: str, tag: str, count: int, start: Any, out: Any) -> None:
    """One writer process: ``count`` transitions on its own campaign."""
    store = Store(url)
    cstore = CampaignStore(store)
    campaign, states = _campaign_rows(f"w-{tag}", f"{root}/w-{tag}", 1)
    cstore.create(campaign, states)
    state = cstore.states(campaign.id)[0]
    start.wait()
    t0 = time.perf_counter()
    for seq in range(1, count + 1):
        _, state = cstore.add_segment(
            _segment(state, seq), state, via=S.ANALYZING, status=S.RUNNING, cycles=seq
        )
    out.put(time.perf_counter() - t0)
    store.close()


def _parallel(
    target: Callable[..., None], writers: int, url: str, root: str, *rest: Any
) -> tuple[float, list[Any]]:
    """Run ``writers`` processes of ``target(url, root, tag, *rest, start, out)`` released
    together; the wall time from the release to the last result, and the results."""
    ctx = mp.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=target, args=(url, root, str(i), *rest, start, out))
        for i in range(writers)
    ]
    for proc in procs:
        proc.start()
    time.sleep(1.0)  # let every writer open its store and create its campaign
    t0 = time.perf_counter()
    start.set()
    results = [out.get() for _ in procs]
    wall = time.perf_counter() - t0
    for proc in procs:
        proc.join()
        if proc.exitcode != 0:
            raise RuntimeError(f"a writer failed (exit {proc.exitcode})")
    return wall, results


# -- sections ----------------------------------------------------------------------
def store_section(tmp: Path, new_pg: Callable[[], str] | None, count: int) -> list[dict]:
    """Transitions per second by backend and number of writers."""
    rows = []
    for backend in ("sqlite", "postgresql"):
        for writers in (1, 4, 8):
            if backend == "postgresql" and new_pg is None:
                continue
            if backend == "sqlite":
                url = f"sqlite:///{tmp / f'store-{writers}.db'}"
                Store(url).close()  # migrate once, before the writers start
            else:
                assert new_pg is not None
                url = new_pg()
                Store(url).close()
            wall, _ = _parallel(_transitions, writers, url, str(tmp), count)
            total = writers * count
            row = {
                "backend": backend,
                "writers": writers,
                "transitions": total,
                "wall_s": round(wall, 2),
                "per_s": round(total / wall, 1),
            }
            print(json.dumps({"store": row}), flush=True)
            rows.append(row)
    return rows


def _bookkeeping(url: str, root: str, tag: str, systems: int, start: Any, out: Any) -> None:
    """One writer process: a synthetic campaign through the real runner (the engine's
    own CPU timed apart)."""
    engine = TimedEngine()
    spec = parse_spec(synthetic_spec(systems, 5, 200), f"bench{tag}", engine)
    store = Store(url)
    runner = CampaignRunner(store, engine, root=Path(root) / f"c{tag}")
    campaign = runner.create(spec)
    start.wait()
    t0, c0 = time.perf_counter(), time.process_time()
    status = runner.run(campaign).status
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    cycles = len(runner.cstore.campaign_segments(campaign))
    store.close()
    out.put(
        {"status": status, "cycles": cycles, "wall_s": wall, "cpu_s": cpu, "engine_s": engine.cpu_s}
    )


def bookkeeping_section(tmp: Path, new_pg: Callable[[], str] | None, systems: int) -> list[dict]:
    """Campaign cycles per second: 1 writer on SQLite; 8 on SQLite and on PostgreSQL."""
    rows = []
    for backend, writers in (("sqlite", 1), ("sqlite", 8), ("postgresql", 8)):
        if backend == "postgresql" and new_pg is None:
            continue
        url = f"sqlite:///{tmp / f'book-{writers}.db'}" if backend == "sqlite" else new_pg()  # type: ignore[misc]
        Store(url).close()
        wall, results = _parallel(_bookkeeping, writers, url, str(tmp / f"book-{backend}"), systems)
        assert all(r["status"] == "completed" for r in results), results
        cycles = sum(r["cycles"] for r in results)
        cpu = sum(r["cpu_s"] for r in results)
        engine_cpu = sum(r["engine_s"] for r in results)
        row = {
            "backend": backend,
            "writers": writers,
            "cycles": cycles,
            "wall_s": round(wall, 2),
            "cycles_per_s": round(cycles / wall, 1),
            "cycles_per_cpu_s": round(cycles / cpu, 1),
            "cpu_ms_per_cycle": round(1e3 * cpu / cycles, 3),
            "engine_cpu_share": round(engine_cpu / cpu, 3),
            "bookkeeping_cpu_ms_per_cycle": round(1e3 * (cpu - engine_cpu) / cycles, 3),
            "load": round(os.getloadavg()[0], 1),
        }
        print(json.dumps({"bookkeeping": row}), flush=True)
        rows.append(row)
    return rows


def fill(store: Store, steps: int, batch: int = 20_000) -> None:
    """Bulk-insert ``steps`` run steps (100 per run) and as many campaign segments."""
    runs = max(1, steps // 100)
    with store.engine.begin() as conn:
        for lo in range(0, runs, batch):
            conn.execute(
                insert(RunRow),
                [
                    {
                        "id": f"fill-{i:08d}",
                        "protocol": "fill",
                        "request": "",
                        "params_json": "{}",
                        "status": "completed",
                        "workdir": f"fill-{i:08d}",
                        "simwright_version": "0",
                    }
                    for i in range(lo, min(runs, lo + batch))
                ],
            )
        for lo in range(0, steps, batch):
            conn.execute(
                insert(StepRow),
                [
                    {
                        "run_id": f"fill-{i // 100:08d}",
                        "seq": i % 100 + 1,
                        "attempt": 1,
                        "name": "Fill",
                        "step_json": "{}",
                        "inputs_hash": f"{i:064x}",
                        "status": "completed",
                        "workdir": f"steps/{i % 100:03d}-Fill",
                    }
                    for i in range(lo, min(steps, lo + batch))
                ],
            )
    cstore = CampaignStore(store)
    campaign, states = _campaign_rows("fill", "fill", max(1, steps // 1000))
    cstore.create(campaign, states)
    views = cstore.states("fill")
    with store.engine.begin() as conn:
        for lo in range(0, steps, batch):
            conn.execute(
                insert(CampaignSegmentRow),
                [
                    _segment(views[i % len(views)], i // len(views) + 1)
                    for i in range(lo, min(steps, lo + batch))
                ],
            )


def _step_transitions(store: Store, count: int) -> float:
    """Seconds per run-step transition (begin + finish, as the graph runner commits them)."""
    run_id = f"probe-{secrets.token_hex(4)}"  # a kept store is probed again
    store.create_run(run_id, "p", request="", params_json="{}", workdir=run_id, version="0")
    t0 = time.perf_counter()
    for seq in range(1, count + 1):
        sid = store.begin_step(
            run_id,
            seq=seq,
            attempt=1,
            name="Probe",
            step_json="{}",
            inputs_hash="h",
            workdir=f"steps/{seq:03d}",
        )
        store.finish_step(run_id, StepOutcome(sid, "completed", wall_s=0.01, successor="Probe"))
    return (time.perf_counter() - t0) / count


def _cycle_cost(store: Store, root: Path) -> tuple[float, float]:
    engine = SyntheticEngine()
    spec = parse_spec(synthetic_spec(2, 5, 200), "probe", engine)
    runner = CampaignRunner(store, engine, root=root)
    campaign = runner.create(spec)
    t0, c0 = time.perf_counter(), time.process_time()
    runner.run(campaign)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    cycles = len(runner.cstore.campaign_segments(campaign))
    return wall / cycles, cpu / cycles


def size_section(
    tmp: Path, sizes: tuple[int, ...], count: int, keep: Path | None = None
) -> list[dict]:
    """Per-transition and per-cycle cost against the number of recorded steps (the filled
    stores are kept in ``keep`` and reused by the next call when given)."""
    rows = []
    for steps in sizes:
        db = (keep or tmp) / f"size-{steps}.db"
        fresh = not db.exists()
        store = Store.at(db)
        t0 = time.perf_counter()
        if fresh:
            fill(store, steps)
        filled = time.perf_counter() - t0
        step_s = _step_transitions(store, count)
        cycle_wall, cycle_cpu = _cycle_cost(store, tmp / f"size-{steps}")
        row = {
            "recorded_steps": steps,
            "fill_s": round(filled, 1) if fresh else None,
            "db_mb": round(db.stat().st_size / 1e6, 1),
            "step_transition_ms": round(1000 * step_s, 3),
            "cycle_ms": round(1000 * cycle_wall, 3),
            "cycle_cpu_ms": round(1000 * cycle_cpu, 3),
        }
        print(json.dumps({"size": row}), flush=True)
        rows.append(row)
        store.close()
    return rows


def demo_section(tmp: Path, jobs: int) -> list[dict]:
    """The GCMC demo with 1 and ``jobs`` systems in flight."""
    from simwright.campaign.gcmc import GcmcSegmentEngine, gcmc_launcher  # lazy: LAMMPS
    from simwright.campaign.spec_load import load_spec  # lazy: only for the demo
    from simwright.settings import Settings  # lazy: only for the demo

    rows = []
    for n in (1, jobs):
        root = tmp / f"demo-{n}"
        settings = Settings(home=root, threads=1)
        engine = GcmcSegmentEngine(lambda s=settings: gcmc_launcher(s))
        spec = load_spec(DEMO, engine)
        store = Store.at(root / "simwright.db")
        runner = CampaignRunner(store, engine, root=root / "campaigns", jobs=n)
        campaign = runner.create(spec, DEMO.read_text())
        t0 = time.perf_counter()
        status = runner.run(campaign).status
        wall = time.perf_counter() - t0
        segments = runner.cstore.campaign_segments(campaign)
        if status != "completed":
            failed = [s.error for s in segments if s.status == "failed"]
            raise SystemExit(f"demo with {n} job(s) ended {status}: {failed[:1]}")
        values = {
            f"{s.system}/{s.condition}": s.values_json for s in runner.cstore.states(campaign)
        }
        store.close()
        row = {
            "jobs": n,
            "status": status,
            "segments": len(segments),
            "wall_s": round(wall, 1),
            "values": values,
        }
        print(json.dumps({k: v for k, v in row.items() if k != "values"}), flush=True)
        rows.append(row)
    rows[-1]["same_values_as_one_job"] = rows[-1]["values"] == rows[0]["values"]
    rows[-1]["speedup"] = round(rows[0]["wall_s"] / rows[-1]["wall_s"], 2)
    return [{k: v for k, v in r.items() if k != "values"} for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=("store", "bookkeeping", "size", "demo"), action="append")
    parser.add_argument("--transitions", type=int, default=500, help="per writer (store)")
    parser.add_argument("--systems", type=int, default=2, help="per writer (bookkeeping)")
    parser.add_argument("--big", type=int, default=1_000_000, help="recorded steps (size)")
    parser.add_argument("--probe", type=int, default=300, help="step transitions timed (size)")
    parser.add_argument("--jobs", type=int, default=3, help="systems in flight (demo)")
    parser.add_argument("--pg-url", help="an empty PostgreSQL database to use")
    parser.add_argument("--keep", type=Path, help="keep (and reuse) the filled stores here")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()
    only = set(args.only or ("store", "bookkeeping", "size"))
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, postgres(args.pg_url) as new_pg:
        root = Path(tmp)
        if "store" in only:
            results["store"] = store_section(root, new_pg, args.transitions)
        if "bookkeeping" in only:
            results["bookkeeping"] = bookkeeping_section(root, new_pg, args.systems)
        if "size" in only:
            results["size"] = size_section(root, (1000, args.big), args.probe, args.keep)
        if "demo" in only:
            results["demo"] = demo_section(root, args.jobs)
            print(json.dumps(results["demo"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
