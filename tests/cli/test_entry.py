"""The script's entry point: quick commands start with their process settings."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from simwright.cli.entry import QUICK_COMMANDS, quick_start


def test_quick_start_keeps_what_the_user_set_and_stops_the_collector() -> None:
    environ = {"OPENBLAS_NUM_THREADS": "4"}
    was_enabled = gc.isenabled()
    try:
        quick_start(environ)
        assert environ == {"OPENBLAS_NUM_THREADS": "4", "PYDANTIC_DISABLE_PLUGINS": "1"}
        assert not gc.isenabled()
    finally:
        if was_enabled:
            gc.enable()


def test_quick_commands_never_run_an_engine() -> None:
    assert {"plan", "runs", "show", "protocols", "version"} == set(QUICK_COMMANDS)
    assert not QUICK_COMMANDS & {"run", "resume", "campaign", "serve", "ask"}


_PROBE = """
import gc, json, os, runpy, sys
sys.argv = ["simwright", *sys.argv[1:]]
try:
    runpy.run_module("simwright", run_name="__main__")
except SystemExit:
    pass
print(json.dumps({"gc": gc.isenabled(), "blas": os.environ.get("OPENBLAS_NUM_THREADS"),
                  "fit": "simwright.analysis.eos" in sys.modules,
                  "forcefields": "simwright.forcefields" in sys.modules}))
"""


def _probe(tmp_path: Path, *args: str) -> dict[str, object]:
    env = dict(os.environ, SIMWRIGHT_HOME=str(tmp_path / "home"))
    env.pop("OPENBLAS_NUM_THREADS", None)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_plan_builds_a_crystal_without_the_fit_or_the_force_fields(tmp_path: Path) -> None:
    seen = _probe(tmp_path, "plan", "lattice constant of fcc Cu with EMT", "--json")
    assert seen == {"gc": False, "blas": "1", "fit": False, "forcefields": False}


def test_other_commands_keep_the_process_defaults(tmp_path: Path) -> None:
    seen = _probe(tmp_path, "engines", "--json")
    assert seen["gc"] is True and seen["blas"] is None
