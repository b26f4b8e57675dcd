"""``simwright run`` refuses before any run exists (exit 2), and engine calls get a wall-time
limit: the probes of the hardening issue, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simwright.cli.main import app


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def _run(home: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, [*args, "--json"], env={"SIMWRIGHT_HOME": str(home)})
    return result.exit_code, json.loads(result.stdout)


def _spec(tmp_path: Path, text: str) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    return str(path)


def _no_run_exists(home: Path) -> None:
    assert not (home / "runs").exists() or not any((home / "runs").iterdir())
    _, runs = _run(home, "runs")
    assert runs["runs"] == []


def test_a_spec_cannot_make_simwright_run_a_command(home: Path, tmp_path: Path) -> None:
    witness = tmp_path / "witness"
    spec = _spec(
        tmp_path,
        "protocol: lattice_constant\nparameters:\n  element: Cu\n"
        "  calculator: 'subprocess:Popen'\n"
        f"  calculator_kwargs: {{args: [sh, -c, 'id > {witness}']}}\n",
    )
    code, out = _run(home, "run", spec)
    assert code == 2 and out["error_type"] == "PreflightError"
    assert "unknown calculator 'subprocess:Popen'; allowed: emt, lj" in out["error"]
    assert not witness.exists()
    _no_run_exists(home)


def test_a_huge_trajectory_is_refused_with_its_estimate(home: Path, tmp_path: Path) -> None:
    spec = _spec(
        tmp_path, "protocol: diffusivity\nparameters: {production_ps: 1.0e6, dump_interval_fs: 5}\n"
    )
    code, out = _run(home, "run", spec)
    assert code == 2
    assert "estimated output" in out["error"] and "exceeds the limit of 20 GB" in out["error"]
    est = out["preflight"]["estimate"]
    assert est["output_bytes"] > 1e12 and est["core_hours"] > 48
    assert any("DCD frames" in line for line in est["basis"])
    _no_run_exists(home)


def test_an_infinite_guess_is_refused(home: Path, tmp_path: Path) -> None:
    spec = _spec(
        tmp_path, "protocol: lattice_constant\nparameters: {element: Cu, a_guess_a: .inf}\n"
    )
    code, out = _run(home, "run", spec)
    assert code == 2 and "a_guess_a: inf is not a finite number" in out["error"]
    _no_run_exists(home)


def test_missing_engines_are_named_with_how_to_install(home: Path) -> None:
    (home / "config.toml").write_text(
        '[engines]\nlmp = "/nonexistent/lmp"\n"pw.x" = "/nonexistent/pw.x"\n'
    )
    code, out = _run(home, "run", "self-diffusion coefficient of SPC/E water at 298 K")
    assert code == 2 and "'lmp' is missing" in out["error"]
    assert "pip install 'simwright[md]'" in out["error"]
    code, out = _run(home, "run", "SCF of bulk Si with PBE")
    assert code == 2 and "'pw.x' is missing" in out["error"]
    assert "apt-get install quantum-espresso" in out["error"]
    _no_run_exists(home)


def test_limits_from_config_toml_refuse_the_demo(home: Path) -> None:
    (home / "config.toml").write_text("[limits]\nmax_core_hours = 0.001\n")
    code, out = _run(home, "run", "self-diffusion coefficient of SPC/E water at 298 K")
    assert code == 2 and "exceed the limit of 0.001 ([limits] max_core_hours)" in out["error"]
    _no_run_exists(home)


def test_plan_shows_the_estimate(home: Path) -> None:
    code, out = _run(home, "plan", "self-diffusion coefficient of SPC/E water at 298 K")
    assert code == 0 and out["preflight"]["ok"]
    assert out["preflight"]["estimate"]["atoms"] == 648


def test_an_engine_call_over_its_wall_time_limit_is_stopped(home: Path, tmp_path: Path) -> None:
    (home / "config.toml").write_text("[limits]\nengine_walltime_s = 2\n")
    spec = _spec(
        tmp_path,
        "protocol: diffusivity\nparameters: {system: lj_argon, n_molecules: 500, "
        "equilibration_ps: 5000, production_ps: 10}\n",
    )
    code, out = _run(home, "run", spec)
    assert code == 1 and out["status"] == "failed"
    assert out["preflight"]["call_limit_s"] == 2.0
    assert "timed out" in out["error"]
    _, shown = _run(home, "show", out["run_id"])
    assert shown["engine_calls"][-1]["engine"] == "lammps"
    assert shown["engine_calls"][-1]["exit_code"] == 124
