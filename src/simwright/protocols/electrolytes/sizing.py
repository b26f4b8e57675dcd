"""Preflight size of ``electrolyte_diffusivity``: atoms, MD steps, output, core-hours."""

from __future__ import annotations

import importlib.util
from typing import Any

from simwright.engines.lammps.launcher import find_lmp
from simwright.engines.packmol import PackSpec, box_edge_a, find_packmol
from simwright.errors import ValidationError
from simwright.protocols.electrolytes.classical import forcefield as classical_forcefield
from simwright.protocols.electrolytes.params import (
    HEAVY_TIMESTEP_FS,
    NORMAL_TIMESTEP_FS,
    calculator,
    composition,
)
from simwright.protocols.estimate import Estimate
from simwright.protocols.inputs import BuiltInputs
from simwright.settings import Settings

CORE_S_PER_ATOM_STEP = 0.04
"""SevenNet-0 + D3 on a CPU core, per atom and force call: a 96-atom DMC box took
about 20 s per call on this project's shared 2-core machine at a load average near 10
(about 0.2 of a core), i.e. ≈ 4 core-s / 96 atoms. An upper-side figure; a GPU is
orders of magnitude faster."""

CLASSICAL_CORE_S_PER_ATOM_STEP = 1.0e-4
"""OPLS-AA with PPPM in LAMMPS, per atom and MD step on one core (an upper-side
estimate for small boxes, where PPPM and neighbour-list overheads dominate)."""

BYTES_PER_ATOM_FRAME = 200
"""One extxyz line: species, position, molecule id, mass, momenta, forces."""


def electrolyte_estimate(params: Any, settings: Settings) -> Estimate:
    """Relaxation, both NPT stages, production and every allowed extension."""
    p = params
    atoms = composition(p).n_atoms
    nvt = p.steps(p.nvt_ns, NORMAL_TIMESTEP_FS)
    ext = p.steps(p.extension_ns, NORMAL_TIMESTEP_FS) * p.max_extensions
    stages = (
        p.relax_max_steps,
        p.steps(p.heavy_npt_ns, HEAVY_TIMESTEP_FS),
        p.steps(p.npt_ns, NORMAL_TIMESTEP_FS),
        nvt + ext,
    )
    steps = sum(stages)
    frames = (nvt + ext) / max(1.0, p.frame_interval_fs / NORMAL_TIMESTEP_FS) + 200
    rate = CLASSICAL_CORE_S_PER_ATOM_STEP if p.classical else CORE_S_PER_ATOM_STEP
    core_s = steps * atoms * rate
    return Estimate(
        atoms=atoms,
        md_steps=steps,
        engine_calls=5 + p.max_extensions,
        output_bytes=int(frames * atoms * BYTES_PER_ATOM_FRAME),
        core_hours=core_s / 3600.0,
        longest_call_core_s=max(stages) * atoms * rate,
        basis=(
            f"{atoms} atoms; relaxation ≤ {stages[0]}, heavy NPT {stages[1]}, NPT "
            f"{stages[2]}, NVT {nvt} + extensions {ext} steps",
            f"{CLASSICAL_CORE_S_PER_ATOM_STEP} core-s per atom-step (OPLS-AA, LAMMPS, PPPM)"
            if p.classical
            else f"{CORE_S_PER_ATOM_STEP} core-s per atom-step (SevenNet-0 + D3 on a CPU, "
            "measured on a loaded 2-core machine; a GPU is far faster)",
        ),
    )


def electrolyte_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The composition and box to pack, PACKMOL, and the calculator (its packages present)."""

    comp = composition(params)
    spec = PackSpec(comp.components, tolerance_a=2.0, vdw_box_factor=params.box_factor)
    system = (
        f"system: {comp.describe()}, cubic box {box_edge_a(spec):.2f} Å "
        f"({params.box_factor:g}·V₀^(1/3))"
    )
    if params.classical:
        ff = classical_forcefield(params)
        return BuiltInputs(
            (
                system,
                f"engine: PACKMOL {find_packmol()}",
                f"engine: LAMMPS {find_lmp()}",
                f"force field: {ff.description}",
            )
        )
    missing = [
        m
        for m in (("sevenn", "dftd3") if params.potential == "sevennet_0_d3" else ("chgnet",))
        if importlib.util.find_spec(m) is None
    ]
    if missing:
        raise ValidationError(
            f"{params.potential} needs {', '.join(missing)}: pip install 'simwright[mlip]'"
        )
    calc = calculator(params)
    calc.load(settings.plugins)
    return BuiltInputs(
        (
            f"system: {comp.describe()}, cubic box {box_edge_a(spec):.2f} Å "
            f"({params.box_factor:g}·V₀^(1/3))",
            f"engine: PACKMOL {find_packmol()}",
            f"calculator: {calc.describe()}",
        )
    )
