"""Replies of the scripted model server that read what the framework sent (no tests here)."""

from __future__ import annotations

import json

from pydantic_ai.messages import ModelResponse

from helpers.agent_kill import bulk, finish_text
from helpers.llm_server import Reply, WireRequest
from simwright.agents.scripted import call


def complete_energy(request: WireRequest) -> ModelResponse:
    """complete_task with the energy the run tool reported (read from the wire)."""
    ran = request.last_tool_result("run")
    data = json.loads(ran.split("result.json: ", 1)[1].split("; final")[0])
    energy = {"value": data["energy_ev"], "unit": "eV", "source": "result.json"}
    return call("complete_task", outputs={"energy": energy}, summary="single point done")


def finish_all(request: WireRequest) -> ModelResponse:
    """finish citing every output of the completed reports the orchestrator was shown."""
    return finish_text(request.text())


def executor_replies(a: str) -> list[Reply]:
    """The executor's three replies for an EMT single point of fcc Cu at ``a`` Å."""
    return [
        call("write_script", name="sp.yaml", content=bulk(a)),
        call("run", name="sp.yaml"),
        complete_energy,
    ]
