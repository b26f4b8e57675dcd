"""Machine output of the command line: one strict JSON object on stdout, full ids, decisions."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from helpers.paths import TESTS
from simwright.cli.main import app
from simwright.engines.ase.mlip import mlip_available
from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.results import ProtocolResult, Quantity
from simwright.settings import load_settings
from simwright.store import Store
from simwright.structure import Structure


def _no_constants(name: str) -> None:
    raise ValueError(f"not strict JSON: {name}")


def strict(text: str) -> dict:
    """Parse ``text`` as exactly one strict JSON object (no NaN, no Infinity)."""
    return json.loads(text, parse_constant=_no_constants)


@dataclass(frozen=True)
class Isolate(Step):
    """A lone atom (its nearest neighbour is infinitely far) and a ratio that diverges."""

    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        ctx.structure(Structure(("Ar",), np.zeros((1, 3))))
        ctx.rule("diverged", "the ratio has no finite value")
        return Done(ProtocolResult({"ratio": Quantity(math.inf, "1")}, summary="diverged"))


GRAPH = Graph.build("isolate", [Isolate])


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def _run_isolate(home: Path) -> str:
    settings = load_settings({"SIMWRIGHT_HOME": str(home)})
    home.mkdir(parents=True, exist_ok=True)
    outcome = Runner(Store(settings.db_url), settings).start(
        GRAPH, Isolate(), protocol="isolate", request="an atom alone"
    )
    assert outcome.status == "completed"
    return outcome.run_id


def _invoke(home: Path, *args: str, columns: int | None = None) -> tuple[int, str]:
    env = {"SIMWRIGHT_HOME": str(home)}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    result = CliRunner().invoke(app, list(args), env=env)
    return result.exit_code, result.stdout


def test_show_json_is_strict_with_infinite_values_and_lists_rule_decisions(home: Path) -> None:
    run_id = _run_isolate(home)
    code, text = _invoke(home, "show", run_id, "--json")
    assert code == 0
    shown = strict(text)
    assert shown["result"]["values"]["ratio"]["value"] is None
    assert shown["non_finite"]["result.values.ratio.value"] == "inf"
    assert shown["steps"][0]["structures"][0]["min_distance_A"] is None
    (decision,) = shown["decisions"]
    assert decision["kind"] == "rule" and decision["decided_by"] == "rule:diverged"
    assert decision["chosen"] == "Done" and "no finite value" in decision["rationale"]


def test_runs_table_at_80_columns_keeps_whole_ids(home: Path) -> None:
    ids = [_run_isolate(home) for _ in range(2)]
    code, text = _invoke(home, "runs", columns=80)
    assert code == 0
    assert all(rid in text for rid in ids)
    assert max(len(line) for line in text.splitlines()) <= 80


def test_version_plain_and_json(home: Path) -> None:
    from simwright import __version__

    code, text = _invoke(home, "version")
    assert code == 0 and text.strip() == __version__
    code, text = _invoke(home, "version", "--json")
    data = strict(text)
    assert code == 0 and data["simwright"] == __version__ and data["python"]


def test_refusal_with_json_is_one_json_object(home: Path) -> None:
    code, text = _invoke(home, "show", "no-such-run", "--json")
    assert code == 2
    assert strict(text)["status"] == "error"


SPEC = """protocol: lattice_constant
parameters:
  element: Si
  lattice: diamond
  n_points: 5
  calculator: {calculator}
"""


@pytest.mark.parametrize("calculator", ["chgnet", "sevennet"])
def test_run_json_with_a_machine_learned_potential_prints_only_json(
    tmp_path: Path, calculator: str
) -> None:
    """CHGNet prints a banner on stdout when it loads; it must not reach the JSON."""
    if not mlip_available(calculator):
        pytest.skip("extra simwright[mlip] not installed")
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.format(calculator=calculator))
    env = dict(os.environ, SIMWRIGHT_HOME=str(tmp_path / "home"))
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-m", "simwright", "run", str(spec), "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = strict(proc.stdout)
    assert data["status"] == "completed"
    assert data["results"]["lattice_constant"]["value"] == pytest.approx(5.4, abs=0.2)
