"""Runs stored by simwright 0.1.0, before the package reshaping, still resume and complete.

``tests/fixtures/legacy_store/home`` was made by ``make_fixture.py`` beside it: each run
was killed right after its first step, so its pending step names classes at their old
module paths (``simwright.engines.espresso_input:PwInput``...). The codec follows
:mod:`simwright.graph.renames` to find them.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from helpers.paths import FIXTURES
from simwright.graph import Runner
from simwright.graph.codec import current_path, load_class
from simwright.protocols.registry import load_protocols
from simwright.settings import Settings
from simwright.store import Store

LEGACY = FIXTURES / "legacy_store" / "home"
RECORDED_HOME = "/tmp/simwright-legacy-fixture"
TEXT_COLUMNS = {
    "runs": ("workdir",),
    "steps": ("workdir",),
}


def relocated_copy(dest: Path) -> Path:
    """A copy of the legacy home at ``dest`` with its recorded absolute paths moved there."""
    shutil.copytree(LEGACY, dest)
    with sqlite3.connect(dest / "simwright.db") as db:
        for table, columns in TEXT_COLUMNS.items():
            for column in columns:
                db.execute(
                    f"UPDATE {table} SET {column} = replace({column}, ?, ?)",
                    (RECORDED_HOME, str(dest)),
                )
    return dest


def test_old_module_paths_resolve_through_the_rename_map() -> None:
    old = "simwright.engines.espresso_input:PwInput"
    assert current_path(old) == "simwright.engines.espresso.template:PwInput"
    assert load_class(old).__name__ == "PwInput"


@pytest.mark.slow
def test_runs_stored_before_the_move_resume_and_complete(tmp_path: Path) -> None:
    home = relocated_copy(tmp_path / "home")
    store = Store.at(home / "simwright.db")
    runs = {run.protocol: run for run in store.list_runs()}
    assert set(runs) == {"lattice_constant", "dft_scf"}
    protocols = load_protocols()
    runner = Runner(store, Settings(home=home, threads=1))
    values = {}
    for name, run in runs.items():
        outcome = runner.resume(protocols[name].graph, run.id)
        values[name] = outcome.result.values if outcome.result is not None else {}
        assert outcome.status == "completed", (name, store.get_run(run.id).error)
        steps = store.steps(run.id)
        assert steps[0].attempt == 1 and steps[0].seq == 1  # step 1 was not run again
        assert [s.status for s in steps] == ["completed"] * len(steps)
    assert values["lattice_constant"]["lattice_constant"].value == pytest.approx(3.590, abs=0.002)
    assert values["dft_scf"]["energy"].value == pytest.approx(-278.08, abs=0.05)  # Si2, PZ
