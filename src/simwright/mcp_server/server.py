"""The MCP server: the tools, their typed arguments, scopes and refusals.

:func:`build_server` registers each tool on an :class:`~mcp.server.mcpserver.MCPServer`
(the official SDK). A tool's arguments are typed (the SDK derives the input schema);
its answer is a pydantic model (the output schema). A refused request — words the
planner cannot map, a preflight refusal, a path leaving the run's directory, an
unknown run — comes back as a tool error (``isError``) with simwright's message and
changes nothing stored. Over HTTP each tool also checks the caller's token for its
scope (``read``, ``run`` or ``review``), as the service's routes do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

import anyio
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from simwright import __version__
from simwright.api import Simwright, Spec
from simwright.api.campaigns import Campaigns
from simwright.knowledge.docs.retrieval import Mode
from simwright.mcp_server.access import READ, WRITE, Access, refusals
from simwright.mcp_server.campaign_tools import register_campaign_tools
from simwright.mcp_server.campaigns import CampaignTools
from simwright.mcp_server.knowledge import DocHits, Knowledge, KnowledgeTools
from simwright.mcp_server.models import (
    Inspection,
    PlanView,
    RunAction,
    RunResults,
    RunStarted,
    RunStatus,
)
from simwright.mcp_server.runs import Limits, RunTools

INSTRUCTIONS = """simwright runs atomistic simulations (LAMMPS, ASE, PACKMOL, pw.x) from a
request in words or a spec, and records every step. Call `plan` first: it shows which
parameters the request stated (given) and which are defaults (assumed), any refusal,
and the estimated cost. `run` queues a run and returns its id (it can wait for a
small run); `status`, `results` and `inspect` read it. `knowledge` and `docs_search`
look up the expert procedures and the engines' documentation. `campaigns`,
`campaign_status`, `campaign_trace` and `campaign_reviews` read campaigns (the grid of
systems × conditions, a state's segments, review events with their evidence);
`campaign_decide` approves, rejects or chooses an action on a review event."""

RunId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$", description="A run id.")]
Words = Annotated[
    str | None,
    Field(default=None, min_length=1, max_length=2000, description="The request in words."),
]
SpecArg = Annotated[
    Spec | None, Field(default=None, description="Instead of words: protocol and parameters.")
]


@dataclass(frozen=True)
class Tools:
    """What the server's tools call."""

    runs: RunTools
    knowledge: KnowledgeTools
    campaigns: CampaignTools


def make_tools(api: Simwright, limits: Limits, wake: Callable[[], None]) -> Tools:
    """The tools of one home's API."""
    return Tools(
        RunTools(api, limits, wake),
        KnowledgeTools(api.settings.home / "docs"),
        CampaignTools(Campaigns(api.settings, api.store)),
    )


def build_server(tools: Tools, access: Access) -> MCPServer:
    """The MCP server with simwright's tools."""
    server = MCPServer(
        "simwright",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    _run_tools(server, tools.runs, access)
    _reference_tools(server, tools.knowledge, access)
    register_campaign_tools(server, tools.campaigns, access)
    return server


def _run_tools(server: MCPServer, runs: RunTools, access: Access) -> None:
    @server.tool(annotations=READ)
    def plan(ctx: Context, request: Words = None, spec: SpecArg = None) -> PlanView:
        """How a request (words, or a spec) is understood: protocol, given and assumed
        parameters, how each stated choice is honoured, the inputs a run would build,
        the estimated cost (atoms, steps, core-hours) and any refusal. Creates nothing."""
        access.check(ctx, "read")
        with refusals():
            return runs.plan(request, spec)

    @server.tool(annotations=WRITE)
    async def run(
        ctx: Context,
        request: Words = None,
        spec: SpecArg = None,
        wait_s: Annotated[
            float,
            Field(ge=0, le=3600, description="Wait this long for a small run to finish."),
        ] = 0.0,
    ) -> RunStarted:
        """Plan a request and queue its run; returns the run id at once, or, with
        `wait_s`, after the run finished (only for runs estimated small; the wait is
        capped). A refused request creates nothing."""
        access.check(ctx, "run")
        with refusals():
            run_id, view = await anyio.to_thread.run_sync(lambda: runs.submit(request, spec))
            allowed, note = runs.wait_for(view, wait_s)
            start = runs.clock()
            while runs.clock() - start < allowed:
                if await anyio.to_thread.run_sync(lambda: runs.api.finished(run_id)):
                    break
                await anyio.sleep(0.25)
            waited = runs.clock() - start if allowed else 0.0
            return await anyio.to_thread.run_sync(lambda: runs.started(run_id, view, waited, note))

    @server.tool(annotations=READ)
    def status(
        ctx: Context,
        run_id: RunId,
        detail: Annotated[bool, Field(description="Everything recorded, too.")] = False,
    ) -> RunStatus:
        """A run now: status, steps, recent events, queue state, open decision point."""
        access.check(ctx, "read")
        with refusals():
            return runs.status(run_id, detail)

    @server.tool(annotations=READ)
    def results(ctx: Context, run_id: RunId) -> RunResults:
        """A run's values (with units, uncertainties and source files), summary,
        references and recorded files."""
        access.check(ctx, "read")
        with refusals():
            return runs.results(run_id)

    @server.tool(annotations=READ)
    def inspect(
        ctx: Context,
        run_id: RunId,
        path: Annotated[
            str | None,
            Field(
                default=None,
                max_length=1024,
                description="A file of the run, relative to its directory; none: list them.",
            ),
        ] = None,
        content: Annotated[bool, Field(description="Return a slice of its text too.")] = False,
        offset: Annotated[int, Field(ge=0, description="Where the slice starts (bytes).")] = 0,
        max_bytes: Annotated[int, Field(ge=1, le=262_144, description="Slice size.")] = 16_384,
    ) -> Inspection:
        """A summary of one of a run's files (tables, structures, trajectories, logs),
        or the list of its files; paths leaving the run's directory are refused."""
        access.check(ctx, "read")
        with refusals():
            if path is None:
                return runs.files(run_id)
            return runs.inspect(run_id, path, content, offset, max_bytes)

    @server.tool(annotations=WRITE)
    def cancel(ctx: Context, run_id: RunId) -> RunAction:
        """Cancel a queued run, or stop a running one (it can be resumed)."""
        access.check(ctx, "run")
        with refusals():
            return runs.cancel(run_id)

    @server.tool(annotations=WRITE)
    def resume(
        ctx: Context,
        run_id: RunId,
        choose: Annotated[
            str | None,
            Field(default=None, max_length=128, description="Answer its pending decision."),
        ] = None,
    ) -> RunAction:
        """Queue an interrupted, failed or waiting run to continue from its last step;
        `choose` answers its pending decision point (scope review)."""
        access.check(ctx, "run")
        if choose is not None:
            access.check(ctx, "review")
        with refusals():
            return runs.resume(run_id, choose)


def _reference_tools(server: MCPServer, knowledge: KnowledgeTools, access: Access) -> None:
    @server.tool(annotations=READ)
    def docs_search(
        ctx: Context,
        query: Annotated[str, Field(min_length=1, max_length=500, description="In words.")],
        engine: Annotated[
            str, Field(max_length=32, description="lammps, ase, freud, mdanalysis or pwx.")
        ] = "lammps",
        k: Annotated[int, Field(ge=1, le=20, description="How many pages.")] = 5,
        mode: Mode = "hybrid",
    ) -> DocHits:
        """Search an engine's installed documentation (words and embeddings fused)."""
        access.check(ctx, "read")
        with refusals():
            return knowledge.docs_search(query, engine, k, mode)

    @server.tool(name="knowledge", annotations=READ)
    def knowledge_modules(
        ctx: Context,
        module_id: Annotated[
            str | None, Field(default=None, max_length=128, description="Show this module.")
        ] = None,
        section: Annotated[
            str | None, Field(default=None, max_length=200, description="Only this section.")
        ] = None,
        query: Annotated[
            str | None, Field(default=None, max_length=500, description="Rank modules for this.")
        ] = None,
    ) -> Knowledge:
        """The expert knowledge modules (procedure, parameters, references, the protocol
        that runs each): all of them, those matching `query`, or one (`module_id`)."""
        access.check(ctx, "read")
        with refusals():
            return knowledge.knowledge(module_id, section, query)
