"""Energy differences over several pw.x runs with consistent settings.

The energy-difference protocols (formation, surface, adsorption and vacancy formation
energies) combine total energies of different systems. Every input is *derived* from
one recommended input (the anchor): the same ``ecutwfc``/``ecutrho``, pseudopotential
files, occupations, smearing, ``degauss`` and functional, and k-point meshes of the
same density (the anchor's k-spacing). :func:`settings_record` compares the inputs
before anything runs, refuses any difference, and returns the record each protocol
writes as ``settings.json`` (with the files' sha256 and each run's mesh).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from ase.units import Bohr, Ry
from pydantic import Field, model_validator

from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.dft.recommender import kpoint_mesh
from simwright.dft.request import DftRequest, Smearing
from simwright.engines.espresso.pseudo_generated import pseudo_record
from simwright.engines.espresso.pw import PwRun, locate_pseudo
from simwright.engines.espresso.template import KPoints, PwInput, Value
from simwright.errors import EngineError, ValidationError
from simwright.graph import RunContext
from simwright.protocols.dft.common import record_recovery, require_success, run_with_recovery
from simwright.protocols.dft.post import PropertyRequest
from simwright.results import ArtifactRef
from simwright.structure import Structure

SETTINGS_KEYS = ("ecutwfc", "ecutrho", "occupations", "smearing", "degauss", "input_dft")
"""&SYSTEM variables every combined run must share."""
PER_RUN_SYSTEM = ("nbnd", "nspin", "tot_magnetization")
"""&SYSTEM variables set per run (bands and spin of molecules), never inherited."""
MOLECULES: dict[str, tuple[str, float]] = {
    "H": ("H2", 0.0),
    "N": ("N2", 0.0),
    "O": ("O2", 2.0),
    "F": ("F2", 0.0),
    "Cl": ("Cl2", 0.0),
}
"""Elements whose reference state is a diatomic gas: the molecule and its spin moment
(μB; O₂ is a triplet ³Σg⁻, the others singlets)."""
FORCE_CONV_RY_BOHR = 1e-3
"""forc_conv_thr of the relaxations a protocol adds (Ry/Bohr, about 0.026 eV/Å)."""


class EnergyDifferenceRequest(PropertyRequest):
    """A DFT request whose runs are combined: one smearing for all of them (Gaussian,
    0.01 Ry unless given; insulators included, so that every run has the same
    occupations) and the edge of the cubic box of isolated molecules."""

    smearing: Smearing | None = Field("gaussian", description="one smearing for every run")
    smearing_ry: float = Field(0.01, gt=0, le=0.2, description="degauss of every run (Ry)")
    box_a: float = Field(12.0, ge=6.0, le=30.0, description="edge of a molecule's cubic box (Å)")

    @model_validator(mode="after")
    def _smearing_for_all(self) -> EnergyDifferenceRequest:
        if self.smearing in (None, "none"):
            raise ValueError("the combined runs share one smearing; give one (e.g. gaussian)")
        if self.hybrid is not None:
            raise ValueError("energy differences with a hybrid functional are not supported")
        return self


def as_relax(inp: PwInput, force_ev_a: float | None = None) -> PwInput:
    """``inp`` as a fixed-cell BFGS relaxation (forces printed, no stress), converged
    when the largest force is below ``force_ev_a`` (eV/Å; 1e-3 Ry/Bohr unless given)."""
    threshold = FORCE_CONV_RY_BOHR if force_ev_a is None else force_ev_a / (Ry / Bohr)
    return inp.with_values(
        {
            "control": {
                "calculation": "relax",
                "tprnfor": True,
                "tstress": None,
                "forc_conv_thr": threshold,
            },
            "ions": {"ion_dynamics": "bfgs"},
        }
    )


def derive(
    anchor: PwInput,
    structure: Structure,
    kind: str,
    kspacing_inv_a: float,
    *,
    kpoints: KPoints | None = None,
    system: Mapping[str, Value] | None = None,
    fixed: tuple[tuple[bool, bool, bool], ...] | None = None,
    relax: bool = False,
    force_ev_a: float | None = None,
) -> PwInput:
    """An input for ``structure`` derived from ``anchor``: the anchor's &SYSTEM shared
    settings and &ELECTRONS, the species (same files) of the elements present, k-points
    of the anchor's spacing (or ``kpoints``); per-run spin and bands from ``system``."""
    present = set(structure.symbols)
    species = tuple(s for s in anchor.species if s.symbol in present)
    missing = present - {s.symbol for s in species}
    if missing:
        raise ValidationError(f"no pseudopotential chosen for {', '.join(sorted(missing))}")
    base = {
        k: v
        for k, v in anchor.namelists["system"].items()
        if not k.startswith("starting_magnetization") and k not in PER_RUN_SYSTEM
    }
    control = {k: v for k, v in anchor.namelists["control"].items() if k != "tstress"}
    control["calculation"] = "scf"
    namelists: dict[str, dict[str, Value]] = {
        "control": control,
        "system": {**base, **(system or {})},
        "electrons": dict(anchor.namelists.get("electrons", {})),
    }
    inp = replace(
        anchor,
        namelists=namelists,
        species=species,
        structure=structure,
        kpoints=kpoints or kpoint_mesh(structure, kspacing_inv_a, kind),
        fixed=fixed,
    )
    return as_relax(inp, force_ev_a) if relax else inp


def molecule_structure(name: str, box_a: float) -> Structure:
    """ASE's G2 geometry of ``name`` centred in a cubic box of edge ``box_a`` (Å)."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import molecule

    atoms = molecule(name)
    atoms.set_cell(np.eye(3) * box_a)
    atoms.center()
    atoms.pbc = True
    return Structure.from_ase(atoms)


def molecule_system(valence: float, moment: float) -> dict[str, Value]:
    """Bands and spin of a molecule: half the electrons plus the moment, + 4 bands;
    ``nspin=2`` with the total moment fixed when it is not zero."""
    nbnd = math.ceil((valence + moment) / 2) + 4
    system: dict[str, Value] = {"nbnd": nbnd}
    if moment > 0:
        system.update(
            {"nspin": 2, "starting_magnetization(1)": 0.5, "tot_magnetization": float(moment)}
        )
    return system


def _shared(inp: PwInput) -> dict[str, Value]:
    return {k: v for k in SETTINGS_KEYS if (v := inp.get("system", k)) is not None}


def settings_record(
    inputs: Mapping[str, PwInput],
    dirs: tuple[Path, ...],
    functional: str,
    kspacing_inv_a: float,
    **extra: Any,
) -> dict[str, Any]:
    """The settings every run shares, with each run's k-points; refuses any difference
    in cutoffs, occupations, smearing, functional or the file used for an element."""
    first = next(iter(inputs.values()))
    shared = _shared(first)
    files: dict[str, str] = {}
    for name, inp in inputs.items():
        if _shared(inp) != shared:
            raise ValidationError(
                f"run {name!r} would not share the settings: {_shared(inp)} vs {shared}"
            )
        for s in inp.species:
            if files.setdefault(s.symbol, s.pseudo_file) != s.pseudo_file:
                raise ValidationError(
                    f"run {name!r} uses {s.pseudo_file} for {s.symbol}, another run "
                    f"{files[s.symbol]}"
                )
    pseudos = {}
    for element, file in files.items():
        path = locate_pseudo(file, dirs)
        if path is None:
            raise ValidationError(f"pseudopotential {file} not found in {dirs}")
        pseudos[element] = pseudo_record(path)
    return {
        "consistent_settings": True,
        "functional": functional,
        "ecutwfc_ry": shared.get("ecutwfc"),
        "ecutrho_ry": shared.get("ecutrho"),
        "occupations": shared.get("occupations"),
        "smearing": shared.get("smearing"),
        "degauss_ry": shared.get("degauss"),
        "kspacing_inv_a": kspacing_inv_a,
        "pseudopotentials": pseudos,
        "runs": {
            name: {
                "formula": inp.structure.formula,
                "atoms": len(inp.structure),
                "k_points": inp.kpoints.describe(),
                "calculation": inp.calculation,
                "fixed_atoms": sum(all(f) for f in inp.fixed) if inp.fixed else 0,
                "nspin": inp.get("system", "nspin", 1),
                "tot_magnetization": inp.get("system", "tot_magnetization"),
            }
            for name, inp in inputs.items()
        },
        **extra,
    }


@dataclass(frozen=True)
class PwEnergy:
    """The result of one combined run: total energy (eV; of the first ionic step too),
    atoms, magnetization, the final structure and the pw.x runs it took."""

    name: str
    energy_ev: float
    initial_energy_ev: float
    n_atoms: int
    magnetization: float
    structure: Structure
    pw_runs: int


def valence_of(inp: PwInput, z_valence: Mapping[str, float]) -> float:
    """Valence electrons of the structure of ``inp``."""
    return float(sum(z_valence[s] for s in inp.structure.symbols))


def pw_energy(
    ctx: RunContext,
    params: DftRequest,
    inp: PwInput,
    z_valence: Mapping[str, float],
    name: str,
) -> PwEnergy:
    """One run through the error-recovery machine (attempts under ``name/``)."""
    outcome = run_with_recovery(ctx, params, inp, valence_of(inp, z_valence), ctx.workdir / name)
    record_recovery(ctx, outcome, f"recovery-{name}.json")
    run: PwRun = require_success(outcome)
    if run.output.energy_ev is None:
        raise EngineError(f"pw.x printed no total energy for {name}", tail=run.call.stdout_tail)
    mag = run.output.total_magnetization
    ctx.structure(run.structure, f"{name}.extxyz", f"final structure of {name}")
    first = run.output.energies_ev[0] if run.output.energies_ev else run.output.energy_ev
    return PwEnergy(
        name,
        float(run.output.energy_ev),
        float(first),
        len(run.structure),
        float("nan") if mag is None else float(mag),
        run.structure,
        len(outcome.attempts),
    )


def energies_table(
    ctx: RunContext, results: list[PwEnergy], attrs: Mapping[str, Any], what: str
) -> ArtifactRef:
    """The runs' energies as ``runs.h5`` (system, energy, n_atoms, magnetization)."""
    table = Table(
        name="combined_runs",
        columns=(
            Column("system", np.array([r.name for r in results]), "1", "run"),
            Column("energy", np.array([r.energy_ev for r in results]), "eV", "total energy"),
            Column(
                "initial_energy",
                np.array([r.initial_energy_ev for r in results]),
                "eV",
                "energy of the first ionic step (the input geometry)",
            ),
            Column("n_atoms", np.array([r.n_atoms for r in results]), "1", "atoms in the cell"),
            Column("magnetization", np.array([r.magnetization for r in results]), "mu_B", "total"),
            Column("pw_runs", np.array([r.pw_runs for r in results]), "1", "pw.x attempts"),
        ),
        description=what,
        attrs=dict(attrs),
    )
    path = write_table(ctx.workdir / "runs.h5", table)
    return ctx.artifact(path, "table", what, SCHEMA_VERSION)


def read_energies(ctx: RunContext, ref: ArtifactRef) -> tuple[dict[str, tuple[float, int]], Any]:
    """{system: (energy eV, atoms)} and the attributes of a table from :func:`energies_table`;
    ``<system>@initial`` holds the energy of a relaxation's first ionic step."""
    t = read_table(ctx.path(ref))
    energies = {}
    for s, e, e0, n in zip(
        t["system"], t["energy"], t["initial_energy"], t["n_atoms"], strict=True
    ):
        energies[str(s)] = (float(e), int(n))
        energies[f"{s}@initial"] = (float(e0), int(n))
    return energies, t.attrs
