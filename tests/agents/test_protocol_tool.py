"""The agents' protocol tool goes through the same preflight as the command line: a
model's reply cannot name code to import, and nothing is created when it is refused."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from simwright.agents.orchestration.protocol_tool import ProtocolTool
from simwright.agents.replies import SubtaskSpec
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"element": "Cu", "calculator": "os:fork"}, "unknown calculator 'os:fork'"),
        ({"element": "Cu", "a_guess_a": float("inf")}, "a_guess_a: inf is not a finite"),
    ],
)
def test_a_refused_protocol_subtask_creates_no_run(
    settings: Settings, store: Store, tmp_path: Path, parameters: dict, message: str
) -> None:
    tool = ProtocolTool(store, settings, load_protocols())
    spec = SubtaskSpec(
        id="a0",
        instruction="lattice constant of Cu",
        executor="protocol",
        protocol="lattice_constant",
        parameters=parameters,
    )
    report = anyio.run(tool.run, spec, tmp_path / "a0")
    assert report.status == "failed" and report.child_run_id is None
    assert report.error is not None and message in report.error
    assert "allowed: emt" in report.error or "finite" in report.error
    assert store.list_runs(10) == []
    assert not settings.runs_path.exists()
