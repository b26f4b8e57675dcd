"""Protocol ``dft_cohesive_energy``: cohesive energy of a bulk crystal with pw.x.

E_coh = (Σ_e n_e E_atom(e) − E_bulk) / N, per atom, positive when bound.

* the bulk: an SCF of the recommended primitive cell at the experimental lattice
  constant of the builder (ASE's reference value; not relaxed — run ``dft_eos`` or
  ``dft_relax`` for the PBE/LDA lattice constant);
* each isolated atom: one atom in a cubic box (``box_a``, 12 Å unless given), Γ point,
  spin-polarised (``nspin=2``) with its total moment fixed at the Hund's-rule value
  (Cu 1, Al 1, Si 2 μB), with smearing;
* **consistent settings**: both use the same ecutwfc, ecutrho, pseudopotential files,
  smearing and functional — the atom's input is derived from the bulk's, the two are
  compared before any run, and the record ``settings.json`` names them with the
  files' sha256. Every pw.x run goes through the error-recovery machine.

The atom is spherical in this set-up (fractional occupation of degenerate orbitals
under smearing), so its energy lies above the true (symmetry-broken) atomic ground
state and the cohesive energy is overestimated by up to a few tenths of an eV for
open-shell p atoms such as Si; the report says so.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from ase.data import atomic_numbers, ground_state_magnetic_moments
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.dft.request import DftRequest, Smearing, mentions_dft
from simwright.engines.espresso.pseudo_generated import pseudo_record
from simwright.engines.espresso.pw import locate_pseudo
from simwright.engines.espresso.template import KPoints, PwInput, Species, Value
from simwright.errors import EngineError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.common import (
    pseudo_dirs,
    recommend_in_step,
    record_recovery,
    require_success,
    run_with_recovery,
)
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.post import PropertyRequest, pw_estimate, write_json
from simwright.protocols.dft.words import asks_cohesive, property_request
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result
from simwright.structure import Structure

KITTEL_COHESIVE = (
    "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), ch. 3, "
    "Table 1 (cohesive energies, eV/atom)"
)
PAIER_2006 = (
    "J. Paier, M. Marsman, K. Hummer, G. Kresse, I. C. Gerber, J. G. Ángyán, "
    "J. Chem. Phys. 124, 154709 (2006): PAW PBE atomization energies of solids"
)
EXPERIMENT_EV: dict[str, float] = {"Si": 4.63, "Cu": 3.49, "Al": 3.39}
"""Experimental cohesive energies (eV/atom, Kittel)."""
PBE_EV: dict[str, float] = {"Si": 4.55, "Cu": 3.48, "Al": 3.43}
"""Published PBE cohesive energies (eV/atom, Paier et al. 2006)."""
ATOM_MIXING_BETA = 0.1
"""Mixing of the isolated atoms' SCF."""
SETTINGS_KEYS = ("ecutwfc", "ecutrho", "occupations", "smearing", "degauss", "input_dft")
"""&SYSTEM variables that must be equal in the bulk and the atom inputs."""


class DftCohesiveParams(PropertyRequest):
    """Parameters of ``dft_cohesive_energy``: the bulk request, the atom box and one
    smearing for both (Gaussian, 0.01 Ry unless given)."""

    calculation: Literal["scf"] = "scf"
    smearing: Smearing | None = Field("gaussian", description="one smearing for bulk and atoms")
    smearing_ry: float = Field(0.01, gt=0, le=0.2, description="degauss for bulk and atoms (Ry)")
    box_a: float = Field(12.0, ge=6.0, le=30.0, description="edge of the atom's cubic box (Å)")
    atom_magnetization: float = Field(
        0.5, gt=0, le=1, description="starting_magnetization of each isolated atom"
    )

    @model_validator(mode="after")
    def _bulk_with_smearing(self) -> DftCohesiveParams:
        if self.structure.kind not in ("bulk", "spacegroup", "file", "materials_project"):
            raise ValueError("a cohesive energy needs a bulk crystal")
        if self.smearing in (None, "none"):
            raise ValueError("the isolated atoms need smearing; give one for bulk and atoms")
        return self


def hund_moment(element: str) -> float:
    """The free atom's ground-state spin moment (μB, Hund's rules, as ASE tabulates it)."""

    return float(ground_state_magnetic_moments[atomic_numbers[element]])


def atom_input(
    bulk: PwInput, element: str, box_a: float, magnetization: float, z_valence: float
) -> PwInput:
    """The isolated-atom input derived from the bulk one: same &SYSTEM cutoffs, smearing
    and functional, the element's pseudopotential file, Γ, nspin=2 with the total moment
    fixed at the Hund's-rule value (``tot_magnetization``), no stress; one band per
    valence electron plus 4 and gentle local-TF mixing (a spin-polarised Cu atom in a box
    diverged at iteration 4 with pw.x's defaults and mixing_beta 0.3, and with a free
    moment crawled at 1e-4 Ry for 25 iterations)."""
    nbnd = math.ceil(z_valence) + 4
    species = next(s for s in bulk.species if s.symbol == element)
    system: dict[str, Value] = {
        k: v for k, v in bulk.namelists["system"].items() if not k.startswith("starting_mag")
    }
    moment = hund_moment(element)
    system.update({"nspin": 2, "starting_magnetization(1)": magnetization, "nbnd": nbnd})
    if moment > 0:
        system["tot_magnetization"] = moment
    electrons = {
        **bulk.namelists.get("electrons", {}),
        "mixing_beta": ATOM_MIXING_BETA,
        "mixing_mode": "local-TF",
    }
    control = {k: v for k, v in bulk.namelists["control"].items() if k != "tstress"}
    half = box_a / 2
    atom = Structure((element,), np.array([[half, half, half]]), np.eye(3) * box_a, (True,) * 3)
    return replace(
        bulk,
        namelists={"control": control, "system": system, "electrons": electrons},
        species=(Species(species.symbol, species.pseudo_file, species.mass_amu),),
        structure=atom,
        kpoints=KPoints("gamma"),
        fixed=None,
    )


def _shared(inp: PwInput) -> dict[str, Value]:
    return {k: v for k in SETTINGS_KEYS if (v := inp.get("system", k)) is not None}


def consistent_settings(
    bulk: PwInput, atoms: dict[str, PwInput], dirs: tuple[Path, ...], functional: str, box_a: float
) -> dict[str, Any]:
    """The record of the settings the bulk and atom runs share; refuses any difference."""
    shared = {k: bulk.get("system", k) for k in SETTINGS_KEYS if bulk.get("system", k) is not None}
    for element, inp in atoms.items():
        theirs = {
            k: inp.get("system", k) for k in SETTINGS_KEYS if inp.get("system", k) is not None
        }
        files = {s.pseudo_file for s in inp.species}
        mine = {s.pseudo_file for s in bulk.species if s.symbol == element}
        if theirs != shared or files != mine:
            raise ValidationError(
                f"the {element} atom would not use the bulk's settings: {theirs} vs {shared}"
            )
    pseudos = {}
    for s in bulk.species:
        path = locate_pseudo(s.pseudo_file, dirs)
        if path is None:
            raise ValidationError(f"pseudopotential {s.pseudo_file} not found in {dirs}")
        pseudos[s.symbol] = pseudo_record(path)
    return {
        "consistent_settings": True,
        "functional": functional,
        "ecutwfc_ry": shared.get("ecutwfc"),
        "ecutrho_ry": shared.get("ecutrho"),
        "occupations": shared.get("occupations"),
        "smearing": shared.get("smearing"),
        "degauss_ry": shared.get("degauss"),
        "pseudopotentials": pseudos,
        "bulk_k_points": bulk.kpoints.describe(),
        "atom": (
            f"one atom in a {box_a:g} Å cubic box, Γ point, nspin=2, total moment fixed at "
            + ", ".join(f"{e} {hund_moment(e):g} μB" for e in atoms)
        ),
    }


@dataclass(frozen=True)
class CohesiveRecommend(Step):
    """Recommend the bulk input (the atoms' inputs are derived from it)."""

    params: DftCohesiveParams

    @override
    def run(self, ctx: RunContext) -> CohesiveRun:
        rec = recommend_in_step(ctx, self.params)
        if rec.built.kind != "bulk":
            raise ValidationError("a cohesive energy needs a periodic bulk crystal")
        valence = tuple(p.z_valence for p in rec.pseudos.pseudos)
        return CohesiveRun(self.params, rec.template, rec.pseudos.functional, valence)


def _energy(
    ctx: RunContext, params: DftRequest, inp: PwInput, valence: float, name: str
) -> tuple[float, float]:
    """(energy eV, total magnetization) of one SCF through the recovery machine."""
    outcome = run_with_recovery(ctx, params, inp, valence, ctx.workdir / name)
    record_recovery(ctx, outcome, f"recovery-{name}.json")
    run = require_success(outcome)
    if run.output.energy_ev is None:
        raise EngineError(f"pw.x printed no total energy for {name}", tail=run.call.stdout_tail)
    mag = run.output.total_magnetization
    return run.output.energy_ev, float("nan") if mag is None else mag


@dataclass(frozen=True)
class CohesiveRun(Step):
    """Check the shared settings, record them, run the bulk and each atom."""

    params: DftCohesiveParams
    template: PwInput
    functional: str
    z_valence: tuple[float, ...]
    """Valence electrons of each species of the template, in its order."""

    @override
    def run(self, ctx: RunContext) -> CohesiveReport:
        p = self.params
        counts = Counter(self.template.structure.symbols)
        z = dict(zip((s.symbol for s in self.template.species), self.z_valence, strict=True))
        atoms = {
            e: atom_input(self.template, e, p.box_a, p.atom_magnetization, z[e]) for e in counts
        }
        record = consistent_settings(
            self.template, atoms, pseudo_dirs(ctx, p), self.functional, p.box_a
        )
        settings = write_json(
            ctx, "settings.json", record, "settings", "consistent settings of all runs"
        )
        ctx.rule("consistent_settings", "bulk and atoms share cutoffs, files, smearing")
        bulk_valence = sum(z[s] for s in self.template.structure.symbols)
        names, n = ["bulk"], [len(self.template.structure)]
        runs = [_energy(ctx, p, self.template, bulk_valence, "bulk")]
        for i, (element, inp) in enumerate(atoms.items(), start=1):
            ctx.progress(i / (len(atoms) + 1), f"isolated {element} atom")
            runs.append(_energy(ctx, p, inp, z[element], f"atom-{element}"))
            names.append(f"atom {element}")
            n.append(1)
        energies, mags = [r[0] for r in runs], [r[1] for r in runs]
        table = Table(
            name="cohesive_runs",
            columns=(
                Column("system", np.array(names), "1", "bulk cell or isolated atom"),
                Column("energy", np.array(energies), "eV", "total (free) energy of the cell"),
                Column("n_atoms", np.array(n), "1", "atoms in the cell"),
                Column("magnetization", np.array(mags), "mu_B", "total magnetization"),
            ),
            description="energies combined into the cohesive energy",
            attrs={"counts": ",".join(f"{e}:{c}" for e, c in counts.items())},
        )
        path = write_table(ctx.workdir / "cohesive_runs.h5", table)
        ref = ctx.artifact(path, "table", "bulk and atom energies", SCHEMA_VERSION)
        return CohesiveReport(p, ref, settings, self.functional)


@dataclass(frozen=True)
class CohesiveReport(Step):
    """E_coh per atom from the table, compared with PBE and experiment."""

    params: DftCohesiveParams
    runs: ArtifactRef
    settings: ArtifactRef
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        t = read_table(ctx.path(self.runs))
        energy = dict(zip([str(s) for s in t["system"]], np.asarray(t["energy"]), strict=True))
        counts = {k: int(v) for k, v in (x.split(":") for x in str(t.attrs["counts"]).split(","))}
        n = sum(counts.values())
        e_coh = (sum(c * energy[f"atom {e}"] for e, c in counts.items()) - energy["bulk"]) / n
        src = self.runs.path
        values = {
            "cohesive_energy": Quantity(e_coh, "eV", source=src),
            "bulk_energy_per_atom": Quantity(energy["bulk"] / n, "eV", source=src),
        }
        for e in counts:
            values[f"atom_energy_{e}"] = Quantity(energy[f"atom {e}"], "eV", source=src)
        name = self.params.structure.name
        refs: list[Reference] = []
        if name in EXPERIMENT_EV:
            refs.append(Reference("cohesive_energy", EXPERIMENT_EV[name], "eV", KITTEL_COHESIVE))
        if name in PBE_EV and self.functional == "pbe":
            refs.append(Reference("cohesive_energy", PBE_EV[name], "eV", PAIER_2006))
        p = self.params
        summary = (
            f"Cohesive energy of {name} ({self.functional.upper()}): {e_coh:.3f} eV/atom "
            f"(bulk {energy['bulk'] / n:.3f} eV/atom; consistent settings, see settings.json)"
        )
        return Done(
            report_result(
                ctx,
                title=f"DFT cohesive energy of {name}",
                summary=summary,
                values=values,
                artifacts=(self.runs, self.settings),
                references=tuple(refs),
                notes=(
                    "bulk at the builder's experimental lattice constant (not relaxed)",
                    f"atom: {p.box_a:g} Å cubic box, Γ point, nspin=2, total moment fixed at "
                    f"the Hund's-rule value, {p.smearing} smearing {p.smearing_ry:g} Ry; the "
                    "spherical (fractionally occupied) atom overestimates E_coh for open p shells",
                    "no zero-point energy correction",
                ),
                method=(
                    "E_coh = (Σ n_e E_atom − E_bulk)/N with pw.x SCF energies (error-recovery "
                    "machine) of the bulk cell and of each isolated atom, with the same "
                    "cutoffs, pseudopotential files, smearing and functional (settings.json)."
                ),
            )
        )


GRAPH = Graph.build("dft_cohesive_energy", [CohesiveRecommend, CohesiveRun, CohesiveReport])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim DFT requests for a cohesive energy ("cohesive energy of Cu with PBE"); one
    without DFT words ("... with EMT") is left to the other cohesive-energy protocols."""
    if not asks_cohesive(text) or not mentions_dft(text):
        return None
    return property_request(text, "a cohesive energy")


PROTOCOL = Protocol(
    name="dft_cohesive_energy",
    title="Cohesive energy (bulk vs isolated atoms) with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftCohesiveParams,
    start=lambda params: CohesiveRecommend(params),
    examples=("cohesive energy of Cu with PBE", "cohesive energy of Si with LDA"),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=pw_estimate(lambda s: len(set(s.symbols))),
    prepare=dft_inputs,
)
