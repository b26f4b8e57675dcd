"""A home moved elsewhere (store and files together) is read, verified and resumed there."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import yaml
from typer.testing import CliRunner

from helpers.campaign import SYNTHETIC
from simwright.api import Simwright
from simwright.cli.main import app
from simwright.settings import settings_at


def _cli(home: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, [*args, "--home", str(home), "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_runs_and_campaigns_resume_in_a_moved_home(tmp_path: Path) -> None:
    old, new = tmp_path / "old-home", tmp_path / "moved" / "home"
    code, done = _cli(old, "run", "lattice constant of fcc Cu with EMT, 5 points")
    assert code == 0 and done["status"] == "completed"
    queued = Simwright(settings_at(old)).submit("lattice constant of fcc Al with EMT, 5 points")
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(SYNTHETIC))
    code, paused = _cli(old, "campaign", "run", str(spec), "--max-states", "1", "--no-report")
    assert code == 0 and paused["status"] == "paused"

    new.parent.mkdir()
    shutil.move(old, new)
    with sqlite3.connect(new / "simwright.db") as db:
        stored = [
            p
            for (p,) in db.execute(
                "select workdir from runs union all "
                "select workdir from steps union all select workdir from campaigns union all "
                "select path from campaign_archives union all "
                "select restart_path from campaign_segments"
            )
        ]
    assert stored and not [p for p in stored if p.startswith("/")]

    code, shown = _cli(new, "show", done["run_id"])
    assert code == 0 and Path(shown["run_dir"]).is_relative_to(new)
    code, verified = _cli(new, "verify", done["run_id"])
    assert code == 0, verified
    code, resumed = _cli(new, "resume", queued.run_id)
    assert code == 0 and resumed["status"] == "completed"
    assert all(Path(a).is_relative_to(new) for a in resumed["artifacts"])
    code, finished = _cli(new, "campaign", "resume", paused["campaign_id"], "--no-report")
    assert code == 0 and finished["status"] == "completed"
    assert not (old.exists() or (tmp_path / "old-home").exists())
