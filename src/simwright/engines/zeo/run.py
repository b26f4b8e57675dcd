"""Run a Zeo++ analysis: write the input, run the worker in ``workdir``, parse."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.engines.base import run_subprocess, write_inputs
from simwright.engines.zeo.launcher import ENGINE_NAME, ZeoLauncher
from simwright.engines.zeo.spec import (
    INPUT_NAME,
    OUTPUT_NAME,
    PoreGeometry,
    ZeoSpec,
    parse_geometry,
)
from simwright.errors import EngineError
from simwright.store.records import EngineCall


@dataclass(frozen=True)
class ZeoResult:
    """Zeo++'s pore geometry, the radius it gave each atom (Å), and the call record."""

    geometry: PoreGeometry
    radii_a: np.ndarray
    call: EngineCall


def analyse_pores(
    spec: ZeoSpec, workdir: Path, *, python: str | None = None, timeout_s: float = 600.0
) -> ZeoResult:
    """Zeo++ on the CIF ``spec.cif`` inside ``workdir`` (an :class:`EngineError` carrying
    the call's record when it exits with an error)."""
    launcher = ZeoLauncher(python or sys.executable)
    write_inputs({INPUT_NAME: json.dumps(spec.as_json())}, workdir)
    out_path = workdir / OUTPUT_NAME
    out_path.unlink(missing_ok=True)
    call = run_subprocess(
        ENGINE_NAME, launcher.argv(), workdir, version=launcher.version(), timeout_s=timeout_s
    )
    if not call.ok or not out_path.is_file():
        raise EngineError(
            f"Zeo++ failed (exit {call.exit_code}): {call.stderr_tail[-800:]}", call=call
        )
    out = json.loads(out_path.read_text(encoding="utf-8"))
    try:
        geometry = parse_geometry(out["free_sphere"], out["area"], out["volume"], out["void"])
    except (ValueError, IndexError, KeyError) as exc:
        raise EngineError(f"cannot read Zeo++'s results: {exc}") from exc
    return ZeoResult(geometry, np.asarray(out["radii"], dtype=float), call)
