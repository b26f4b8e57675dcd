"""The plain SQLite reader returns what the store returns, without SQLAlchemy."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from simwright.cli.views import run_json, show_json
from simwright.errors import StoreError
from simwright.store import Store
from simwright.store.models_agents import AgentUsageRow
from simwright.store.queue import RunQueue
from simwright.store.reading import (
    ArtifactFields,
    DecisionFields,
    EngineCallFields,
    EventFields,
    RunFields,
    SqliteReader,
    StepFields,
    UsageFields,
    open_reader,
)
from simwright.store.records import (
    ArtifactRecord,
    DecisionRecord,
    EngineCall,
    EventRecord,
    StepOutcome,
)

FIELDS = {
    "get_run": RunFields,
    "steps": StepFields,
    "artifacts": ArtifactFields,
    "engine_calls": EngineCallFields,
    "decisions": DecisionFields,
    "events": EventFields,
    "usage": UsageFields,
}


def _recorded(path: Path, run_dir: Path) -> Store:
    store = Store.at(path)
    for run_id in ("20261201-000000-a_b%1", "20261201-000001-abc2"):
        store.create_run(
            run_id, "p", request="r", params_json="{}", workdir=str(run_dir), version="0"
        )
    sid = store.begin_step(
        "20261201-000000-a_b%1",
        seq=1,
        attempt=1,
        name="S",
        step_json="{}",
        inputs_hash="h",
        workdir=str(run_dir / "s"),
    )
    (run_dir / "a.txt").write_text("x")
    store.finish_step(
        "20261201-000000-a_b%1",
        StepOutcome(
            step_id=sid,
            status="completed",
            wall_s=0.5,
            successor="T",
            decided_by="rule:next",
            reason="because",
            artifacts=(ArtifactRecord("a.txt", "0" * 64, 1, "text"),),
            engine_calls=(EngineCall("lmp", "lmp -in x", "1", 0, 0.25),),
            decisions=(DecisionRecord("p", ("a", "b"), "a", "rule", rationale="why"),),
            events=(EventRecord("note", "hello"),),
            run_status="completed",
            run_result_json='{"x": 1}',
        ),
    )
    with store.transaction() as s:
        s.add(AgentUsageRow(run_id="20261201-000000-a_b%1", role="critic", model="m", ok=False))
    return store


def _fields(row: object, protocol: type) -> dict[str, object]:
    return {name: getattr(row, name) for name in protocol.__annotations__}


def test_every_field_of_every_row_is_the_stores(tmp_path: Path) -> None:
    store = _recorded(tmp_path / "db.sqlite", tmp_path)
    plain = SqliteReader(tmp_path / "db.sqlite")
    run_id = "20261201-000000-a_b%1"
    for method, protocol in FIELDS.items():
        ours, theirs = getattr(plain, method)(run_id), getattr(store, method)(run_id)
        if method == "get_run":
            ours, theirs = [ours], [theirs]
        assert theirs, method
        assert [_fields(r, protocol) for r in ours] == [_fields(r, protocol) for r in theirs]
    assert [r.id for r in plain.list_runs()] == [r.id for r in store.list_runs()]
    assert show_json(plain, plain.get_run(run_id)) == show_json(store, store.get_run(run_id))
    assert run_json(plain.list_runs(1)[0]) == run_json(store.list_runs(1)[0])


def test_prefixes_are_literal_and_must_be_unambiguous(tmp_path: Path) -> None:
    _recorded(tmp_path / "db.sqlite", tmp_path)
    plain = SqliteReader(tmp_path / "db.sqlite")
    assert plain.get_run("20261201-000000-a_b%").id == "20261201-000000-a_b%1"
    with pytest.raises(StoreError, match="no run"):
        plain.get_run("20261201-000000-a_bb")  # "_" is not a wildcard
    with pytest.raises(StoreError, match="ambiguous"):
        plain.get_run("20261201-00000")


def test_open_reader_takes_the_plain_reader_only_for_a_current_sqlite_store(
    tmp_path: Path,
) -> None:
    _recorded(tmp_path / "db.sqlite", tmp_path).close()
    assert isinstance(open_reader(f"sqlite:///{tmp_path / 'db.sqlite'}"), SqliteReader)
    (tmp_path / "empty.sqlite").touch()
    assert isinstance(open_reader(f"sqlite:///{tmp_path / 'empty.sqlite'}"), Store)


def test_the_plain_reader_writes_nothing(tmp_path: Path) -> None:
    _recorded(tmp_path / "db.sqlite", tmp_path).close()
    before = (tmp_path / "db.sqlite").read_bytes()
    SqliteReader(tmp_path / "db.sqlite").list_runs()
    assert (tmp_path / "db.sqlite").read_bytes() == before


def test_listing_runs_imports_no_sqlalchemy(tmp_path: Path) -> None:
    _recorded(tmp_path / "db.sqlite", tmp_path).close()
    code = (
        "import sys\n"
        "from simwright.store.reading import open_reader\n"
        f"r = open_reader('sqlite:///{tmp_path / 'db.sqlite'}')\n"
        "r.list_runs(); r.steps(r.list_runs()[0].id)\n"
        "print('sqlalchemy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_kept_connection_sees_later_commits_and_events_and_queue_state(tmp_path: Path) -> None:
    store = _recorded(tmp_path / "db.sqlite", tmp_path)
    plain = SqliteReader(tmp_path / "db.sqlite")
    run_id = "20261201-000001-abc2"
    last = max((e.id for e in plain.events_after(run_id)), default=0)
    assert plain.queue_state(run_id) is None
    RunQueue(store).enqueue(run_id, message="submitted")  # written after the reader opened
    events = plain.events_after(run_id, after=last)
    assert [e.kind for e in events] == ["queued"]
    assert [_fields(e, EventFields) for e in events] == [
        _fields(e, EventFields) for e in store.events_after(run_id, last)
    ]
    assert plain.events_after(run_id, after=events[0].id) == []
    assert plain.queue_state(run_id) == store.queue_state(run_id) == ("queued", None)
    store.close()


def test_connections_of_ended_threads_are_closed(tmp_path: Path) -> None:
    _recorded(tmp_path / "db.sqlite", tmp_path).close()
    plain = SqliteReader(tmp_path / "db.sqlite")
    for _ in range(5):  # threads that read once and end, as a thread pool's do
        t = threading.Thread(target=plain.list_runs)
        t.start()
        t.join()
    plain.list_runs()  # this thread's connection; the ended threads' are closed
    assert len(plain._opened) == 1
    plain.close()
    assert len(plain.list_runs()) == 2  # a closed reader opens again
