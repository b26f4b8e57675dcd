"""``python -m simwright ...`` in a subprocess with its models at the scripted model
server (no tests here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.llm_server import ModelServer
from helpers.paths import TESTS


def ask(
    home: Path, server: ModelServer, *args: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python -m simwright ARGS --home HOME`` with models at the test server, killed
    after ``timeout`` seconds."""
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
        timeout=timeout,
        env=env,
        check=False,
    )
