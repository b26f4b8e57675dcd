"""The MCP server over its real transports: ``python -m simwright mcp`` spawned by the
SDK's stdio client, and ``simwright mcp --transport http`` (uvicorn) on a free port.

Each client lists the tools, plans a request, runs "lattice constant of fcc Cu with
EMT" to completion (the server's own worker pool executes it) and reads its results;
a bad request and a path escape come back as tool errors and the server keeps
answering. Over HTTP beyond the loopback a token is required, and its scopes hold.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from helpers.mcp import McpHttp
from helpers.service import cli
from simwright.api import Simwright
from simwright.settings import Settings

REQUEST = "lattice constant of fcc Cu with EMT"


async def exercise(client: Client) -> dict[str, Any]:
    """List, plan, refuse, run to completion, read: what every transport must do."""
    names = {t.name for t in (await client.list_tools()).tools}
    assert {"plan", "run", "status", "results", "inspect", "docs_search"} <= names
    plan = await client.call_tool("plan", {"request": REQUEST})
    assert not plan.is_error and plan.structured_content is not None
    assert plan.structured_content["runnable"] is True
    bad = await client.call_tool("run", {"request": "bake a cake"})
    assert bad.is_error and "did not understand" in bad.content[0].text  # type: ignore[union-attr]
    started = await client.call_tool("run", {"request": REQUEST, "wait_s": 240})
    assert not started.is_error, started.content
    run = started.structured_content
    assert run is not None and run["finished"] is True and run["status"] == "completed"
    a = run["results"]["values"]["lattice_constant"]
    assert a["value"] == pytest.approx(3.59, abs=0.01)  # EMT Cu (Jacobsen et al. 1996)
    escape = await client.call_tool("inspect", {"run_id": run["run_id"], "path": "../x"})
    assert escape.is_error and "Forbidden" in escape.content[0].text  # type: ignore[union-attr]
    status = await client.call_tool("status", {"run_id": run["run_id"]})
    assert status.structured_content is not None
    assert status.structured_content["queue"]["state"] == "done"
    return run


@pytest.mark.slow
def test_stdio_client_runs_a_request_to_its_results(tmp_path: Path) -> None:
    home = tmp_path / "home"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "simwright", "mcp", "--home", str(home)]
    )

    async def go() -> dict[str, Any]:
        async with Client(params, read_timeout_seconds=300) as client:
            return await exercise(client)

    run = asyncio.run(go())
    assert (home / "service" / "logs" / f"{run['run_id']}.log").is_file()  # its worker's log


@pytest.fixture
def http_home(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "home"


@pytest.mark.slow
def test_http_client_runs_a_request_to_its_results(http_home: Path) -> None:
    server = McpHttp(http_home).start()
    try:

        async def go() -> dict[str, Any]:
            async with Client(server.url, read_timeout_seconds=300) as client:
                return await exercise(client)

        asyncio.run(go())
    finally:
        server.stop()


def test_http_beyond_the_loopback_needs_a_token_with_the_scope(http_home: Path) -> None:
    refused = cli(http_home, "mcp", "--transport", "http", "--host", "0.0.0.0", "--port", "1")
    assert refused.returncode == 2 and "token" in refused.stderr
    token = cli(http_home, "serve-token", "reader", "--scope", "read").stdout.strip()
    server = McpHttp(http_home, host="0.0.0.0").start()
    try:
        anonymous = httpx.post(server.url, json={}, timeout=30)
        assert anonymous.status_code == 401
        wrong = httpx.post(server.url, json={}, headers={"Authorization": "Bearer x"}, timeout=30)
        assert wrong.status_code == 401

        async def go() -> tuple[bool, str]:
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
                transport = streamable_http_client(server.url, http_client=http)
                async with Client(transport) as client:
                    plan = await client.call_tool("plan", {"request": REQUEST})
                    assert not plan.is_error, plan.content
                    run = await client.call_tool("run", {"request": REQUEST})
                    return run.is_error, run.content[0].text  # type: ignore[union-attr]

        is_error, text = asyncio.run(go())
        assert is_error and "lacks the scope 'run'" in text
    finally:
        server.stop()
    api = Simwright(Settings(home=http_home))
    assert api.runs() == []  # the refused run created nothing
    api.close()
