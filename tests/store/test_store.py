"""The provenance store: migrations, transactions and queries on real SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from simwright.errors import StoreError
from simwright.store import Store
from simwright.store.migrate import current_revision, head_revision
from simwright.store.models import Base
from simwright.store.records import ArtifactRecord, EngineCall, EventRecord, StepOutcome


def test_migrations_produce_exactly_the_models(store: Store) -> None:
    assert current_revision(store.engine) == head_revision()
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_reopening_an_existing_store_keeps_its_runs(tmp_path: Path) -> None:
    first = Store.at(tmp_path / "db.sqlite")
    first.create_run("r1", "p", request="", params_json="{}", workdir="/w", version="0")
    first.close()
    again = Store.at(tmp_path / "db.sqlite")
    assert again.get_run("r1").protocol == "p"


def test_finish_step_is_atomic(store: Store) -> None:
    store.create_run("r1", "p", request="", params_json="{}", workdir="/w", version="0")
    sid = store.begin_step(
        "r1", seq=1, attempt=1, name="S", step_json="{}", inputs_hash="h", workdir="/w/s"
    )
    bad = StepOutcome(
        step_id=sid,
        status="completed",
        wall_s=0.1,
        artifacts=(ArtifactRecord("a.txt", "0" * 64, 1, "text"),),
        engine_calls=(EngineCall("x", "x", "1", 0, 0.1),),
        events=(EventRecord("k"),),
        run_status="completed",
    )
    # a failure inside the transaction (unknown step) must leave nothing behind
    with pytest.raises(StoreError):
        store.finish_step(
            "r1",
            StepOutcome(
                step_id=sid + 99,
                status="completed",
                wall_s=0,
                artifacts=bad.artifacts,
                run_status="completed",
            ),
        )
    assert store.artifacts("r1") == [] and store.get_run("r1").status == "running"
    store.finish_step("r1", bad)
    assert [a.path for a in store.artifacts("r1")] == ["a.txt"]
    assert [c.engine for c in store.engine_calls("r1")] == ["x"]
    assert store.get_run("r1").status == "completed"
    assert store.steps("r1")[0].status == "completed"


def test_run_ids_resolve_by_unique_prefix(store: Store) -> None:
    for rid in ("20260101-a", "20260101-b", "20270101-c"):
        store.create_run(rid, "p", request="", params_json="{}", workdir="/w", version="0")
    assert store.get_run("2027").id == "20270101-c"
    with pytest.raises(StoreError, match="ambiguous"):
        store.get_run("2026")
    with pytest.raises(StoreError, match="no run"):
        store.get_run("nope")


def test_an_unreachable_database_gives_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open the provenance store"):
        Store(f"sqlite:///{tmp_path}/missing/dir/db.sqlite")
