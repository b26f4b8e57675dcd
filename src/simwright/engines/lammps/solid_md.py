"""LAMMPS script bodies of the solid-state MD protocols (pure: values in, lines out).

Each body follows :func:`~simwright.engines.lammps.potential_md.potential_head`:
an NPT temperature point (thermal expansion), the two-phase preparation and a
coexistence trial (melting point), a Müller-Plathe NEMD run (lattice thermal
conductivity) and a deposition onto a slab. Times are given in fs and converted to
ps (units metal) here; temperatures in K, pressures in bar, lengths in Å.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from simwright.engines.lammps.forcefield_block import num
from simwright.engines.lammps.templates import RESTART_NAME, fs_to_ps

THERMO: Final = "step time temp press pe ke etotal enthalpy vol lx ly lz"
"""Thermo keywords of every body (their canonical columns: :mod:`.log`)."""
PROFILE_NAME: Final = "profile.dat"
"""The temperature profile of a Müller-Plathe run (``fix ave/chunk``)."""
DEPOSITED_NAME: Final = "deposited.dump"
"""Every atom after a deposition (id type x y z, sorted by id)."""
ATOMIC_DATA_NAME: Final = "final_atomic.data"
"""The final atoms as an ``atom_style atomic`` data file (the launcher reads ``final.data``
as style full, so these bodies write their own)."""
KB_EV_K: Final = 8.617333262e-5


def _thermo(every: int, extra: str = "") -> list[str]:
    return [
        f"thermo_style    custom {THERMO}{' ' + extra if extra else ''}",
        "thermo_modify   norm no flush yes format float %.10g",
        f"thermo          {every}",
    ]


def _finish() -> list[str]:
    return [f"write_restart   {RESTART_NAME}", f"write_data      {ATOMIC_DATA_NAME} nocoeff"]


def _velocities(group: str, temperature_k: float, seed: int) -> str:
    return (
        f"velocity        {group} create {num(temperature_k)} {seed} dist gaussian mom yes rot no"
    )


@dataclass(frozen=True)
class Dynamics:
    """Timestep (fs), thermostat and barostat damping (fs), seed."""

    timestep_fs: float
    seed: int
    tdamp_fs: float = 100.0
    pdamp_fs: float = 1000.0

    def head(self) -> str:
        """The ``timestep`` line."""
        return f"timestep        {num(fs_to_ps(self.timestep_fs))}"

    def npt(self, fix: str, group: str, t: float, couple: str, p_bar: float = 0.0) -> str:
        """A Nosé–Hoover NPT fix (``couple``: iso or aniso)."""
        return (
            f"fix             {fix} {group} npt temp {num(t)} {num(t)} "
            f"{num(fs_to_ps(self.tdamp_fs))} {couple} {num(p_bar)} {num(p_bar)} "
            f"{num(fs_to_ps(self.pdamp_fs))}"
        )

    def nvt(self, fix: str, group: str, t: float) -> str:
        """A Nosé–Hoover NVT fix."""
        return (
            f"fix             {fix} {group} nvt temp {num(t)} {num(t)} "
            f"{num(fs_to_ps(self.tdamp_fs))}"
        )


def npt_point(
    dyn: Dynamics, t: float, p_bar: float, equil_steps: int, prod_steps: int, every: int
) -> list[str]:
    """Fresh velocities at ``t``, NPT (isotropic) equilibration, then production sampled
    every ``every`` steps (the log's second thermo block)."""
    return [
        dyn.head(),
        _velocities("all", t, dyn.seed),
        dyn.npt("npt", "all", t, "iso", p_bar),
        *_thermo(max(1, equil_steps // 10)),
        f"run             {equil_steps}",
        f"thermo          {every}",
        f"run             {prod_steps}",
        *_finish(),
    ]


def two_phase_preparation(
    dyn: Dynamics,
    t: float,
    hot_t: float,
    equil_steps: int,
    melt_steps: int,
    cool_steps: int,
    relax_steps: int,
) -> list[str]:
    """Crystal NPT (isotropic: the cubic cell stays cubic) at ``t``; then the upper half
    along z is melted at ``hot_t`` and brought back to ``t`` at fixed box while the lower
    half is held still; last, the liquid alone relaxes its density by NPT along z at
    ``t`` (``dilate liquid``: the held crystal keeps its lattice), so that the liquid,
    melted at the crystal's volume, loses its excess pressure without the crystal
    melting when ``t`` lies above the melting point."""
    return [
        dyn.head(),
        _velocities("all", t, dyn.seed),
        dyn.npt("npt", "all", t, "iso"),
        *_thermo(max(1, equil_steps // 10)),
        f"run             {equil_steps}",
        "unfix           npt",
        "variable        zmid equal zlo+0.5*lz",
        "region          upper block INF INF INF INF v_zmid INF units box",
        "group           liquid region upper",
        "group           solid subtract all liquid",
        "velocity        solid set 0.0 0.0 0.0",
        _velocities("liquid", hot_t, dyn.seed + 1),
        dyn.nvt("melt", "liquid", hot_t),
        f"run             {melt_steps}",
        "unfix           melt",
        dyn.nvt("cool", "liquid", t),
        f"run             {cool_steps}",
        "unfix           cool",
        "compute         liquid_temp liquid temp",
        f"fix             relax liquid npt temp {num(t)} {num(t)} {num(fs_to_ps(dyn.tdamp_fs))} "
        f"z 0 0 {num(fs_to_ps(dyn.pdamp_fs))} dilate liquid",
        "fix_modify      relax temp liquid_temp",
        f"run             {relax_steps}",
        *_finish(),
    ]


def coexistence_trial(
    dyn: Dynamics,
    t: float,
    cna_cutoff_a: float,
    solid_codes: tuple[int, ...],
    steps: int,
    every: int,
) -> list[str]:
    """NPT (anisotropic, zero pressure) at ``t`` from the two-phase state, counting the
    crystalline atoms (``compute cna/atom``; ``solid_codes`` 1 fcc, 2 hcp, 3 bcc) in the
    thermo column ``c_nsolid``."""
    test = " || ".join(f"c_cna=={c}" for c in solid_codes)
    return [
        dyn.head(),
        f"compute         cna all cna/atom {num(cna_cutoff_a)}",
        f'variable        crystalline atom "{test}"',
        "compute         nsolid all reduce sum v_crystalline",
        _velocities("all", t, dyn.seed),
        dyn.npt("npt", "all", t, "aniso"),
        *_thermo(every, "c_nsolid"),
        f"run             {steps}",
        *_finish(),
    ]


def muller_plathe(
    dyn: Dynamics,
    t: float,
    equil_steps: int,
    prod_steps: int,
    swap_every: int,
    slabs: int,
    sample_every: int,
) -> list[str]:
    """NVT at ``t``, then NVE with Müller-Plathe kinetic-energy swaps along z (``f_mp``: the
    energy moved, eV) and the slab temperatures averaged into :data:`PROFILE_NAME`."""
    block = sample_every * 100
    return [
        dyn.head(),
        _velocities("all", t, dyn.seed),
        dyn.nvt("nvt", "all", t),
        *_thermo(max(1, equil_steps // 10)),
        f"run             {equil_steps}",
        "unfix           nvt",
        "fix             nve all nve",
        "compute         atom_ke all ke/atom",
        f"variable        atom_t atom c_atom_ke/(1.5*{KB_EV_K})",
        # the bin width is rounded up so that LAMMPS makes exactly ``slabs`` bins
        f"compute         slabs all chunk/atom bin/1d z lower "
        f"{math.ceil(1e10 / slabs) / 1e10:.10f} units reduced",
        f"fix             profile all ave/chunk {sample_every} 100 {block} slabs v_atom_t "
        f"file {PROFILE_NAME}",
        f"fix             mp all thermal/conductivity {swap_every} z {slabs}",
        *_thermo(block, "f_mp"),
        f"run             {prod_steps}",
        *_finish(),
    ]


@dataclass(frozen=True)
class DepositionLayout:
    """Heights (Å, box frame) of a deposition: fixed below ``fixed_top``, thermostatted up
    to ``thermostat_top``, free above; atoms inserted between ``insert_lo`` and ``insert_hi``."""

    fixed_top: float
    thermostat_top: float
    insert_lo: float
    insert_hi: float


def deposition(
    dyn: Dynamics,
    t: float,
    layout: DepositionLayout,
    *,
    adatom_type: int,
    count: int,
    every_steps: int,
    speed_a_ps: float,
    relax_steps: int,
    settle_steps: int,
) -> list[str]:
    """Slab (bottom fixed, middle Langevin at ``t``, top free) receiving ``count`` atoms, one
    every ``every_steps``, each moving down at ``speed_a_ps``; atoms leaving through the
    top are dropped (``lost ignore``) and counted as reflected."""
    lo = layout
    return [
        dyn.head(),
        f"region          fixed_zone block INF INF INF INF INF {num(lo.fixed_top)} units box",
        f"region          thermostat_zone block INF INF INF INF {num(lo.fixed_top)} "
        f"{num(lo.thermostat_top)} units box",
        "group           fixed region fixed_zone",
        "group           thermostatted region thermostat_zone",
        "group           mobile subtract all fixed",
        _velocities("mobile", t, dyn.seed),
        "fix             integrate mobile nve",
        f"fix             bath thermostatted langevin {num(t)} {num(t)} "
        f"{num(fs_to_ps(dyn.tdamp_fs))} {dyn.seed + 2}",
        *_thermo(max(1, every_steps), "atoms"),
        "thermo_modify   lost ignore",
        f"run             {relax_steps}",
        f"region          insertion block EDGE EDGE EDGE EDGE {num(lo.insert_lo)} "
        f"{num(lo.insert_hi)} "
        "units box",
        f"fix             deposit mobile deposit {count} {adatom_type} {every_steps} "
        f"{dyn.seed + 3} region insertion near 2.0 attempt 50 "
        f"vz {num(-speed_a_ps)} {num(-speed_a_ps)} units box",
        f"run             {count * every_steps + settle_steps}",
        f"write_dump      all custom {DEPOSITED_NAME} id type x y z modify sort id",
        f"write_data      {ATOMIC_DATA_NAME} nocoeff",
    ]
