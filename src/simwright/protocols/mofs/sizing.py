"""Preflight of ``mof_pores``: the extras it needs, and the size of a run."""

from __future__ import annotations

import importlib.util
from typing import Any

from simwright.errors import ValidationError
from simwright.protocols.estimate import Estimate
from simwright.settings import Settings

ASSUMED_ATOMS = 700
"""Atoms assumed for a framework before it is built (HKUST-1's conventional cell: 624)."""
MLIP_CORE_S_PER_ATOM_STEP = 0.01
"""Core-seconds per atom per optimiser step of SevenNet-0 or CHGNet on a CPU (about
0.5 s for a 64-atom cell with SevenNet-0, docs/mlip.md; generous)."""
ZEO_CORE_S = 30.0
"""Zeo++ and the channel grid of a ~700-atom cell (a few seconds measured; generous)."""


def check_mofs(params: Any, settings: Settings) -> None:
    """PORMAKE (for a build) and pyzeo must be installed: the extra [mofs]."""
    needed = ["pyzeo"] + (["pormake"] if params.cif is None else [])
    missing = [m for m in needed if importlib.util.find_spec(m) is None]
    if missing:
        raise ValidationError(
            f"mof_pores needs {', '.join(missing)}, not installed: pip install 'simwright[mofs]'"
        )


def estimate(params: Any, settings: Settings) -> Estimate:
    """One build or read, at most ``relax_steps`` MLIP steps, one Zeo++ analysis."""
    steps = params.relax_steps if params.calculator else 0
    relax_s = steps * ASSUMED_ATOMS * MLIP_CORE_S_PER_ATOM_STEP
    core_s = relax_s + ZEO_CORE_S + 5.0
    basis = [f"{ASSUMED_ATOMS} atoms assumed before the framework exists"]
    if steps:
        basis.append(
            f"{steps} {params.calculator} steps × {MLIP_CORE_S_PER_ATOM_STEP} core-s per atom"
        )
    basis.append(f"Zeo++ and the channel grid: {ZEO_CORE_S:g} core-s")
    return Estimate(
        atoms=ASSUMED_ATOMS,
        engine_calls=3 if steps else 2,
        output_bytes=2_000_000,
        core_hours=core_s / 3600.0,
        longest_call_core_s=max(relax_s, ZEO_CORE_S),
        basis=tuple(basis),
    )
