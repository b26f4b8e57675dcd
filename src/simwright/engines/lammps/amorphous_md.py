"""The LAMMPS script body of a melt–quench (pure: values in, lines out).

Follows :func:`~simwright.engines.lammps.potential_md.potential_head`: fresh velocities
at the melt temperature; the melt and a linear temperature ramp down to the final
temperature (the quench) at the crystal's volume (Nosé–Hoover NVT: a liquid far above
its melting point at zero pressure may cavitate, as Tersoff silicon does at 3400 K);
then an anneal and a production at the final temperature and zero pressure (isotropic
NPT), the production writing frames to :data:`FRAMES_NAME`. The thermo carries
``v_msd``, the mean-square displacement (Å², centre-of-mass drift removed) since the
start, so that the melt can be checked to have been a liquid; ``fix halt`` stops a run
whose box grows beyond :data:`MAX_VOLUME_RATIO` times the crystal's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from simwright.engines.lammps.forcefield_block import num
from simwright.engines.lammps.solid_md import ATOMIC_DATA_NAME, THERMO, Dynamics
from simwright.engines.lammps.templates import RESTART_NAME, fs_to_ps

MAX_VOLUME_RATIO: Final = 1.5
"""A solid or a quenched glass stays within a few percent of the crystal's volume; a box
grown by half has cavitated or evaporated."""
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
        "variable        v0 equal vol",
        "variable        crystal_volume equal ${v0}",
        "variable        volume_ratio equal vol/v_crystal_volume",
        f"fix             cavity all halt {steps.thermo_every} v_volume_ratio > "
        f"{num(MAX_VOLUME_RATIO)} error hard message yes",
        f"fix             melt all nvt temp {num(melt_k)} {num(melt_k)} {tdamp}",
        f"run             {steps.melt}",
        "unfix           melt",
        f"fix             quench all nvt temp {num(melt_k)} {num(final_k)} {tdamp}",
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
