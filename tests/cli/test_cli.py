"""The command line end to end on the real lattice_constant protocol (ASE EMT, SQLite)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import TESTS
from helpers.plugins import allow_test_calculators
from simwright.cli.main import app

HERE = TESTS


@pytest.fixture
def cli(tmp_path: Path):
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}
    sys.path.insert(0, str(HERE))

    def invoke(*args: str) -> tuple[int, dict]:
        result = runner.invoke(app, [*args, "--json"], env=env)
        return result.exit_code, json.loads(result.stdout)

    yield invoke
    sys.path.remove(str(HERE))


def test_run_prints_results_and_artifacts(cli) -> None:
    code, out = cli("run", "lattice constant of fcc Cu with EMT")
    assert code == 0
    assert out["status"] == "completed" and out["protocol"] == "lattice_constant"
    a0 = out["results"]["lattice_constant"]
    assert a0["unit"] == "Å" and a0["value"] == pytest.approx(3.59, abs=0.01)  # EMT's Cu
    assert a0["source"].endswith("results.h5")
    assert all(Path(p).is_file() for p in out["artifacts"])
    assert any(p.endswith("eos.png") for p in out["artifacts"])
    assert Path(out["report"]).read_text().startswith("# Lattice constant of Cu")
    assert out["parameters"]["element"] == "Cu"
    assert out["references"][0]["value"] == 3.61


def test_runs_show_inspect_and_graph(cli) -> None:
    _, first = cli("run", "equation of state of Al with EMT")
    code, runs = cli("runs")
    assert code == 0 and runs["runs"][0]["run_id"] == first["run_id"]
    assert runs["runs"][0]["status"] == "completed"
    code, shown = cli("show", first["run_id"][:17])
    assert code == 0
    assert [s["name"] for s in shown["steps"]] == [
        "BuildCrystal",
        "ScanVolumes",
        "FitEOS",
        "Report",
    ]
    assert shown["steps"][0]["structures"][0]["formula"] == "Al4"
    assert shown["engine_calls"][0]["engine"] == "ase"
    assert {a["kind"] for a in shown["artifacts"]} == {"structure", "table", "plot", "report"}
    results_h5 = next(p for p in first["artifacts"] if p.endswith("results.h5"))
    code, insp = cli("inspect", results_h5)
    assert code == 0 and insp["kind"] == "table"
    assert "a0" in insp["summary"] and "GPa" in insp["summary"] and len(insp["summary"]) < 2000
    code, g = cli("graph", "lattice_constant")
    assert code == 0 and "BuildCrystal --> ScanVolumes" in g["mermaid"]
    code, protos = cli("protocols")
    assert "lattice_constant" in [p["name"] for p in protos["protocols"]]


@pytest.mark.parametrize(
    ("request_text", "message"),
    [
        ("make me a sandwich", "did not understand"),
        ("lattice constant of fcc Xx with EMT", "unknown element 'Xx'"),
        ("lattice constant of bcc Fe with EMT", "EMT has no parameters for Fe"),
        ("lattice constant of Cu and Ag with EMT", "several elements"),
        ("lattice constant of Cu with EMT using 2 points", "n_points"),
    ],
)
def test_bad_requests_are_refused_before_any_compute(cli, request_text, message) -> None:
    code, out = cli("run", request_text)
    assert code == 2 and out["status"] == "error"
    assert message in out["error"]
    _, runs = cli("runs")
    assert runs["runs"] == []


def test_not_understood_lists_protocols_and_spec_files(cli) -> None:
    _, out = cli("run", "make me a sandwich")
    assert "lattice_constant" in out["error"] and "spec.yaml" in out["error"]


def test_spec_file_with_impossible_values_is_refused(cli, tmp_path: Path) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text("protocol: lattice_constant\nparameters: {element: Cu, strain_percent: -1}\n")
    code, out = cli("run", str(spec))
    assert code == 2 and "strain_percent" in out["error"]


@pytest.mark.parametrize("variable", ["wfcdir", "outdir", "prefix", "pseudo_dir"])
def test_pw_path_overrides_are_refused_before_a_run_exists(cli, tmp_path: Path, variable) -> None:
    spec, elsewhere = tmp_path / "dft.yaml", tmp_path / "elsewhere"
    spec.write_text(
        "protocol: dft_scf\nparameters:\n  structure: {kind: bulk, name: Si}\n"
        f"  overrides: {{control: {{{variable}: '{elsewhere}'}}}}\n"
    )
    code, out = cli("run", str(spec))
    assert code == 2 and variable in out["error"] and "simwright sets" in out["error"]
    _, runs = cli("runs")
    assert runs["runs"] == [] and not elsewhere.exists()


def test_engine_crash_is_recorded_and_the_run_failed(cli, tmp_path: Path) -> None:
    allow_test_calculators(tmp_path / "home")
    spec = tmp_path / "crash.yaml"
    spec.write_text(
        "protocol: lattice_constant\nparameters: {element: Cu, "
        "calculator: 'helpers.slowcalc:BrokenEMT'}\n"
    )
    code, out = cli("run", str(spec))
    assert code == 1 and out["status"] == "failed"
    assert "segmentation fault" in out["error"]
    _, shown = cli("show", out["run_id"])
    assert [s["status"] for s in shown["steps"]] == ["completed", "failed"]
    (call,) = shown["engine_calls"]
    assert call["exit_code"] == 1 and "segmentation fault" in call["stderr_tail"]


def test_unknown_run_is_a_clear_error(cli, tmp_path: Path) -> None:
    code, out = cli("show", "does-not-exist")
    assert code == 2 and "no simwright store at" in out["error"]
    from simwright.store import Store

    Store.at(tmp_path / "home" / "simwright.db").close()
    code, out = cli("show", "does-not-exist")
    assert code == 2 and "no run" in out["error"]


def test_help_is_fast_and_imports_no_engine() -> None:
    import subprocess

    code = (
        "import sys, simwright.cli.main; "
        "print(sorted(m for m in ('ase', 'h5py', 'sqlalchemy') if m in sys.modules))"
    )
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert proc.stdout.strip() == "[]"


def test_error_messages_keep_square_brackets() -> None:
    import typer

    from simwright.cli.common import handled
    from simwright.errors import SimwrightError

    tiny = typer.Typer()

    @tiny.command()
    @handled
    def fail(json_out: bool = False) -> None:
        raise SimwrightError("install the extra: pip install 'simwright[agents]'")

    result = CliRunner().invoke(tiny, [])
    assert result.exit_code == 2
    assert "simwright[agents]" in result.output.replace("\n", "")
