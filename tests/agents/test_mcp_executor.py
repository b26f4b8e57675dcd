"""External executors over MCP: the example structure server (examples/mcp_structures)
reached over stdio and streamable HTTP by the official MCP client; its tools offered to
the executor under the shared checked interface; what it returns turned into contract
files that pass the fabrication guard and the structure sanity check. The orchestrator
fetches a crystal and computes its EMT energy (models scripted on the wire by the test
server, the production provider clients, real ASE)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from pydantic_ai.messages import ModelResponse

from helpers.agents import block_network
from helpers.llm_server import WireRequest, serving
from helpers.paths import REPO
from helpers.service import free_port
from helpers.wire_replies import complete_energy, finish_all
from simwright.agents.execution.adapters_specs import AseAdapter
from simwright.agents.execution.mcp_adapter import McpAdapter, connect_mcp
from simwright.agents.orchestration.orchestrator import Orchestrator
from simwright.agents.scripted import call
from simwright.agents.setup.config import AgentSettings, McpServerConfig, ModelRef, RoleConfig
from simwright.agents.setup.providers import build_model
from simwright.knowledge.modules import load_modules
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store

pytest.importorskip("mcp", reason="the MCP SDK (simwright[mcp]) is not installed")
SERVER = REPO / "examples" / "mcp_structures" / "server.py"
OVERLAP_CIF = """data_overlap
_cell_length_a 4.0
_cell_length_b 4.0
_cell_length_c 4.0
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'P 1'
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Cu1 Cu 0.0 0.0 0.0
Cu2 Cu 0.05 0.0 0.0
"""


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch, loopback=True)


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's CIF folder plus a crystal whose atoms overlap."""
    root = tmp_path_factory.mktemp("cifs")
    for cif in (SERVER.parent / "cifs").glob("*.cif"):
        shutil.copyfile(cif, root / cif.name)
    (root / "overlap.cif").write_text(OVERLAP_CIF)
    return root


@pytest.fixture(scope="module")
def structures(collection: Path) -> McpAdapter:
    """The example server over stdio, its tools listed."""
    config = McpServerConfig(
        command=(sys.executable, str(SERVER), "--root", str(collection)),
        description="crystal structures from a local CIF collection",
    )
    return connect_mcp("structures", config)


FETCH = {
    "id": "fetch",
    "instruction": "Fetch the Cu crystal from the structure collection",
    "executor": "structures",
    "required_outputs": ["n_atoms"],
}
ENERGY = {
    "id": "energy",
    "instruction": "EMT single-point energy of the fetched crystal (fetch.extxyz)",
    "executor": "ase",
    "depends_on": ["fetch"],
    "required_outputs": ["energy"],
}


FETCH_SPEC = "tool: fetch_structure\narguments: "


def complete_fetch(request: WireRequest) -> ModelResponse:
    """complete_task with the atom count the run tool reported."""
    ran = request.last_tool_result("run")
    assert "fetch.extxyz: Cu4 (4 atoms)" in ran, ran
    n_atoms = {"value": 4, "unit": "", "source": "fetch.json", "quantity": "n_atoms"}
    a = {"value": 3.61, "unit": "Å", "source": "fetch.json", "quantity": "a_A"}
    return call("complete_task", outputs={"n_atoms": n_atoms, "a": a})


@pytest.mark.slow
def test_the_orchestrator_fetches_a_crystal_through_an_mcp_executor(
    settings: Settings, store: Store, structures: McpAdapter
) -> None:
    scripts = {
        "orch": [call("outline_plan", subtasks=[FETCH, ENERGY]), call("proceed"), finish_all],
        "exec": [
            call("write_script", name="fetch.yaml", content=f"{FETCH_SPEC}{{id: 5}}\n"),
            call("write_script", name="fetch.yaml", content=f"{FETCH_SPEC}{{id: Cu}}\n"),
            call("run", name="fetch.yaml"),
            complete_fetch,
            call(
                "write_script",
                name="sp.yaml",
                content="task: single_point\nstructure: {kind: file, path: fetch.extxyz}\n",
            ),
            call("run", name="sp.yaml"),
            complete_energy,
        ],
    }
    with serving(scripts) as server:  # the models on the wire, the tools over MCP
        cfg = AgentSettings(
            roles={
                "orchestrator": RoleConfig(
                    tiers=(ModelRef(name="openai:orch", base_url=server.openai_url),)
                ),
                "executor": RoleConfig(
                    tiers=(ModelRef(name="anthropic:exec", base_url=server.anthropic_url),)
                ),
            },
            api_keys={"openai": "sk-test", "anthropic": "sk-ant-test"},
        )
        out = Orchestrator(
            settings=cfg,
            factory=lambda ref: build_model(ref, cfg),
            store=store,
            sim_settings=settings,
            protocols=load_protocols(),
            modules=load_modules(),
            adapters={"ase": AseAdapter(), "structures": structures},
        ).run("EMT energy of the Cu crystal of the structure collection")

        assert out.status == "completed", out.error
    outline = server.requests("orch")[0].request.text()
    assert "structures: crystal structures from a local CIF collection" in outline
    executor = server.requests("exec")
    assert "fetch_structure(id: string)" in executor[0].request.text()  # the tools, described
    refused = executor[1].request.last_tool_result("write_script")
    assert "5 is not of type 'string'" in refused  # checked before anything is called
    fetched, energy = out.reports
    assert fetched.executor == "structures" and fetched.outputs["n_atoms"].quantity == "n_atoms"
    (crystal,) = [s for s in fetched.structures if s["file"].endswith("fetch.extxyz")]
    assert (crystal["formula"], crystal["n_close_pairs"]) == ("Cu4", 0)
    assert energy.outputs["energy"].value < 0  # the fetched crystal reached the ASE executor
    values = {v.name: v.value for v in out.answer.values}  # type: ignore[union-attr]
    assert values["n_atoms_fetch"] == 4 and values["a_fetch"] == pytest.approx(3.61)
    folder = settings.runs_path / fetched.folders[0] / "attempt1"
    assert json.loads((folder / "fetch.json").read_text())["cif"] == "fetch.cif"


def test_what_the_server_returns_is_checked(structures: McpAdapter, tmp_path: Path) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text("tool: delete_everything\narguments: {}\n")
    assert "unknown tool 'delete_everything'" in structures.check(spec, tmp_path).text
    spec.write_text("tool: fetch_structure\narguments: {id: overlap}\n")
    assert structures.check(spec, tmp_path).ok
    refused = structures.run(spec, tmp_path)
    assert not refused.ok and "closer than 0.55 Å" in refused.text
    assert not (tmp_path / "bad.extxyz").exists()  # nothing left for a later subtask
    spec.write_text("tool: fetch_structure\narguments: {id: Unobtainium}\n")
    missing = structures.run(spec, tmp_path)
    assert not missing.ok and "reported an error" in missing.text


@pytest.mark.slow
def test_an_mcp_server_over_streamable_http(collection: Path, tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(SERVER), "--root", str(collection), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        for _ in range(600):  # until it answers (slow starts on a loaded machine)
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        adapter = connect_mcp("structures", McpServerConfig(url=url, tools=("fetch_structure",)))
        assert [t.name for t in adapter.tools] == ["fetch_structure"]  # the allowlist holds
        spec = tmp_path / "si.yaml"
        spec.write_text("tool: fetch_structure\narguments: {id: Si}\n")
        result = adapter.run(spec, tmp_path)
        assert result.ok, result.text
        assert json.loads((tmp_path / "si.json").read_text())["n_atoms"] == 8
        assert (tmp_path / "si.extxyz").is_file()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
