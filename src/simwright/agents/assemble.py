"""Assembling an orchestrator from the configuration, at the edge (CLI, service, benchmark)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from simwright.agents.execution.adapters import (
    EngineAdapter,
    LammpsAdapter,
    PackmolAdapter,
    PwAdapter,
)
from simwright.agents.execution.adapters_specs import AnalysisAdapter, AseAdapter
from simwright.agents.execution.examples import KnowledgeMemory
from simwright.agents.execution.mcp_adapter import connect_mcp
from simwright.agents.hooks import model_decider
from simwright.agents.orchestration.clarify import Clarifier, NoClarifier
from simwright.agents.orchestration.orchestrator import Orchestrator
from simwright.agents.setup.bundle import ModelFactory
from simwright.agents.setup.config import AgentSettings, ModelRef
from simwright.agents.setup.providers import build_model
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.lammps.launcher import LammpsLauncher
from simwright.engines.packmol import PackmolLauncher
from simwright.errors import EngineError
from simwright.knowledge.docs.library import DocLibrary
from simwright.knowledge.memory.episodic import MemoryStore
from simwright.knowledge.modules import load_modules
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store

if TYPE_CHECKING:
    from pydantic_ai.models import Model


def default_adapters(agent: AgentSettings, settings: Settings) -> dict[str, EngineAdapter]:
    """An adapter per engine; LAMMPS, PACKMOL and pw.x only when installed (located as
    their launchers locate them: ``[engines]`` of the settings, the venv, ``PATH``); one
    per configured MCP server (``[agents.mcp.NAME]``), reached now to list its tools."""
    adapters: dict[str, EngineAdapter] = {"ase": AseAdapter(), "analysis": AnalysisAdapter()}
    threads = settings.threads or 1
    with contextlib.suppress(EngineError):
        adapters["lammps"] = LammpsAdapter(
            LammpsLauncher.from_settings(settings).executable,
            max_steps=agent.max_md_steps,
            timeout_s=agent.engine_timeout_s,
            threads=threads,
        )
    with contextlib.suppress(EngineError):
        packmol = PackmolLauncher.from_settings(settings).executable
        adapters["packmol"] = PackmolAdapter(packmol, timeout_s=agent.engine_timeout_s)
    pw = PwLauncher.from_settings(settings)
    if pw.available():
        adapters["pwx"] = PwAdapter(pw.executable, timeout_s=agent.engine_timeout_s)
    for name, server in agent.mcp.items():  # external executors: their tools listed now
        adapters[name] = connect_mcp(name, server)
    return adapters


def build_orchestrator(
    agent: AgentSettings,
    settings: Settings,
    store: Store,
    *,
    factory: ModelFactory | None = None,
    clarifier: Clarifier | None = None,
    knowledge_dir: Path | None = None,
) -> Orchestrator:
    """The production orchestrator: registered protocols, shipped modules, installed
    engines, installed documentation, the home's episodic memory."""

    def production(ref: ModelRef) -> Model:
        return build_model(ref, agent)

    return Orchestrator(
        settings=agent,
        factory=factory or production,
        store=store,
        sim_settings=settings,
        protocols=load_protocols(),
        modules=load_modules(),
        adapters=default_adapters(agent, settings),
        clarifier=clarifier or NoClarifier(),
        memory=KnowledgeMemory(MemoryStore.at_home(settings.home)),
        docs=DocLibrary(settings.home / "docs"),
        knowledge_dir=knowledge_dir or settings.home / "knowledge",
        decider=model_decider,
    )
