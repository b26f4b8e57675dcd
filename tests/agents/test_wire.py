"""The agent loop over real HTTP: the production provider clients (pydantic-ai over the
``openai`` and ``anthropic`` SDKs) talk to the scripted model server of
``helpers/llm_server.py`` on 127.0.0.1, in both wire formats, whole and streamed, with
rate limits, timeouts, malformed JSON and broken bodies on the way. The engine is real
(ASE/EMT); only the replies are scripted."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pydantic_ai.messages import ModelResponse

from helpers.agents import block_network
from helpers.llm_server import Garbage, ModelServer, RateLimited, Stall, WireRequest, serving
from helpers.llm_wire import tokens_of
from helpers.wire_replies import complete_energy
from simwright.agents.assemble import build_orchestrator
from simwright.agents.scripted import call, raw_call
from simwright.agents.setup.config import AgentSettings, ModelRef, RoleConfig
from simwright.agents.usage.view import usage_json
from simwright.settings import Settings
from simwright.store import Store

EV_PLAN = {
    "id": "ev",
    "instruction": "Energy of fcc Cu at a = 3.6 Å with EMT",
    "executor": "ase",
    "required_outputs": ["energy"],
}
BULK = "task: single_point\nstructure: {kind: bulk, element: Cu, lattice: fcc, a_a: 3.6}\n"


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch, loopback=True)


def ref(server: ModelServer, name: str, attempts: int = 1) -> ModelRef:
    """``name`` served by the test server (Anthropic's client takes the bare host)."""
    url = server.anthropic_url if name.startswith("anthropic:") else server.openai_url
    return ModelRef(name=name, base_url=url, attempts=attempts)


def wire_settings(server: ModelServer, *, stream: bool, **roles: Any) -> AgentSettings:
    """Settings naming real providers at the test server, with short client timeouts."""
    critics = roles.pop("critics", ())
    return AgentSettings(
        roles={r: RoleConfig(tiers=tuple(t)) for r, t in roles.items()},
        critics=tuple(RoleConfig(tiers=(c,)) for c in critics),
        api_keys={"openai": "sk-test", "anthropic": "sk-ant-test", "gemini": "g-test"},
        request_timeout_s=2.0,  # generous: a loaded machine must not time out a reply
        provider_retries=1,
        stream=stream,
    )


def finish(request: WireRequest) -> ModelResponse:
    """finish quoting the reported energy with its source and quantity."""
    match = re.search(
        r"output energy = ([-0-9.eE+]+) eV \(source (\S+); quantity ([^)]+)\)", request.text()
    )
    assert match, request.text()
    value = float(match.group(1))
    answer = {
        "summary": f"The EMT energy of the cell is {value:.4f} eV.",
        "values": [
            {
                "name": "energy",
                "value": value,
                "unit": "eV",
                "source": match.group(2),
                "quantity": match.group(3),
            }
        ],
    }
    return call("finish", answer=answer)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_the_loop_runs_over_the_wire_of_every_provider(
    settings: Settings, store: Store, stream: bool
) -> None:
    scripts = {
        "orch": [
            RateLimited(),  # the client waits retry-after and asks again
            call("outline_plan", subtasks=[EV_PLAN], rationale="one ASE subtask"),
            Garbage(),  # a body that is not JSON: a failed attempt, then the next one
            finish,
        ],
        "exec": [
            raw_call("write_script", '{"name": "sp.yaml", "content": '),  # malformed JSON
            call("write_script", name="sp.yaml", content=BULK),
            call("run", name="sp.yaml"),
            complete_energy,
        ],
        "judge": [Stall(60.0), call("vote", vote="pass")],  # timed out, retried by the client
        "local": [call("vote", vote="pass", reasons=["energy traced to result.json"])],
    }
    with serving(scripts) as server:
        cfg = wire_settings(
            server,
            stream=stream,
            orchestrator=[ref(server, "openai:orch", attempts=2)],
            executor=[ref(server, "anthropic:exec")],
            critics=[ref(server, "gemini:judge"), ref(server, "ollama:local")],
        )
        out = build_orchestrator(cfg, settings, store).run("energy of fcc Cu at 3.6 Å with EMT")

        assert out.status == "completed", out.error
        assert server.left() == {"orch": 0, "exec": 0, "judge": 0, "local": 0}
    assert out.answer is not None and out.answer.values[0].quantity == "energy_ev"
    result = json.loads((settings.runs_path / out.answer.values[0].source).read_text())
    assert out.answer.values[0].value == result["energy_ev"] < 0
    wires = {e.request.model: e.request.wire for e in server.log}
    assert wires == {"orch": "openai", "exec": "anthropic", "judge": "openai", "local": "openai"}
    assert {e.request.stream for e in server.log if e.status == 200} == {stream}
    kinds = [e.kind for e in server.requests("orch")]
    assert kinds == ["rate_limited", "reply", "garbage", "reply"]
    assert [e.kind for e in server.requests("judge")] == ["stall", "reply"]
    second = server.requests("exec")[1].request.text()
    assert "sp.yaml" not in server.requests("exec")[0].request.text()
    assert "not permitted" in second or "invalid json" in second.lower()  # the retry prompt
    assert "outline_plan" in server.requests("orch")[1].request.tools()

    # the ledger books one request per model call (client retries inside it), with the
    # token counts the server reported on the wire
    usage = usage_json(store, out.run_id)
    answered = [e for e in server.log if e.kind == "reply"]
    assert usage["total"]["requests"] == len(answered) + 1  # + the garbage attempt
    assert usage["total"]["input_tokens"] == sum(tokens_of(e.request.text()) for e in answered)
    assert set(usage["by_role"]) == {"orchestrator", "executor", "critic"}
    failed = [e for e in store.events(out.run_id) if e.kind == "model_attempt_failed"]
    assert len(failed) == 1 and "openai:orch (tier 1) failed" in failed[0].message


def test_a_rate_limit_storm_escalates_to_the_next_tier(settings: Settings, store: Store) -> None:
    scripts = {
        "small": [RateLimited(), RateLimited()],  # one call, one client retry: both refused
        "big": [call("outline_plan", questions=["Which lattice constant?"])],
    }
    with serving(scripts) as server:
        cfg = wire_settings(
            server,
            stream=False,
            orchestrator=[ref(server, "vllm:small"), ref(server, "anthropic:big")],
        )
        out = build_orchestrator(cfg, settings, store).run("energy of fcc Cu with EMT")
    assert out.status == "needs_clarification" and "Which lattice constant?" in (out.error or "")
    failed = [e for e in store.events(out.run_id) if e.kind == "model_attempt_failed"]
    assert len(failed) == 1 and "429" in failed[0].message
    assert [e.request.wire for e in server.log] == ["openai", "openai", "anthropic"]
