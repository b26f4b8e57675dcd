"""The cycle's raw DB-API writes (:mod:`simwright.store.raw_writes`) on SQLite and
PostgreSQL: the statements agree with the tables and the migrated database column by
column, write what SQLAlchemy would write, keep the compare-and-set, roll back whole,
and a campaign killed at random moments resumes to the same accepted values."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import Table, inspect, select

from helpers import paths
from helpers.campaign import SYNTHETIC, spec_of
from simwright.campaign import CampaignError, CampaignRunner, SyntheticEngine
from simwright.campaign.repository import STATE_FIELDS, CampaignStore
from simwright.campaign.status import StateStatus
from simwright.errors import StoreError
from simwright.store import Store
from simwright.store.models_campaign import CampaignSegmentRow, CampaignStateRow
from simwright.store.raw_writes import RawCompareAndSet, RawConnection, RawInsert

SEGMENTS = cast(Table, CampaignSegmentRow.__table__)
STATES = cast(Table, CampaignStateRow.__table__)
S = StateStatus


def _database_columns(store: Store, table: str) -> list[str]:
    return [c["name"] for c in inspect(store.engine).get_columns(table)]


def test_raw_statements_agree_with_the_tables_and_the_migrated_database(store: Store) -> None:
    insert = RawInsert(SEGMENTS, store.engine.dialect)
    orm = [c.name for c in SEGMENTS.columns if c.name != "id"]
    migrated = [c for c in _database_columns(store, "campaign_segments") if c != "id"]
    assert list(insert.columns) == orm
    assert sorted(insert.columns) == sorted(migrated)  # Alembic's tables, column by column
    assert insert.sql.count("?" if store.engine.dialect.paramstyle == "qmark" else "%s") == len(orm)
    state_columns = set(_database_columns(store, "campaign_states"))
    assert {*STATE_FIELDS, "updated_at"} <= state_columns
    cas = RawCompareAndSet(STATES, store.engine.dialect, guard="status")
    sql, _ = cas.statement(("status", "cycles", "updated_at"))
    assert sql.endswith("WHERE id = ? AND status = ?") or sql.endswith(
        "WHERE id = %s AND status = %s"
    )
    with pytest.raises(StoreError, match="no column"):
        cas.statement(("status", "no_such_column"))
    with pytest.raises(StoreError, match="no column"):
        insert.params({"no_such_column": 1})


def _campaign(store: Store, tmp: Path) -> tuple[CampaignRunner, str]:
    runner = CampaignRunner(store, SyntheticEngine(), root=tmp / "campaigns")
    return runner, runner.create(spec_of(SYNTHETIC))


def _segment(state: Any, seq: int, workdir: str) -> dict[str, Any]:
    return {
        "campaign_id": state.campaign_id,
        "state_id": state.id,
        "chain_id": state.chain_id,
        "seq": seq,
        "attempt": 1,
        "status": "completed",
        "workdir": workdir,
        "seed": 11,
        "steps": 500,
        "local_start": 0,
        "local_end": 500,
        "abs_end": 500,
        "series_json": '{"values": {}}',
        "wall_s": 0.25,
    }


def test_the_raw_insert_writes_what_sqlalchemy_writes(store: Store, tmp_path: Path) -> None:
    runner, campaign = _campaign(store, tmp_path)
    cstore = runner.cstore
    state = cstore.states(campaign)[0]
    workdir = str(cstore.directory(campaign) / "seg-0001")
    raw_id, _ = cstore.add_segment(_segment(state, 1, workdir), state)
    with store.engine.begin() as conn:  # the same values through SQLAlchemy Core
        values = _segment(state, 2, "seg-0002")
        orm_id = conn.execute(SEGMENTS.insert(), values).inserted_primary_key[0]  # type: ignore[index]
        rows = {
            r.id: r
            for r in conn.execute(select(SEGMENTS).where(SEGMENTS.c.id.in_([raw_id, orm_id])))
        }
    raw, orm = rows[raw_id]._asdict(), rows[orm_id]._asdict()
    assert raw["workdir"] == "seg-0001"  # recorded relative to the campaign directory
    assert raw["created_at"] is not None and type(raw["created_at"]) is type(orm["created_at"])
    assert raw["wall_s"] == 0.25 and raw["engine_json"] == "[]" and raw["abs_start"] is None
    for name in ("id", "seq", "workdir", "created_at"):
        raw.pop(name), orm.pop(name)
    assert raw == orm  # defaults and conversions as SQLAlchemy applies them


def test_compare_and_set_refuses_a_stale_state_and_rolls_the_segment_back(
    store: Store, tmp_path: Path
) -> None:
    runner, campaign = _campaign(store, tmp_path)
    cstore = runner.cstore
    state = cstore.update_state(cstore.states(campaign)[0], status=S.INITIALIZING)
    state = cstore.update_state(state, status=S.RUNNING)
    segment_id, moved = cstore.add_segment(
        _segment(state, 1, "seg-0001"), state, via=S.ANALYZING, status=S.RUNNING, cycles=1
    )
    assert moved.cycles == 1 and cstore.state(state.id).cycles == 1
    stale = state  # still says cycles=0, status running: someone moved it meanwhile
    cstore.update_state(moved, status=S.ANALYZING)
    with pytest.raises(CampaignError, match="changed by someone else"):
        cstore.add_segment(_segment(stale, 2, "seg-0002"), stale, status=S.ANALYZING, cycles=2)
    with pytest.raises(CampaignError, match="illegal state transition"):
        cstore.add_segment(_segment(stale, 2, "seg-0002"), stale, status=S.ARCHIVED)
    seqs = [s.seq for s in cstore.segments(state.id, state.chain_id)]
    assert seqs == [1]  # neither refused transaction left its segment
    assert cstore.state(state.id).status == S.ANALYZING
    assert segment_id == cstore.segments(state.id, state.chain_id)[0].id


def test_a_run_holds_one_connection_and_gives_it_back(store: Store, tmp_path: Path) -> None:
    runner, campaign = _campaign(store, tmp_path)
    cstore: CampaignStore = runner.cstore
    pool = store.engine.pool
    with cstore.holding(), cstore.holding():  # nests
        assert pool.checkedout() == 1  # type: ignore[attr-defined]
        state = cstore.states(campaign)[0]
        cstore.add_segment(_segment(state, 1, "seg-0001"), state)
    assert pool.checkedout() == 0  # type: ignore[attr-defined]
    assert runner.run(runner.create(spec_of(SYNTHETIC))).status == "completed"
    assert pool.checkedout() == 0  # type: ignore[attr-defined]
    connection = RawConnection(store.engine)
    with pytest.raises(ZeroDivisionError), connection.transaction() as tx:
        tx.insert(RawInsert(SEGMENTS, store.engine.dialect), _segment(state, 9, "seg-0009"))
        raise ZeroDivisionError  # rolled back: no segment 9
    connection.close()
    assert 9 not in [s.seq for s in cstore.segments(state.id, state.chain_id, status=None)]


def _accepted(cstore: CampaignStore, campaign: str) -> list[tuple[str, str, str, int, str]]:
    return [
        (s.system, s.condition, s.status, s.cycles, s.values_json) for s in cstore.states(campaign)
    ]


def _segment_count(store: Store, campaign: str) -> int:
    with store.engine.connect() as conn:
        rows = conn.execute(select(SEGMENTS.c.id).where(SEGMENTS.c.campaign_id == campaign))
        return len(rows.fetchall())


def _kill_after_progress(
    proc: subprocess.Popen[str], store: Store, campaign: str, rng: random.Random
) -> bool:
    """SIGKILL ``proc`` a random moment after it has committed 1–4 more segments (by
    progress, not by the clock, so that a fast machine cannot finish first); False when
    the campaign ended before that."""
    target = _segment_count(store, campaign) + rng.randint(1, 4)
    deadline = time.monotonic() + 300
    while _segment_count(store, campaign) < target:
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    time.sleep(rng.uniform(0.0, 0.01))  # somewhere inside the next cycle
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    return True


@pytest.mark.slow
def test_a_campaign_killed_at_random_moments_resumes_to_the_same_values(
    store: Store, tmp_path: Path
) -> None:
    reference, ref_campaign = _campaign(store, tmp_path / "ref")
    assert reference.run(ref_campaign).status == "completed"
    runner, campaign = _campaign(store, tmp_path / "killed")
    script = paths.TESTS / "helpers" / "campaign_killee.py"
    env = {**os.environ, "PYTHONPATH": str(paths.REPO / "src")}
    command = [
        sys.executable,
        str(script),
        store.url,
        str(tmp_path / "killed" / "campaigns"),
        campaign,
    ]
    rng = random.Random(17)
    kills = 0
    for attempt in range(7):  # six runs killed at random moments, then one to the end
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        if attempt < 6 and _kill_after_progress(proc, store, campaign, rng):
            kills += 1
            continue
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        assert out.strip() == "completed"
        break
    assert kills >= 1, "no kill landed: the test proves nothing"
    cstore = runner.cstore
    accepted = _accepted(cstore, campaign)
    assert [r[2] for r in accepted] == ["archived"] * len(accepted)
    assert [(r[0], r[1], r[4]) for r in accepted] == [
        (r[0], r[1], r[4]) for r in _accepted(reference.cstore, ref_campaign)
    ]
    for state in cstore.states(campaign):  # counters agree with the committed segments
        done = cstore.segments(state.id, state.chain_id)
        assert [s.seq for s in done] == list(range(1, state.cycles + 1))
        assert done[-1].local_end == state.local_steps


def test_a_held_connection_the_server_dropped_is_replaced(store: Store, tmp_path: Path) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("only a server can drop a session")
    runner, campaign = _campaign(store, tmp_path)
    cstore = runner.cstore
    state = cstore.states(campaign)[0]
    with cstore.holding():
        cstore.add_segment(_segment(state, 1, "seg-0001"), state)
        with store.engine.begin() as conn:  # another session ends the held one
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        with pytest.raises(Exception, match=r"(?i)terminat|closed|connection"):
            cstore.add_segment(_segment(state, 2, "seg-0002"), state)
        cstore.add_segment(_segment(state, 3, "seg-0003"), state)  # on a fresh connection
    seqs = [s.seq for s in cstore.segments(state.id, state.chain_id)]
    assert seqs == [1, 3]
