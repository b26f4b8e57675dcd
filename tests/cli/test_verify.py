"""``simwright verify`` re-hashes a run's recorded files; ``show`` flags the missing or
changed ones; ``resume`` warns about them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simwright.cli.main import app


@pytest.fixture
def cli(tmp_path: Path):
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}

    def invoke(*args: str) -> tuple[int, dict, str]:
        result = runner.invoke(app, [*args, "--json"], env=env)
        return result.exit_code, json.loads(result.stdout), result.stderr

    return invoke


def test_verify_show_and_resume_report_edited_and_deleted_files(cli) -> None:
    code, run, _ = cli("run", "lattice constant of fcc Cu with EMT")
    assert code == 0
    run_id, run_dir = run["run_id"], Path(run["run_dir"])
    code, report, _ = cli("verify", run_id)
    assert code == 0 and report["ok"] and report["checked"] >= 5 and report["problems"] == []

    crystal = next(run_dir.glob("steps/001-*/crystal.extxyz"))  # of an earlier step
    crystal.write_text(crystal.read_text() + "\n")
    report_md = next(run_dir.glob("steps/*/report.md"))
    report_md.unlink()

    code, report, _ = cli("verify", run_id)
    assert code == 1 and not report["ok"]
    found = {Path(p["path"]).name: p["state"] for p in report["problems"]}
    assert found == {"crystal.extxyz": "changed", "report.md": "missing"}

    code, shown, _ = cli("show", run_id)
    assert code == 0 and not shown["integrity"]["ok"]
    states = {Path(a["path"]).name: a["state"] for a in shown["artifacts"]}
    assert states["crystal.extxyz"] == "changed" and states["report.md"] == "missing"
    assert states["eos_scan.h5"] == "ok"

    code, resumed, err = cli("resume", run_id)
    assert code == 0 and resumed["status"] == "completed"
    assert "missing or changed" in err and "crystal.extxyz (changed)" in err


def test_show_in_words_flags_a_changed_file(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}
    done = runner.invoke(app, ["run", "lattice constant of fcc Cu with EMT", "--json"], env=env)
    run = json.loads(done.stdout)
    scan = next(Path(run["run_dir"]).glob("steps/*/eos_scan.h5"))
    scan.write_bytes(scan.read_bytes()[:-10])
    shown = runner.invoke(app, ["show", run["run_id"]], env=env, terminal_width=200)
    assert shown.exit_code == 0
    assert "CHANGED" in shown.stdout and "1 of" in shown.stdout
    verified = runner.invoke(app, ["verify", run["run_id"]], env=env, terminal_width=200)
    assert verified.exit_code == 1 and "eos_scan.h5" in verified.stdout
