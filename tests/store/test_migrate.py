"""Several processes opening a new store at once all succeed: migrations are serialised."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from simwright.store import Store
from simwright.store.migrate import current_revision, head_revision

OPENER = """
import sys, time
from pathlib import Path
from simwright.store import Store
db, go = Path(sys.argv[1]), Path(sys.argv[2])
while not go.exists():
    time.sleep(0.005)
Store.at(db).list_runs()
"""


def test_four_processes_opening_a_new_store_at_once_all_succeed(tmp_path: Path) -> None:
    failures = []
    for round_ in range(4):
        db, go = tmp_path / f"home{round_}" / "simwright.db", tmp_path / f"go{round_}"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPENER, str(db), str(go)],
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        go.touch()
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            if proc.returncode != 0:
                failures.append(err.strip().splitlines()[-1])
        store = Store.at(db)
        assert current_revision(store.engine) == head_revision()
        store.close()
    assert failures == []


def test_the_revisions_read_without_alembic_are_alembics_own(tmp_path: Path) -> None:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from simwright.store.migrate import alembic_config

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
    store = Store.at(tmp_path / "simwright.db")
    with store.engine.connect() as conn:
        assert (
            current_revision(store.engine)
            == MigrationContext.configure(conn).get_current_revision()
        )
