"""The LAMMPS script body of a melt–quench (pure: values in, lines out).

Follows :func:`~simwright.engines.lammps.potential_md.potential_head`: fresh velocities
at the melt temperature; four runs at zero pressure (isotropic Nosé–Hoover NPT):
melt, a linear temperature ramp down to the final temperature (the quench), an anneal
at the final temperature, and a production that writes frames to :data:`FRAMES_NAME`.
The thermo carries ``v_msd``, the mean-square displacement (Å², centre-of-mass drift
removed) since the start, so that the melt can be checked to have been a liquid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from simwright.engines.lammps.forcefield_block import num
from simwright.engines.lammps.solid_md import ATOMIC_DATA_NAME, THERMO, Dynamics
from simwright.engines.lammps.templates import RESTART_NAME, fs_to_ps

FRAMES_NAME: Final = "frames.dump"
"""Production frames: ``id type x y z`` sorted by id, with the box of each frame."""


@dataclass(frozen=True)
class MeltQuenchSteps:
    """Step counts of the four runs and the output intervals."""

    melt: int
    quench: int
    anneal: int
    production: int
    thermo_every: int
    frame_every: int


def melt_quench(dyn: Dynamics, melt_k: float, final_k: float, steps: MeltQuenchSteps) -> list[str]:
    """Melt at ``melt_k``, ramp to ``final_k``, anneal, then sample (see the module)."""
    npt = f"iso 0 0 {num(fs_to_ps(dyn.pdamp_fs))}"
    tdamp = num(fs_to_ps(dyn.tdamp_fs))
    return [
        dyn.head(),
        f"velocity        all create {num(melt_k)} {dyn.seed} dist gaussian mom yes rot no",
        "compute         drift all msd com yes",
        "variable        msd equal c_drift[4]",
        f"thermo_style    custom {THERMO} v_msd",
        "thermo_modify   norm no flush yes format float %.10g",
        f"thermo          {steps.thermo_every}",
        f"fix             melt all npt temp {num(melt_k)} {num(melt_k)} {tdamp} {npt}",
        f"run             {steps.melt}",
        "unfix           melt",
        f"fix             quench all npt temp {num(melt_k)} {num(final_k)} {tdamp} {npt}",
        f"run             {steps.quench}",
        "unfix           quench",
        f"fix             anneal all npt temp {num(final_k)} {num(final_k)} {tdamp} {npt}",
        f"run             {steps.anneal}",
        f"dump            frames all custom {steps.frame_every} {FRAMES_NAME} id type x y z",
        "dump_modify     frames sort id",
        f"run             {steps.production}",
        "undump          frames",
        f"write_restart   {RESTART_NAME}",
        f"write_data      {ATOMIC_DATA_NAME} nocoeff",
    ]
