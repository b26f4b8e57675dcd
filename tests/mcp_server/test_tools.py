"""The MCP tools in-process: an SDK client connected to the server object, on a real
store and the real lattice_constant protocol (EMT).

The client lists the tools with their schemas, plans a request, reads a completed run
(status, results, files, a slice of its report), and gets tool errors — never a crash
— for a request nobody understands, a path leaving the run's directory, a run beyond
the limit of runs in flight, and a campaign decision on nothing.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult

from simwright.api import Campaigns, Simwright
from simwright.knowledge.docs.library import DocLibrary
from simwright.mcp_server.campaigns import CampaignTools
from simwright.mcp_server.knowledge import KnowledgeTools
from simwright.mcp_server.runs import Limits, RunTools
from simwright.mcp_server.server import Access, Tools, build_server, make_tools
from simwright.settings import Limits as SettingsLimits
from simwright.settings import Settings

REQUEST = "lattice constant of fcc Cu with EMT"


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Simwright]:
    settings = Settings(home=tmp_path_factory.mktemp("mcp") / "home", threads=1)
    a = Simwright(settings)
    a.run(REQUEST)  # one completed run to read
    yield a
    a.close()


def call(api: Simwright, name: str, args: dict[str, Any], **limits: Any) -> CallToolResult:
    """Call one tool through an SDK client connected in-process."""
    woken: list[int] = []
    server = build_server(make_tools(api, Limits(**limits), lambda: woken.append(1)), Access())

    async def go() -> CallToolResult:
        async with Client(server) as client:
            return await client.call_tool(name, args)

    return asyncio.run(go())


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def error(result: CallToolResult) -> str:
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    return text


def completed_run(api: Simwright) -> str:
    return str(api.runs()[-1]["run_id"])


def test_tools_are_listed_with_their_schemas(api: Simwright) -> None:
    server = build_server(make_tools(api, Limits(), lambda: None), Access())

    async def go() -> Any:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    tools = {t.name: t for t in asyncio.run(go())}
    assert set(tools) == {
        "plan",
        "run",
        "status",
        "results",
        "inspect",
        "cancel",
        "resume",
        "docs_search",
        "knowledge",
        "campaigns",
        "campaign_status",
        "campaign_trace",
        "campaign_reviews",
        "campaign_decide",
    }
    assert tools["run"].input_schema["properties"]["wait_s"]["maximum"] == 3600
    assert "run_id" in tools["status"].input_schema["required"]
    assert "given" in (tools["plan"].output_schema or {})["properties"]
    assert tools["results"].annotations is not None and tools["results"].annotations.read_only_hint


def test_plan_shows_given_and_assumed_parameters_and_the_cost(api: Simwright) -> None:
    plan = data(call(api, "plan", {"request": REQUEST}))
    assert plan["protocol"] == "lattice_constant" and plan["runnable"] is True
    assert {"element", "lattice", "calculator"} <= set(plan["given"])
    assert plan["given"]["element"]["value"] == "Cu"
    assert "n_points" in plan["assumed"] and plan["assumed"]["n_points"]["source"] != "given"
    assert plan["refusals"] == []
    assert plan["estimate"]["atoms"] >= 1 and plan["estimate"]["core_hours"] >= 0
    spec = {"protocol": "lattice_constant", "parameters": {"element": "Al", "lattice": "fcc"}}
    by_spec = data(call(api, "plan", {"spec": spec}))
    assert set(by_spec["given"]) == {"element", "lattice"}


def test_refused_requests_are_tool_errors(api: Simwright) -> None:
    before = len(api.runs())
    assert "did not understand" in error(call(api, "plan", {"request": "bake a cake"}))
    assert "exactly one" in error(call(api, "plan", {}))
    assert "did not understand" in error(call(api, "run", {"request": "bake a cake"}))
    spec = {"protocol": "no_such_protocol", "parameters": {}}
    assert "no_such_protocol" in error(call(api, "run", {"spec": spec}))
    assert error(call(api, "run", {"request": REQUEST, "wait_s": -1}))  # schema refuses
    assert len(api.runs()) == before  # nothing was created
    assert "no run" in error(call(api, "status", {"run_id": "nope"}))


def test_a_completed_run_is_read(api: Simwright) -> None:
    run_id = completed_run(api)
    status = data(call(api, "status", {"run_id": run_id}))
    assert status["status"] == "completed"
    names = [s["name"] for s in status["steps"]]
    assert names == ["BuildCrystal", "ScanVolumes", "FitEOS", "Report"]
    assert status["detail"] is None and status["events_total"] >= len(status["events"])
    results = data(call(api, "results", {"run_id": run_id}))
    a = results["values"]["lattice_constant"]
    assert a["unit"] == "Å" and a["value"] == pytest.approx(3.59, abs=0.01)  # EMT Cu
    listing = data(call(api, "inspect", {"run_id": run_id}))
    paths = [f["path"] for f in listing["files"]]
    table = next(p for p in paths if p.endswith("results.h5"))
    summary = data(call(api, "inspect", {"run_id": run_id, "path": table}))["summary"]
    assert "lattice_constant" in summary or "table" in summary
    report = next(p for p in paths if p.endswith(".md"))
    first = data(
        call(api, "inspect", {"run_id": run_id, "path": report, "content": True, "max_bytes": 40})
    )
    assert len(first["content"].encode()) <= 40 and first["next_offset"] == 40


def test_paths_leaving_the_run_directory_are_refused(api: Simwright) -> None:
    run_id = completed_run(api)
    run_dir = Path(api.get_run(run_id).workdir)
    os.symlink("/etc", run_dir / "out")
    try:
        for path in ("../../simwright.db", "/etc/passwd", "out/passwd", "steps/../../x"):
            text = error(call(api, "inspect", {"run_id": run_id, "path": path}))
            assert "Forbidden" in text, text
    finally:
        (run_dir / "out").unlink()
    assert "NotFound" in error(call(api, "inspect", {"run_id": run_id, "path": "nothing.txt"}))


def test_runs_in_flight_are_limited(api: Simwright) -> None:
    first = data(call(api, "run", {"request": REQUEST}, max_in_flight=1))
    assert first["status"] == "queued" and first["finished"] is False
    assert first["plan"]["protocol"] == "lattice_constant"
    text = error(call(api, "run", {"request": REQUEST}, max_in_flight=1))
    assert "at most 1" in text
    cancelled = data(call(api, "cancel", {"run_id": first["run_id"]}))
    assert cancelled["state"] == "cancelled"
    assert api.status(first["run_id"])["status"] == "cancelled"


def test_knowledge_modules(api: Simwright) -> None:
    listed = data(call(api, "knowledge", {}))["modules"]
    assert any(m["id"] == "lattice_constant_eos_ase" for m in listed)
    found = data(call(api, "knowledge", {"query": "self-diffusion liquid"}))["modules"]
    assert found[0]["protocol"] == "diffusivity"
    shown = data(call(api, "knowledge", {"module_id": "lattice_constant_eos_ase"}))["module"]
    assert shown["protocol"] == "lattice_constant" and shown["sections"] and shown["text"]
    assert "unknown knowledge module" in error(call(api, "knowledge", {"module_id": "nope"}))


def test_docs_search_says_how_to_install_missing_docs(api: Simwright) -> None:
    text = error(call(api, "docs_search", {"query": "pair style", "engine": "ase"}))
    assert "simwright docs install ase" in text


def test_campaign_decisions_on_nothing_are_refused(api: Simwright) -> None:
    assert data(call(api, "campaigns", {}))["campaigns"] == []
    args = {"campaign": "nope", "event": "1", "verdict": "reject"}
    assert "no campaign" in error(call(api, "campaign_decide", args))
    assert error(call(api, "campaign_decide", {"verdict": "reject"}))  # schema refuses


@pytest.mark.slow
def test_docs_search_ranks_installed_documentation(api: Simwright) -> None:
    docs = api.settings.home / "docs"
    library = DocLibrary(docs, lambda: None)  # words only: no embedding model
    library.install("ase")
    tools = Tools(
        RunTools(api),
        KnowledgeTools(docs, library),
        CampaignTools(Campaigns(api.settings, api.store)),
    )
    server = build_server(tools, Access())

    async def go() -> CallToolResult:
        async with Client(server) as client:
            args = {"query": "fit an equation of state", "engine": "ase", "mode": "bm25"}
            return await client.call_tool("docs_search", args)

    hits = data(asyncio.run(go()))["hits"]
    assert hits and hits[0]["page"].startswith("ase.eos")


def test_a_request_beyond_the_limits_is_planned_as_refused(api: Simwright) -> None:
    tight = Simwright(replace(api.settings, limits=SettingsLimits(max_core_hours=1e-12)))
    try:
        plan = data(call(tight, "plan", {"request": REQUEST}))
        assert plan["runnable"] is False and plan["given"]["element"]["value"] == "Cu"
        assert any("core-hours" in r for r in plan["refusals"]), plan["refusals"]
        assert plan["estimate"]["core_hours"] > 1e-12
        before = len(tight.runs())
        assert "PreflightError" in error(call(tight, "run", {"request": REQUEST}))
        assert len(tight.runs()) == before
    finally:
        tight.close()
