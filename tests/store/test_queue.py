"""The service's run queue in the store: transitions, claims and a restart's re-queue."""

from __future__ import annotations

import pytest

from simwright.errors import StoreError
from simwright.store import Store
from simwright.store.queue import RunQueue


def _run(store: Store, run_id: str) -> None:
    store.create_run(
        run_id, "p", request="r", params_json="{}", workdir="/x", version="0", status="queued"
    )


def test_queue_transitions(store: Store) -> None:
    q = RunQueue(store)
    _run(store, "a")
    _run(store, "b")
    q.enqueue("a")
    q.enqueue("b", choose="extend")
    assert [e.run_id for e in q.entries(("queued",))] == ["a", "b"]
    with pytest.raises(StoreError, match="already queued"):
        q.enqueue("a")
    assert q.claim("a") is True
    assert q.claim("a") is False  # one claim only
    q.set_worker("a", 4242)
    entry = q.get("a")
    assert entry is not None and (entry.state, entry.worker_pid, entry.attempts) == (
        "running",
        4242,
        1,
    )
    assert q.get("b").choose == "extend"  # type: ignore[union-attr]
    q.finish("a", "done")
    assert q.get("a").state == "done"  # type: ignore[union-attr]
    q.enqueue("a")  # a finished run may be queued again (a resume)
    assert q.get("a").state == "queued"  # type: ignore[union-attr]


def test_cancel_queued_and_running(store: Store) -> None:
    q = RunQueue(store)
    for rid in ("a", "b"):
        _run(store, rid)
        q.enqueue(rid)
    assert q.request_cancel("a") == "cancelled"
    assert store.get_run("a").status == "cancelled"
    q.claim("b")
    assert q.request_cancel("b") == "cancelling"
    with pytest.raises(StoreError, match="not queued or running"):
        q.request_cancel("a")
    assert [e.kind for e in store.events("a")][-1] == "cancelled"


def test_restart_requeues_the_runs_of_dead_workers(store: Store) -> None:
    q = RunQueue(store)
    for rid in ("held", "stopping", "waiting"):
        _run(store, rid)
        q.enqueue(rid)
    q.claim("held")
    q.claim("stopping")
    q.request_cancel("stopping")
    assert q.requeue_orphans() == ["held"]
    assert {e.run_id: e.state for e in q.entries(("queued", "cancelled"))} == {
        "held": "queued",
        "waiting": "queued",
        "stopping": "cancelled",
    }
    assert "requeued" in [e.kind for e in store.events("held")]
