"""Knowledge at hand: completed runs enter the memory, memory search by words, docs indexes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import TESTS
from simwright.cli.main import app

MANUAL = TESTS / "fixtures" / "docs" / "lammps_html"


def _cli(home: Path, *args: str, **env: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, [*args, "--json"], env={"SIMWRIGHT_HOME": str(home), **env})
    return result.exit_code, json.loads(result.stdout)


def test_a_completed_run_is_remembered_and_found_by_words(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, run = _cli(home, "run", "lattice constant of fcc Cu with EMT")
    assert code == 0 and run["memory_record"].startswith("mem-")
    code, listed = _cli(home, "memory", "list")
    assert [(r["id"], r["source_run"]) for r in listed["records"]] == [
        (run["memory_record"], run["run_id"])
    ]
    code, found = _cli(home, "memory", "search", "copper lattice constant")
    assert code == 0 and found["mode"] == "bm25"
    assert found["records"][0]["source_run"] == run["run_id"]
    code, bad = _cli(home, "memory", "search", "copper", "--mode", "fuzzy")
    assert code == 2 and "unknown search mode" in bad["error"]


def test_remembering_can_be_switched_off(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, run = _cli(
        home, "run", "lattice constant of fcc Cu with EMT", SIMWRIGHT_REMEMBER_RUNS="false"
    )
    assert code == 0 and "memory_record" not in run
    assert _cli(home, "memory", "list")[1]["records"] == []


def test_docs_search_without_an_index_says_how_to_install_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, out = _cli(home, "docs", "search", "relax a cell", "--engine", "ase")
    assert code == 2 and "simwright docs install ase" in out["error"]
    assert not (home / "docs" / "ase" / "index").exists()  # nothing was built meanwhile


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_docs_install_all_builds_every_index(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, out = _cli(home, "docs", "install", "all", "--words-only", "--from", str(MANUAL))
    assert code == 0, out
    engines = {e["engine"]: e for e in out["engines"]}
    assert {"lammps", "ase", "freud", "mdanalysis"} <= set(engines)
    assert all(e["status"] == "installed" and e["pages"] > 0 for e in engines.values())
    assert engines["lammps"]["pages"] == 13
    code, found = _cli(home, "docs", "search", "velocity Verlet", "-e", "ase", "--mode", "bm25")
    assert code == 0 and found["hits"]
