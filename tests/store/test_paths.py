"""Paths are recorded relative to their root and read back absolute; old absolute ones read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from simwright.settings import Settings
from simwright.store import Store
from simwright.store.paths import Roots, from_stored, to_stored
from simwright.store.reading import SqliteReader


def test_a_path_inside_its_root_is_recorded_relative_and_one_outside_absolute(
    tmp_path: Path,
) -> None:
    root = tmp_path / "runs"
    assert to_stored(root / "r1" / "steps" / "001-A", root) == "r1/steps/001-A"
    assert to_stored(tmp_path / "elsewhere", root) == str(tmp_path / "elsewhere")
    assert to_stored(root / "r1", None) == str(root / "r1")
    assert from_stored("r1/steps", root) == str(root / "r1" / "steps")
    assert from_stored("/old/home/runs/r1", root) == "/old/home/runs/r1"  # an old record


def _run(store: Store, run_id: str, run_dir: Path) -> None:
    store.create_run(run_id, "p", request="r", params_json="{}", workdir=str(run_dir), version="0")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_store_records_run_folders_relative_to_the_runs_root(
    backend: str, settings: Settings, request: pytest.FixtureRequest
) -> None:
    roots = Roots(settings.runs_path, settings.campaigns_path)
    if backend == "sqlite":
        store = Store.at(settings.home / "simwright.db", roots)
    else:
        store = Store(request.getfixturevalue("pg_server").new_database(), roots)
    _run(store, "r1", settings.runs_path / "r1")
    _run(store, "r2", Path("/scratch/elsewhere/r2"))
    with store.engine.connect() as conn:
        raw = dict(conn.exec_driver_sql("select id, workdir from runs").all())
    assert raw == {"r1": "r1", "r2": "/scratch/elsewhere/r2"}
    assert store.get_run("r1").workdir == str(settings.runs_path / "r1")
    assert {r.id: r.workdir for r in store.list_runs()} == {
        "r1": str(settings.runs_path / "r1"),
        "r2": "/scratch/elsewhere/r2",
    }
    store.close()
    moved = Store(store.url, Roots(Path("/new/home/runs"), None))
    assert moved.get_run("r1").workdir == "/new/home/runs/r1"
    moved.close()


def test_a_store_written_with_absolute_paths_still_reads(tmp_path: Path) -> None:
    db = tmp_path / "simwright.db"
    old = Store.at(db, Roots())  # records absolute paths, as stores did before
    _run(old, "r1", tmp_path / "runs" / "r1")
    old.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("select workdir from runs").fetchone() == (str(tmp_path / "runs/r1"),)
    elsewhere = Roots(Path("/somewhere/else/runs"), None)
    reopened = Store.at(db, elsewhere)
    assert reopened.get_run("r1").workdir == str(tmp_path / "runs" / "r1")
    reopened.close()
    assert SqliteReader(db, elsewhere).get_run("r1").workdir == str(tmp_path / "runs" / "r1")
