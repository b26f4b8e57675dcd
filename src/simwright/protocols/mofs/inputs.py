"""The build stage of ``mof_pores`` for ``plan``: every name checked, nothing run.

A build's topology and building blocks are resolved against PORMAKE's database (read
as files, without importing PORMAKE) and matched to the net's node types; a CIF file
is read. The calculator's package and Zeo++'s bindings must be importable.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from simwright.errors import ValidationError
from simwright.protocols.inputs import BuiltInputs
from simwright.protocols.mofs.framework import read_framework, resolved_spec
from simwright.protocols.mofs.params import MofParams
from simwright.settings import Settings

_MLIP_MODULES = {"chgnet": "chgnet", "sevennet": "sevenn"}


def mof_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The framework (resolved build or the CIF's atoms), the relaxation and Zeo++."""
    p: MofParams = params
    if p.cif is None:
        _, info = resolved_spec(p)
        lines = [
            f"structure: PORMAKE framework, topology {info.topology} ({info.group}), "
            f"blocks {'; '.join(info.blocks)}"
        ]
    else:
        structure = read_framework(p)
        lines = [f"structure: {p.cif}: {structure.formula}, {len(structure)} atoms"]
    if p.calculator is not None:
        module = _MLIP_MODULES[p.calculator]
        if importlib.util.find_spec(module) is None:
            raise ValidationError(
                f"calculator {p.calculator!r} needs the mlip extra: pip install 'simwright[mlip]'"
            )
        lines.append(
            f"calculator: {p.calculator}, BFGS, at most {p.relax_steps} steps, "
            f"fmax {p.fmax_ev_a} eV/Å, {'atoms and cell' if p.relax_cell else 'atoms only'}"
        )
    else:
        lines.append("relaxation: none (no calculator stated)")
    lines.append(
        f"engine: Zeo++ (pyzeo), probe radius {p.probe_radius_a} Å, "
        f"{p.samples_per_atom} samples per atom"
        + ("" if p.cif else "; PORMAKE builds the framework in a child process")
    )
    return BuiltInputs(tuple(lines))
