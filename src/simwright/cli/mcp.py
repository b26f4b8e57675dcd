"""``simwright mcp``: simwright's runs, documentation and reviews as MCP tools.

stdio (the default) is for a client that starts the server itself (Claude Desktop,
an IDE, an agent framework); ``--transport http`` serves streamable HTTP on
``--host``/``--port`` (beyond the loopback only with a token, as ``simwright serve``).
stdout belongs to the protocol over stdio: messages go to stderr.
"""

from __future__ import annotations

import sys
from typing import Annotated, Literal, cast

import typer

from simwright.cli.common import HomeOpt, err, handled, settings_for


@handled
def mcp(
    transport: Annotated[str, typer.Option(help="stdio (default) or http.")] = "stdio",
    host: Annotated[
        str, typer.Option(help="HTTP: address to bind; beyond the loopback a token is required.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="HTTP: TCP port.")] = 8643,
    workers: Annotated[int, typer.Option(min=1, max=64, help="Runs executed at once.")] = 2,
    home: HomeOpt = None,
) -> None:
    """Serve the MCP tools (plan, run, status, results, inspect, cancel, resume,
    docs_search, knowledge, and the campaigns': campaigns, campaign_status,
    campaign_trace, campaign_reviews, campaign_decide) over stdio or streamable HTTP
    (path /mcp)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/ (and the mcp SDK is optional)
    from simwright.errors import ParseError, SimwrightError
    from simwright.service.config import check_binding, load_service_config

    try:
        # lazy: the mcp SDK is the optional extra simwright[mcp]
        from simwright.mcp_server.main import McpOptions, serve_mcp
    except ModuleNotFoundError as exc:
        if exc.name not in ("mcp", "mcp_types", "uvicorn"):
            raise
        raise SimwrightError(
            f"the MCP server needs the mcp extra ({exc.name} is missing): "
            "pip install 'simwright[mcp]'"
        ) from exc

    if transport not in ("stdio", "http"):
        raise ParseError(f"--transport must be stdio or http, not {transport!r}")
    settings = settings_for(home)
    if transport == "http":
        check_binding(host, load_service_config(settings.home))  # refused before any output
        err.print(f"simwright MCP server on http://{host}:{port}/mcp", highlight=False)
    home_dir = settings.home

    def argv(run_id: str, choose: str | None) -> list[str]:
        cmd = [sys.executable, "-m", "simwright", "worker", run_id, "--home", str(home_dir)]
        return [*cmd, "--choose", choose] if choose else cmd

    options = McpOptions(
        transport=cast(Literal["stdio", "http"], transport), host=host, port=port, workers=workers
    )
    serve_mcp(settings, options, argv)
