"""``simwright ask`` end to end, in a subprocess, against the scripted model server on
127.0.0.1: a plan held for approval (exit 3), approved, then a refinement turn with a
person's feedback; ``show`` lists the turns; what cannot be done is refused (exit 2)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.agent_kill import PLAN
from helpers.llm_server import ModelServer, serving
from helpers.paths import TESTS
from helpers.wire_replies import executor_replies, finish_all
from simwright.agents.scripted import call
from simwright.cli.main import app


def ask(home: Path, server: ModelServer, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m simwright ARGS --home HOME`` with models at the test server."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
        SIMWRIGHT_MODEL="openai-compatible:orch",
        SIMWRIGHT_MODEL_EXECUTOR="openai-compatible:exec",
        SIMWRIGHT_MODEL_BASE_URL=server.openai_url,
        COLUMNS="200",
    )
    return subprocess.run(
        [sys.executable, "-m", "simwright", *args, "--home", str(home)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


@pytest.mark.slow  # six CLI processes
def test_review_approve_and_refine_from_the_command_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    scripts = {
        "orch": [
            call("outline_plan", subtasks=PLAN[:1]),
            finish_all,
            call("refine_plan", add=PLAN[1:], note="add the 3.7 Å point"),
            finish_all,
        ],
        "exec": [*executor_replies("3.6"), *executor_replies("3.7")],
    }
    with serving(scripts) as server:
        held = ask(home, server, "ask", "EMT energy of fcc Cu at a = 3.6 Å", "--review-plan")
        assert held.returncode == 3, held.stdout + held.stderr
        run_id = re.search(r"run (\S+):", held.stdout).group(1)  # type: ignore[union-attr]
        assert "- s1 [ase]: Energy of fcc Cu at a = 3.6" in held.stdout
        assert f"simwright ask --approve {run_id}" in held.stdout

        refused = ask(home, server, "resume", run_id)
        assert refused.returncode == 2 and "waits for a person" in refused.stderr

        approved = ask(home, server, "ask", "--approve", run_id, "--author", "ana")
        assert approved.returncode == 0, approved.stdout + approved.stderr
        assert "energy_s1 = " in approved.stdout

        turn = ask(
            home, server, "ask", "Also at a = 3.7 Å.", "--continue", run_id, "--author", "ben"
        )
        assert turn.returncode == 0, turn.stdout + turn.stderr
        assert "energy_s1 = " in turn.stdout and "energy_s2 = " in turn.stdout
        assert server.left() == {"orch": 0, "exec": 0}

    shown = ask(home, server, "show", run_id)
    assert shown.returncode == 0, shown.stderr
    conversation = shown.stdout.split("conversation:", 1)[1]
    kinds = re.findall(r"^  \S+ (\w+(?: by \w+)?):", conversation, re.M)
    assert kinds == ["request", "held", "approval by ana", "answer", "feedback by ben", "answer"]
    assert "changed s2; reused s1" in conversation
    empty = ask(home, server, "ask", "--continue", run_id)
    assert empty.returncode == 2 and "give your feedback" in empty.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", "change it", "--approve", "r1"], "--approve takes no request"),
        (["ask", "--approve", "r1", "--continue", "r1", "x"], "only one of"),
        (["ask", "--continue", "r1"], "give your feedback"),
    ],
)
def test_turn_options_that_cannot_work_are_refused(
    tmp_path: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, [*args, "--home", str(tmp_path / "home")])
    assert result.exit_code == 2 and message in result.output
