"""``simwright run --many``: every request planned first, then run side by side in workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from simwright.api.batch import BatchEntry, default_jobs, read_batch
from simwright.cli.main import app
from simwright.settings import Settings

CU = "lattice constant of fcc Cu with EMT, 5 points"
AL = "lattice constant of fcc Al with EMT, 5 points"
REFUSED = "melting point of Cu with PBE"


def _cli(home: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, [*args, "--home", str(home), "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_a_request_file_skips_blank_lines_and_comments(tmp_path: Path) -> None:
    batch = tmp_path / "batch.txt"
    batch.write_text(f"# tiny runs\n{CU}\n\n{AL}  # aluminium\n  # nothing\nspec.yaml\n")
    assert read_batch(batch) == [
        BatchEntry("batch.txt:2", CU),
        BatchEntry("batch.txt:4", AL),
        BatchEntry("batch.txt:6", str(tmp_path / "spec.yaml")),
    ]


def test_the_default_jobs_share_the_cores_among_runs(tmp_path: Path) -> None:
    assert default_jobs(Settings(home=tmp_path), cores=8) == 8
    assert default_jobs(Settings(home=tmp_path, threads=2, mpi_ranks=2), cores=8) == 2
    assert default_jobs(Settings(home=tmp_path, threads=16), cores=8) == 1


def test_one_refused_request_stops_the_batch_before_anything_runs(tmp_path: Path) -> None:
    batch = tmp_path / "batch.txt"
    batch.write_text(f"{CU}\n{REFUSED}\n")
    code, out = _cli(tmp_path / "home", "run", "--many", str(batch))
    assert code == 2 and out["error"] == "1 of 2 request(s) refused"
    [refused] = out["refused"]
    assert refused["origin"] == "batch.txt:2" and "'melting point'" in refused["error"]
    code, runs = _cli(tmp_path / "home", "runs")
    assert runs["runs"] == []


@pytest.mark.slow
def test_a_batch_runs_in_workers_and_ends_with_a_table(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name, formula in (("cu.yaml", "Cu"), ("al.yaml", "Al")):
        parameters = {"element": formula, "lattice": "fcc", "n_points": 5, "calculator": "emt"}
        spec = {"protocol": "lattice_constant", "parameters": parameters}
        (specs / name).write_text(yaml.safe_dump(spec))
    (specs / "refused.yaml").write_text(yaml.safe_dump({"protocol": "no_such_protocol"}))
    code, out = _cli(tmp_path / "home", "run", "--many", str(specs), "--jobs", "2",
                     "--skip-refused")  # fmt: skip
    assert code == 0, out
    assert [r["origin"] for r in out["refused"]] == ["refused.yaml"]
    assert [r["status"] for r in out["runs"]] == ["completed", "completed"]
    assert all(" GPa" in r["headline"] or " Å" in r["headline"] for r in out["runs"])
    code, runs = _cli(tmp_path / "home", "runs")
    assert {r["run_id"] for r in runs["runs"]} == {r["run_id"] for r in out["runs"]}
