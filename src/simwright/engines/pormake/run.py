"""Build a framework: write the worker's input, run it in ``workdir``, read its output."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from simwright.engines.base import run_subprocess, write_inputs
from simwright.engines.pormake.launcher import ENGINE_NAME, PormakeLauncher
from simwright.engines.pormake.spec import (
    INPUT_NAME,
    OUTPUT_NAME,
    BuiltFramework,
    FrameworkSpec,
)
from simwright.errors import EngineError, ValidationError
from simwright.store.records import EngineCall


def build_framework(
    spec: FrameworkSpec, workdir: Path, *, python: str | None = None, timeout_s: float = 600.0
) -> tuple[BuiltFramework, EngineCall]:
    """Build ``spec`` with PORMAKE in ``workdir``; blocks that do not fit the topology
    are refused (:class:`ValidationError`), a crash is an :class:`EngineError`."""
    launcher = PormakeLauncher(python or sys.executable)
    write_inputs({INPUT_NAME: json.dumps(spec.as_json())}, workdir)
    (workdir / OUTPUT_NAME).unlink(missing_ok=True)
    call = run_subprocess(
        ENGINE_NAME, launcher.argv(), workdir, version=launcher.version(), timeout_s=timeout_s
    )
    out_path = workdir / OUTPUT_NAME
    if not out_path.is_file():
        raise EngineError(
            f"PORMAKE failed (exit {call.exit_code}): {call.stderr_tail[-800:]}", call=call
        )
    out = json.loads(out_path.read_text(encoding="utf-8"))
    if "error" in out:
        raise ValidationError(f"PORMAKE cannot build this framework: {out['error']}")
    if not call.ok:
        raise EngineError(
            f"PORMAKE failed (exit {call.exit_code}): {call.stderr_tail[-800:]}", call=call
        )
    built = BuiltFramework(
        symbols=tuple(out["symbols"]),
        positions_a=np.asarray(out["positions"], dtype=float),
        cell_a=np.asarray(out["cell"], dtype=float),
        node_rmsd_a=tuple(float(x) for x in out["node_rmsd"]),
        coordination=tuple(int(c) for c in out["coordination"]),
        edge_types=int(out["edge_types"]),
    )
    return built, call
