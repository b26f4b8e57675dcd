"""Automatic ingestion: a run that completes is in the knowledge graph without
``simwright kg ingest`` (a real GFN2-xTB run of H2 through the command line, a real
mof_pores run through the runner), idempotently; switched off, the graph is left as
it was; a failing ingestion is a warning and leaves the run completed; the quick
commands still import no rdflib."""

from __future__ import annotations

import importlib.util
import json
import logging
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner
from typing_extensions import override

from helpers.engines import installed
from simwright.cli.main import app
from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.kg.auto import AutoIngest, completion_hooks
from simwright.kg.graphfile import GraphFile
from simwright.kg.query import run_query
from simwright.kg.templates import mofs_query
from simwright.protocols.mofs import pores
from simwright.protocols.mofs.params import MofParams
from simwright.settings import Settings, settings_at
from simwright.store import Store

pytest.importorskip("rdflib")

H2 = "thermochemistry of hydrogen with GFN2-xTB"
MOLECULE_VALUES = (
    "SELECT ?id ?smiles ?key ?v WHERE { ?m a sw:Molecule ; sw:smiles ?smiles ; sw:key ?key . "
    "?x sw:of ?m ; sw:quantity 'entropy' ; sw:value ?v . ?run sw:result ?x ; sw:runId ?id }"
)


@dataclass(frozen=True)
class Finish(Step):
    """A step that completes at once."""

    @override
    def run(self, ctx: RunContext) -> Done[str]:
        return Done("done")


FINISH = Graph.build("finish", [Finish])
FIXTURE = Path(__file__).parents[1] / "protocols" / "mofs" / "data" / "pcu_zn4o_bdc.cif"
needs_xtb = pytest.mark.skipif(
    not installed("xtb", "pyscf") or importlib.util.find_spec("geometric") is None,
    reason="needs the [molecules] extra",
)


def _env(home: Path, **more: str) -> dict[str, str]:
    return {"SIMWRIGHT_HOME": str(home), "SIMWRIGHT_THREADS": "1", **more}


def _cli(home: Path, *args: str, **env: str) -> dict:
    result = CliRunner().invoke(app, [*args, "--json"], env=_env(home, **env))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def h2_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, float]:
    """A home where one real GFN2-xTB run of H2 completed through ``simwright run``,
    the run's id and the entropy it reported."""
    home = tmp_path_factory.mktemp("auto") / "home"
    out = _cli(home, "run", H2)
    assert out["status"] == "completed"
    return home, out["run_id"], out["results"]["entropy"]["value"]


@needs_xtb
def test_a_completed_run_is_queried_without_an_ingest_command(
    h2_run: tuple[Path, str, float],
) -> None:
    h2_home, run_id, entropy = h2_run
    rows = _cli(h2_home, "kg", "query", MOLECULE_VALUES)["rows"]
    assert [(r["id"], r["smiles"], r["key"]) for r in rows] == [
        (run_id, "[H][H]", "UFHFLCQGNIYNRP-UHFFFAOYSA-N")
    ]
    # the same entropy the run reported, in the graph
    assert rows[0]["v"] == pytest.approx(entropy)
    conformers = _cli(
        h2_home,
        "kg",
        "query",
        "SELECT ?c WHERE { ?c a sw:Conformer ; sw:conformerOf ?m . ?m sw:smiles '[H][H]' }",
    )["rows"]
    assert conformers  # the optimised geometry files of the run

    before = GraphFile.in_home(h2_home).path.read_bytes()
    again = _cli(h2_home, "kg", "ingest", run_id)
    assert [a["run_id"] for a in again["added"]] == [run_id]
    assert GraphFile.in_home(h2_home).path.read_bytes() == before  # no duplicate triple


@needs_xtb
def test_switched_off_a_run_leaves_the_graph_as_it_was(h2_run: tuple[Path, str, float]) -> None:
    h2_home, first, _ = h2_run
    graph = GraphFile.in_home(h2_home).path
    before = graph.read_bytes()
    out = _cli(h2_home, "run", H2, SIMWRIGHT_KG_AUTO="0")
    assert out["status"] == "completed"
    assert graph.read_bytes() == before
    ids = {r["id"] for r in _cli(h2_home, "kg", "query", MOLECULE_VALUES)["rows"]}
    assert ids == {first}


@needs_xtb
def test_the_quick_commands_import_no_rdflib(h2_run: tuple[Path, str, float]) -> None:
    h2_home, run, _ = h2_run
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from simwright.cli.main import app\n"
        "r = CliRunner()\n"
        f"quick = (['version'], ['protocols'], ['runs'], ['show', {run!r}], ['plan', {H2!r}])\n"
        "for args in quick:\n"
        "    assert r.invoke(app, args).exit_code == 0, args\n"
        "print('rdflib' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**_env(h2_home), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert proc.stdout.strip() == "False"


@pytest.mark.skipif(not installed("zeo++"), reason="needs zeo++")
def test_a_mof_run_is_in_the_graph_when_the_runner_returns(
    store: Store, settings: Settings
) -> None:
    params = MofParams(cif=str(FIXTURE), samples_per_atom=200, grid_spacing_a=0.5)
    runner = Runner(store, settings, hooks=completion_hooks(settings))
    out = runner.start(pores.GRAPH, pores.start(params), protocol="mof_pores", params=params)
    assert out.status == "completed", out.error
    rows = run_query(GraphFile.in_home(settings.home).load(), mofs_query(None, 12.0)).as_dicts()
    assert [r["run"] for r in rows] == [out.run_id]
    assert rows[0]["cavity_a"] == pytest.approx(out.result.values["largest_included_sphere"].value)


def test_a_failing_ingestion_is_a_warning_and_the_run_stays_completed(
    store: Store, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the graph's folder should be")
    hook = AutoIngest(GraphFile(blocker / "results.nt"))
    with caplog.at_level(logging.WARNING, logger="simwright.graph.hooks"):
        out = Runner(store, settings, hooks=(hook,)).start(FINISH, Finish(), protocol="finish")
    assert out.status == "completed" and out.result == "done"
    assert store.get_run(out.run_id).status == "completed"
    assert any("knowledge-graph ingestion failed" in r.getMessage() for r in caplog.records)


def test_the_setting_is_read_from_the_file_and_the_environment(tmp_path: Path) -> None:
    assert settings_at(tmp_path, {}).kg_auto_ingest is True
    assert completion_hooks(settings_at(tmp_path, {}))
    (tmp_path / "config.toml").write_text("[kg]\nauto_ingest = false\n")
    assert settings_at(tmp_path, {}).kg_auto_ingest is False
    assert completion_hooks(settings_at(tmp_path, {})) == ()
    assert settings_at(tmp_path, {"SIMWRIGHT_KG_AUTO": "1"}).kg_auto_ingest is True
    assert settings_at(tmp_path.parent, {"SIMWRIGHT_KG_AUTO": "0"}).kg_auto_ingest is False
