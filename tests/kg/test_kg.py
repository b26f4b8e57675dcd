"""The knowledge graph of results: completed runs ingested from a real store (a real
mof_pores run on a CIF file, plus runs of a test-only graph that publishes given
values under a protocol's name and parameters), then found again with SPARQL."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner
from typing_extensions import override

from helpers.engines import installed
from simwright.cli.main import app
from simwright.errors import ValidationError
from simwright.graph import Done, Graph, RunContext, Runner, Step
from simwright.kg.descriptors import load_descriptors
from simwright.kg.graphfile import GraphFile
from simwright.kg.ingest import ingest
from simwright.kg.query import run_query
from simwright.kg.templates import mofs_query
from simwright.protocols.mofs import pores
from simwright.protocols.mofs.params import MofParams
from simwright.results import ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.store import Store
from simwright.structure import Structure

pytest.importorskip("rdflib")

FIXTURE = Path(__file__).parents[1] / "protocols" / "mofs" / "data" / "pcu_zn4o_bdc.cif"


class MoleculeParams(BaseModel):
    """Parameters of a molecular run as the molecules protocols name them."""

    model_config = ConfigDict(frozen=True)
    smiles: str
    name: str = ""


@dataclass(frozen=True)
class Publish(Step):
    """End with the given values (value, unit) and, optionally, a recorded conformer."""

    values: tuple[tuple[str, float, str], ...]
    conformer: Structure | None = None
    fail: bool = False

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        if self.fail:
            raise ValidationError("this run fails on purpose")
        files = ()
        if self.conformer is not None:
            files = (ctx.structure(self.conformer, "conformer.extxyz"),)
        values = {n: Quantity(v, u) for n, v, u in self.values}
        return Done(ProtocolResult(values, files, "published"))


PUBLISH = Graph.build("publish", [Publish])


def _publish(runner: Runner, protocol: str, params: BaseModel, step: Publish) -> str:
    return runner.start(PUBLISH, step, protocol=protocol, params=params).run_id


@pytest.fixture
def home(store: Store, settings: Settings) -> Settings:
    runner = Runner(store, settings)
    pcu = MofParams(topology="pcu", nodes=("Zn4O",), linker="BDC", name="pcu-MOF")
    _publish(runner, "mof_pores", pcu, Publish((("largest_included_sphere", 12.75, "Å"),)))
    small = MofParams(topology="pcu", nodes=("N16",), linker="E14")  # the same recipe
    _publish(runner, "mof_pores", small, Publish((("largest_included_sphere", 8.0, "Å"),)))
    water = Structure(("O", "H", "H"), np.array([[0, 0, 0], [0.96, 0, 0], [-0.24, 0.93, 0]]))
    _publish(
        runner,
        "molecule_energy",
        MoleculeParams(smiles="O", name="water"),
        Publish((("energy", -76.4, "Eh"),), conformer=water),
    )
    runner.start(PUBLISH, Publish((), fail=True), protocol="mof_pores", params=pcu)
    if installed("zeo++"):
        params = MofParams(cif=str(FIXTURE), samples_per_atom=200, grid_spacing_a=0.5)
        out = runner.start(pores.GRAPH, pores.start(params), protocol="mof_pores", params=params)
        assert out.status == "completed", out.error
    return settings


def test_runs_are_ingested_with_values_units_files_and_entities(
    home: Settings, store: Store
) -> None:
    graph_file = GraphFile.in_home(home.home)
    done = ingest(store, graph_file, [], load_descriptors())
    assert len(done.added) == (4 if installed("zeo++") else 3)
    assert [why for _, why in done.skipped] == ["status failed"]
    again = ingest(store, graph_file, [], load_descriptors())
    assert again.triples == done.triples  # stable identifiers: nothing new
    g = graph_file.load()

    # "MOFs of topology pcu with a largest cavity above 10 Å"
    table = run_query(g, mofs_query("pcu", 10.0))
    assert [(r["topology"], r["cavity_a"]) for r in table.as_dicts()] == [("pcu", 12.75)]
    # both pcu runs name one MOF (Zn4O = N16, BDC = E14): two measurements of it
    both = run_query(g, mofs_query("pcu"))
    assert len({r["mof"] for r in both.as_dicts()}) == 1 and len(both.rows) == 2
    blocks = run_query(
        g,
        "SELECT ?name ?cn WHERE { ?m a sw:MOF ; sw:node ?b . ?b rdfs:label ?name ; "
        "sw:connectivity ?cn }",
    )
    assert blocks.rows == (("Zn4O", 6),)

    molecule = run_query(
        g,
        "SELECT ?key ?smiles ?unit (COUNT(?c) AS ?n) WHERE { ?mol a sw:Molecule ; sw:key ?key ;"
        " sw:smiles ?smiles . ?m sw:of ?mol ; sw:unit ?unit . ?c sw:conformerOf ?mol } "
        "GROUP BY ?key ?smiles ?unit",
    )
    assert molecule.as_dicts() == [
        {"key": "XLYOFNOQVPJJNP-UHFFFAOYSA-N", "smiles": "O", "unit": "Eh", "n": 1}
    ]
    files = run_query(
        g, "SELECT ?sha WHERE { ?f a sw:File ; sw:kind 'structure' ; sw:sha256 ?sha }"
    )
    recorded = {a.sha256 for r in store.list_runs(10) for a in store.artifacts(r.id)}
    assert {row[0] for row in files.rows} <= recorded


@pytest.mark.skipif(not installed("zeo++"), reason="needs zeo++")
def test_a_cif_mof_is_keyed_by_its_file_and_its_pores_queried(home: Settings, store: Store) -> None:
    graph_file = GraphFile.in_home(home.home)
    ingest(store, graph_file, [], load_descriptors())
    rows = run_query(graph_file.load(), mofs_query(None, 12.0)).as_dicts()
    from_cif = [r for r in rows if r["topology"] is None]
    assert len(from_cif) == 1 and from_cif[0]["cavity_a"] == pytest.approx(12.75, abs=0.02)
    sha = run_query(
        graph_file.load(),
        "SELECT ?k WHERE { ?m a sw:MOF ; sw:source 'CIF' ; sw:key ?k }",
    ).rows[0][0]
    assert sha == __import__("hashlib").sha256(FIXTURE.read_bytes()).hexdigest()

    # a later run of the same file finds the earlier measurement in the graph
    first = from_cif[0]["run"]
    params = MofParams(cif=str(FIXTURE), samples_per_atom=200, grid_spacing_a=0.5)
    out = Runner(store, home).start(pores.GRAPH, pores.start(params), protocol="mof_pores")
    assert out.status == "completed", out.error
    report = next(a for a in out.result.artifacts if a.kind == "report")
    text = (home.runs_path / out.run_id / report.path).read_text(encoding="utf-8")
    assert "Measured before (knowledge graph" in text and f"run {first}: 12.75 Å" in text


def test_the_command_line_ingests_and_answers_in_json(home: Settings) -> None:
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(home.home)}
    made = runner.invoke(app, ["kg", "ingest", "--json"], env=env)
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["skipped"][0]["reason"] == "status failed"
    answer = runner.invoke(
        app, ["kg", "mofs", "--topology", "pcu", "--min-cavity", "10", "--json"], env=env
    )
    assert answer.exit_code == 0, answer.output
    assert [r["cavity_a"] for r in json.loads(answer.stdout)["rows"]] == [12.75]
    words = runner.invoke(
        app,
        ["kg", "mofs", "MOFs of topology pcu with a largest cavity above 10 Å", "--json"],
        env=env,
    )
    assert [r["cavity_a"] for r in json.loads(words.stdout)["rows"]] == [12.75]
    odd = runner.invoke(app, ["kg", "mofs", "MOFs of topology pcu at 300 K"], env=env)
    assert odd.exit_code == 2 and "the number 300" in odd.output
    bad = runner.invoke(app, ["kg", "query", "SELECT ?x WHERE {"], env=env)
    assert bad.exit_code == 2 and "not a valid SPARQL query" in bad.output
    update = runner.invoke(
        app, ["kg", "query", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"], env=env
    )
    assert update.exit_code == 2 and "only SELECT and ASK" in update.output


def test_a_query_before_any_ingestion_says_how_to_make_the_graph(tmp_path: Path) -> None:
    answer = CliRunner().invoke(
        app, ["kg", "query", "ASK { ?s ?p ?o }"], env={"SIMWRIGHT_HOME": str(tmp_path)}
    )
    assert answer.exit_code == 2 and "simwright kg ingest" in answer.output
    assert not list(tmp_path.iterdir())  # a read-only command creates nothing
