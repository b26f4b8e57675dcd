"""GCMC–MD of water vapour on two rigid montmorillonite sheets, with LAMMPS (``units real``).

The script: ClayFF + SPC/E (:mod:`simwright.forcefields.clayff`), ``lj/cut/coul/long``
with arithmetic mixing and PPPM, both at ``pair_cutoff_a`` (12 Å by default, accuracy
1e-4), fully periodic (the vacuum beyond the external surfaces separates the periodic
images; no slab correction), 1 fs steps. Each clay sheet is one rigid body (``fix rigid
... molecule``) free to translate along z only (force ``off off on``, torque off); a
weak spring on the two sheets' common centre of mass (``fix spring tether``, z only,
``tether_k_kcal_a2``) keeps the pair from drifting out of the insertion slab (seen
without it: 2 Å in 13 ps) and, acting on both sheets in proportion to their masses,
leaves their separation free. Pairs inside a sheet are excluded from the neighbour list
(their energy is a constant of a rigid body). Water (SHAKE on its bonds and angle) and
ions are thermostatted together at T by a Nosé–Hoover thermostat (damping
``thermostat_damp_fs``, 100 fs) with a temperature that counts the varying degrees of
freedom. ``fix gcmc`` exchanges whole SPC/E molecules (molecule template,
``full_energy``, SHAKE-constrained, no MC moves: LAMMPS allows only exchanges with SHAKE
or rigid fixes) with an ideal-gas reservoir at p = RH · p_sat(T) (fugacity coefficient
1; :mod:`simwright.forcefields.spce_vapour`) inside a slab from ``insertion_margin_a``
below the lower external surface to as far above the upper one, placed from the built
geometry.

Observables, from the sheets' current centres of mass: water molecules in all,
in the interlayer (oxygen between the two sheets' mid-planes) and outside it
(below sheet 1 or above sheet 2), the basal-spacing proxy (distance between the
sheets' mid-planes), the mobile-atom temperature, the ion count and the potential
energy (eV).
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from simwright.builders.clay import ClayParameters, ClaySystem, build_clay
from simwright.builders.clay_checks import check_clay
from simwright.campaign.clay_data import (
    DATA_NAME,
    MOLECULE_NAME,
    render_data,
    render_water_molecule,
    type_order,
)
from simwright.engines.lammps.launcher import LammpsLauncher, LammpsResult
from simwright.engines.lammps.segment import check_template
from simwright.engines.lammps.templates import RESTART_NAME
from simwright.errors import EngineError
from simwright.forcefields.clayff import ALL_TYPES, clayff_sources
from simwright.forcefields.spce_vapour import BAR_PER_ATM, NIST_SPCE_SAT_REFERENCE

START_NAME: Final = "start.restart"
EQUILIBRATED_NAME: Final = "equilibrated.restart"
PREPARATION_NAME: Final = "preparation.json"
MODEL_NAME: Final = "model.json"
FINAL_DUMP_NAME: Final = "final_oxygens.dump"
MAX_SEED: Final = 900_000_000
KCAL_MOL_TO_EV: Final = 0.0433641043
WATER_BOND_K: Final = 554.1349
"""O–H spring (kcal/mol/Å²) written for completeness; SHAKE holds the bond rigid."""
WATER_ANGLE_K: Final = 45.7696
"""H–O–H spring (kcal/mol/rad²); SHAKE holds the angle rigid."""


class ClayGcmcSettings(BaseModel):
    """How a clay segment samples: MD step, exchanges, thermostat, cut-offs, equilibration."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timestep_fs: float = Field(default=1.0, gt=0, le=2.0)
    sample_every_steps: int = Field(default=100, gt=0)
    exchange_every_steps: int = Field(default=100, gt=0)
    exchange_attempts: int = Field(default=20, ge=1)
    thermostat_damp_fs: float = Field(default=100.0, gt=0)
    pair_cutoff_a: float = Field(default=12.0, ge=6.0)
    pppm_accuracy: float = Field(default=1.0e-4, gt=0, lt=1)
    equilibration_steps: int = Field(default=5000, ge=0)
    insertion_margin_a: float = Field(default=8.0, ge=2.0)
    tether_k_kcal_a2: float = Field(default=5.0, gt=0)
    """Spring (kcal/mol/Å²) holding the two sheets' common centre of mass at its built z."""
    tfac_insert: float = Field(default=1.5, gt=0)
    """Velocity temperature factor of inserted molecules: 9 components, SHAKE removes 3."""

    def box_problems(self, p: ClayParameters) -> list[str]:
        """Problems of a clay box with these settings (empty when fine)."""
        system_xy = (p.cells[0] * 5.28, p.cells[1] * 9.14)
        problems = []
        if min(system_xy) < 2 * self.pair_cutoff_a:
            problems.append(
                f"cells {p.cells} give a {system_xy[0]:.2f} × {system_xy[1]:.2f} Å sheet: both "
                f"edges must be at least twice pair_cutoff_a ({self.pair_cutoff_a} Å)"
            )
        if 2 * p.vacuum_a < self.pair_cutoff_a + 2 * self.insertion_margin_a:
            problems.append(
                f"vacuum_a {p.vacuum_a} is too thin: the two external surfaces must stay "
                "more than the cutoff apart beyond the insertion slabs"
            )
        return problems


@dataclass(frozen=True)
class ClaySegment:
    """One segment: the system parameters, settings, reservoir, length and seed."""

    clay: ClayParameters
    settings: ClayGcmcSettings
    temperature_k: float
    pressure_bar: float
    relative_humidity: float
    steps: int
    seed: int


@dataclass(frozen=True)
class ClayGcmcResult:
    """A segment's samples after its start, aligned with ``abs_steps``."""

    lammps: LammpsResult
    abs_start: int
    abs_end: int
    abs_steps: np.ndarray
    values: dict[str, np.ndarray]
    insertion_acceptance: float
    deletion_acceptance: float
    equilibration: LammpsResult | None


def _n(x: float) -> str:
    return f"{x:.10g}"


def _forcefield_block(system: ClaySystem, s: ClayGcmcSettings) -> list[str]:
    order = type_order(system)
    lines = [
        f"pair_style      lj/cut/coul/long {_n(s.pair_cutoff_a)}",
        "pair_modify     mix arithmetic shift no",
    ]
    for i, t in enumerate(order):
        ff = ALL_TYPES[t]
        lines.append(
            f"pair_coeff      {i + 1} {i + 1} {ff.epsilon_kcal:.8g} {ff.sigma_a:.8g} # {t}"
        )
    return [
        *lines,
        "bond_style      harmonic",
        f"bond_coeff      1 {WATER_BOND_K} 1.0",
        "angle_style     harmonic",
        f"angle_coeff     1 {WATER_ANGLE_K} 109.47",
        f"kspace_style    pppm {_n(s.pppm_accuracy)}",
    ]


def _groups_block(system: ClaySystem, s: ClayGcmcSettings, temperature_k: float) -> list[str]:
    order = type_order(system)
    ow, hw = order.index("OW") + 1, order.index("HW") + 1
    ion = order.index(system.parameters.cation) + 1
    t = _n(temperature_k)
    return [
        "group           clay molecule 1 2",
        "group           sheet1 molecule 1",
        "group           sheet2 molecule 2",
        f"group           ions type {ion}",
        f"group           water type {ow} {hw}",
        "group           mobile union ions water",
        "neighbor        2.0 bin",
        "neigh_modify    every 1 delay 0 check yes exclude molecule/intra clay",
        f"molecule        h2o {MOLECULE_NAME}",
        "fix             wshake water shake 1.0e-4 100 0 b 1 a 1 mol h2o",
        "fix             sheets clay rigid molecule force * off off on torque * off off off",
        f"fix             tether clay spring tether {_n(s.tether_k_kcal_a2)} NULL NULL "
        f"{_n(sum(system.sheet_mid_z) / 2)} 0.0",
        "compute         tmob mobile temp",
        "compute_modify  tmob dynamic/dof yes",
        "compute_modify  thermo_temp dynamic/dof yes",
        f"fix             thermostat mobile nvt temp {t} {t} {_n(s.thermostat_damp_fs)}",
        "fix_modify      thermostat temp tmob",
        "compute         com1 sheet1 com",
        "compute         com2 sheet2 com",
        "variable        z1 equal c_com1[3]",
        "variable        z2 equal c_com2[3]",
        f'variable        ow atom "type=={ow}"',
        f'variable        inter atom "type=={ow} && z>v_z1 && z<v_z2"',
        f'variable        below atom "type=={ow} && z<=v_z1"',
        f'variable        above atom "type=={ow} && z>=v_z2"',
        "compute         nw all reduce sum v_ow",
        "compute         nint all reduce sum v_inter",
        "compute         nbelow all reduce sum v_below",
        "compute         nabove all reduce sum v_above",
        "variable        nion equal count(ions)",
        f"variable        pe_ev equal c_thermo_pe*{KCAL_MOL_TO_EV}",
        f"timestep        {_n(s.timestep_fs)}",
    ]


THERMO: Final = "step atoms c_tmob v_pe_ev c_nw c_nint c_nbelow c_nabove c_com1[3] c_com2[3] v_nion"


def insertion_slab(system: ClaySystem, margin_a: float) -> tuple[float, float]:
    """z range (Å) of insertions: the built sheets' outer faces ± ``margin_a``."""
    z1, z2 = system.sheet_mid_z
    half = system.thickness_a / 2
    return z1 - half - margin_a, z2 + half + margin_a


def _gcmc_block(system: ClaySystem, seg: ClaySegment) -> list[str]:
    s = seg.settings
    lo, hi = insertion_slab(system, s.insertion_margin_a)
    p_atm = seg.pressure_bar / BAR_PER_ATM
    return [
        f"region          inserting block EDGE EDGE EDGE EDGE {_n(lo)} {_n(hi)}",
        f"# reservoir: RH {_n(seg.relative_humidity)} × p_sat(SPC/E) = {_n(seg.pressure_bar)} bar "
        f"= {_n(p_atm)} atm, ideal gas (fugacity coefficient 1); p_sat: {NIST_SPCE_SAT_REFERENCE}",
        f"fix             gcmc water gcmc {s.exchange_every_steps} {s.exchange_attempts} 0 0 "
        f"{seg.seed} {_n(seg.temperature_k)} 0.0 0.5 mol h2o pressure {_n(p_atm)} "
        f"fugacity_coeff 1 full_energy region inserting group mobile shake wshake "
        f"tfac_insert {_n(s.tfac_insert)}",
    ]


def _output_block(s: ClayGcmcSettings, steps: int, thermo: str) -> list[str]:
    return [
        f"thermo_style    custom {thermo}",
        "thermo_modify   norm no flush yes format float %.10g",
        f"thermo          {s.sample_every_steps}",
        f"run             {steps}",
        f"write_restart   {RESTART_NAME}",
    ]


def _head(seg: ClaySegment, start: str) -> list[str]:
    sources = clayff_sources()
    return [
        f"# simwright clay GCMC-MD: {seg.clay.cation} montmorillonite, layer charge "
        f"{_n(seg.clay.layer_charge)}, {_n(seg.temperature_k)} K",
        *[f"# {k}: {v}" for k, v in sources.items()],
        "units           real",
        "atom_style      full",
        "boundary        p p p",
        start,
    ]


def render_equilibration(system: ClaySystem, seg: ClaySegment) -> str:
    """Pre-GCMC NVT equilibration of the built system (no exchanges)."""
    s = seg.settings
    velocity = f"velocity        mobile create {_n(seg.temperature_k)} {seg.seed} dist gaussian"
    blocks = [
        _head(seg, f"read_data       {DATA_NAME}"),
        _forcefield_block(system, s),
        _groups_block(system, s, seg.temperature_k),
        [velocity],
        _output_block(s, s.equilibration_steps, THERMO),
    ]
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


def render_gcmc(system: ClaySystem, seg: ClaySegment) -> str:
    """One GCMC–MD segment from ``start.restart``."""
    s = seg.settings
    thermo = f"{THERMO} f_gcmc[3] f_gcmc[4] f_gcmc[5] f_gcmc[6]"
    tail = [
        *_output_block(s, seg.steps, thermo),
        f"write_dump      water custom {FINAL_DUMP_NAME} id type mol z modify sort id",
    ]
    blocks = [
        _head(seg, f"read_restart    {START_NAME}"),
        _forcefield_block(system, s),
        _groups_block(system, s, seg.temperature_k),
        _gcmc_block(system, seg),
        tail,
    ]
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


def model_record(system: ClaySystem, seg: ClaySegment) -> dict[str, object]:
    """What a segment's ``model.json`` says: models, sources, reservoir, geometry."""
    return {
        "sources": clayff_sources(),
        "p_sat_source": NIST_SPCE_SAT_REFERENCE,
        "temperature_k": seg.temperature_k,
        "relative_humidity": seg.relative_humidity,
        "pressure_bar": seg.pressure_bar,
        "fugacity": "ideal gas, fugacity coefficient 1",
        "pair_cutoff_a": seg.settings.pair_cutoff_a,
        "pppm_accuracy": seg.settings.pppm_accuracy,
        "insertion_slab_a": insertion_slab(system, seg.settings.insertion_margin_a),
        "clay": seg.clay.model_dump(),
    }


def _launch(
    launcher: LammpsLauncher,
    script: str,
    workdir: Path,
    system: ClaySystem,
    timeout_s: float | None,
) -> LammpsResult:
    (workdir / MOLECULE_NAME).write_text(render_water_molecule(system))
    check_template(script, workdir)
    result = launcher.run(script, workdir, type_elements={}, timeout_s=timeout_s)
    if result.restart_path is None:
        raise EngineError(f"LAMMPS wrote no {RESTART_NAME} in {workdir}")
    return result


def prepare_and_equilibrate(
    launcher: LammpsLauncher, seg: ClaySegment, workdir: Path, timeout_s: float | None = None
) -> tuple[Path, LammpsResult]:
    """Build, check (``preparation.json``), equilibrate by NVT; the equilibrated restart."""
    system = build_clay(seg.clay)
    report = check_clay(system)
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / PREPARATION_NAME).write_text(json.dumps(report.to_dict(), indent=2) + "\n")
    if not report.ok:
        names = ", ".join(c.name for c in report.failed())
        raise EngineError(f"clay preparation checks failed: {names} (see {PREPARATION_NAME})")
    (workdir / DATA_NAME).write_text(render_data(system))
    result = _launch(launcher, render_equilibration(system, seg), workdir, system, timeout_s)
    assert result.restart_path is not None
    target = workdir / EQUILIBRATED_NAME
    shutil.copyfile(result.restart_path, target)
    record = {
        "restart": target.name,
        "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
        "steps": seg.settings.equilibration_steps,
        "ensemble": "NVT, no exchanges",
    }
    (workdir / "equilibrated.json").write_text(json.dumps(record, indent=2) + "\n")
    return target, result


def run_clay_segment(
    launcher: LammpsLauncher,
    seg: ClaySegment,
    workdir: Path,
    *,
    restart: Path | None = None,
    timeout_s: float | None = None,
) -> ClayGcmcResult:
    """One GCMC–MD segment in ``workdir``; without ``restart``, prepare and equilibrate first."""
    workdir.mkdir(parents=True, exist_ok=True)
    equilibration = None
    if restart is None:
        restart, equilibration = prepare_and_equilibrate(
            launcher, seg, workdir / "equilibration", timeout_s
        )
    shutil.copyfile(restart, workdir / START_NAME)
    system = build_clay(seg.clay)
    (workdir / MODEL_NAME).write_text(json.dumps(model_record(system, seg), indent=2) + "\n")
    result = _launch(launcher, render_gcmc(system, seg), workdir, system, timeout_s)
    return _samples(result, equilibration)


def _ratio(successes: float, attempts: float) -> float:
    return successes / attempts if attempts > 0 else math.nan


COLUMNS: Final = {
    "n_water": "c_nw",
    "n_interlayer": "c_nint",
    "n_below": "c_nbelow",
    "n_above": "c_nabove",
    "z_sheet1": "c_com1_3",
    "z_sheet2": "c_com2_3",
    "n_ions": "v_nion",
    "temperature": "c_tmob",
    "potential_energy": "v_pe_ev",
}
"""Sample name -> thermo column."""


def _samples(result: LammpsResult, equilibration: LammpsResult | None) -> ClayGcmcResult:
    table = result.thermo
    steps = np.asarray(table["step"], dtype=np.int64)
    if steps.size < 2:
        raise EngineError(f"LAMMPS log of {result.workdir} has fewer than two thermo rows")
    values = {k: np.asarray(table[c], dtype=float)[1:] for k, c in COLUMNS.items()}
    values["n_external"] = values["n_below"] + values["n_above"]
    values["basal_spacing"] = values["z_sheet2"] - values["z_sheet1"]
    delta = {
        k: float(np.asarray(table[f"f_gcmc_{k}"])[-1] - np.asarray(table[f"f_gcmc_{k}"])[0])
        for k in (3, 4, 5, 6)
    }
    return ClayGcmcResult(
        lammps=result,
        abs_start=int(steps[0]),
        abs_end=int(steps[-1]),
        abs_steps=steps[1:],
        values=values,
        insertion_acceptance=_ratio(delta[4], delta[3]),
        deletion_acceptance=_ratio(delta[6], delta[5]),
        equilibration=equilibration,
    )
