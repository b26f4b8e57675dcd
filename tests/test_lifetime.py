"""An engine dies with the simwright process that started it, even when that process
is killed with SIGKILL, and so do the processes the engine started (wrappers)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from helpers.paths import TESTS
from helpers.procs import alive, wait_for_file, wait_until_gone
from simwright.lifetime import die_with_parent
from simwright.processes import PID_FILE


def test_a_sigkilled_simwright_takes_its_engine_and_the_engines_children_along(
    tmp_path: Path,
) -> None:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
    )
    proc = subprocess.Popen(
        [sys.executable, str(TESTS / "helpers" / "engine_killee.py"), str(tmp_path)], env=env
    )
    try:
        assert wait_for_file(tmp_path / "grandchild.pid"), "the engine never started"
        assert wait_for_file(tmp_path / PID_FILE), "the engine's process group was not recorded"
        pgid = int((tmp_path / PID_FILE).read_text())
        grandchild = int((tmp_path / "grandchild.pid").read_text())
        assert alive(pgid) and alive(grandchild)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert wait_until_gone(pgid) == [], "engine processes outlived the killed simwright"
    assert not alive(grandchild)


def test_the_parent_death_signal_is_asked_for_on_linux() -> None:
    preexec = die_with_parent()
    assert (preexec is not None) == sys.platform.startswith("linux")
