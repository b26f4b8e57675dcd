"""Steps shared by the protocols that combine several molecules at one level of theory
(reaction energies, ring strain, pKa): one step per molecule, then the combination.

:class:`ComputeSpecies` builds, optimises and (when thermal corrections are asked)
computes frequencies of one molecule, then hands on to itself for the next; every
molecule is computed at the same level. :class:`Combine` passes the results to the
parameters' own ``combine`` (each protocol's arithmetic and report content).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from typing_extensions import override

from simwright.builders.qc_molecules import build_molecule
from simwright.engines.qc.level import LevelOfTheory
from simwright.graph import Done, RunContext, Step
from simwright.protocols.molecules import calc
from simwright.protocols.molecules.params import MoleculeInput
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result


@dataclass(frozen=True)
class SpeciesResult:
    """One molecule at one level: energy (hartree), thermal corrections (kJ/mol) when
    computed, imaginary modes and the optimised geometry."""

    key: str
    formula: str
    level: str
    energy_ha: float
    enthalpy_corr_kj: float | None = None
    gibbs_corr_kj: float | None = None
    imaginary: int = 0
    geometry: ArtifactRef | None = None


@dataclass(frozen=True)
class Job:
    """A molecule to compute: a key (its label), the molecule, the optimisation level
    and the energy level (a single point when they differ)."""

    key: str
    molecule: MoleculeInput
    geometry_level: LevelOfTheory
    energy_level: LevelOfTheory
    thermal: bool


@dataclass(frozen=True)
class Combined:
    """What a protocol's ``combine`` returns for the report."""

    title: str
    summary: str
    values: dict[str, Quantity]
    method: str
    references: tuple[Reference, ...] = ()
    notes: tuple[str, ...] = ()


class CombinesSpecies(Protocol):
    """The parameters of a protocol built on these steps."""

    threads: int
    temperature_k: float
    pressure_bar: float
    seed: int

    def jobs(self) -> tuple[Job, ...]:
        """The molecules to compute, in order."""
        ...

    def combine(self, results: dict[str, SpeciesResult]) -> Combined:
        """The protocol's quantities from the molecules' results."""
        ...


@dataclass(frozen=True)
class ComputeSpecies(Step):
    """Compute molecule ``index`` of ``params.jobs()``; the next one, or combine."""

    params: Any
    index: int
    results: tuple[SpeciesResult, ...]

    @override
    def run(self, ctx: RunContext) -> ComputeSpecies | Combine:
        p = self.params
        job = p.jobs()[self.index]
        with calc.limited_threads(p.threads):
            res = compute(ctx, p, job)
        results = (*self.results, res)
        if self.index + 1 < len(p.jobs()):
            return ComputeSpecies(p, self.index + 1, results)
        return Combine(p, results)


def compute(ctx: RunContext, p: Any, job: Job) -> SpeciesResult:
    """Build, optimise, optionally Hessian + thermochemistry, optionally single point."""
    mol = build_molecule(job.molecule.source(), seed=p.seed)
    if job.molecule.multiplicity is None:
        ctx.event("assumed", f"{mol.name}: multiplicity {mol.multiplicity}")
    opt, ref = calc.optimise_in_step(ctx, mol, job.geometry_level, prefix="opt")
    h_corr = g_corr = None
    n_imag = 0
    if job.thermal:
        freqs = calc.frequencies_in_step(ctx, opt.molecule, job.geometry_level)
        n_imag = len(freqs.imaginary)
        if n_imag:
            ctx.event("warning", f"{mol.name}: {n_imag} imaginary mode(s) {freqs.imaginary}")
        th = calc.thermo_of(opt.molecule, freqs, p.temperature_k, p.pressure_bar)
        h_corr, g_corr = th.thermal_enthalpy_kj_mol, th.gibbs_correction_kj_mol
    energy = opt.energy_ha
    if job.energy_level != job.geometry_level:
        energy = calc.energy_in_step(ctx, opt.molecule, job.energy_level)
    ctx.rule("species_done", f"{job.key}: E = {energy:.8f} Eh at {job.energy_level.label()}")
    return SpeciesResult(
        job.key, mol.formula, job.energy_level.label(), energy, h_corr, g_corr, n_imag, ref
    )


@dataclass(frozen=True)
class Combine(Step):
    """Combine the molecules' results as the protocol says, and report."""

    params: Any
    results: tuple[SpeciesResult, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        by_key = {r.key: r for r in self.results}
        out: Combined = self.params.combine(by_key)
        table = calc.write_json(
            ctx,
            "species.json",
            [
                {
                    "molecule": r.key,
                    "formula": r.formula,
                    "level": r.level,
                    "energy_ha": r.energy_ha,
                    "enthalpy_corr_kj_mol": r.enthalpy_corr_kj,
                    "gibbs_corr_kj_mol": r.gibbs_corr_kj,
                    "imaginary_modes": r.imaginary,
                }
                for r in self.results
            ],
            "energies of every molecule",
        )
        geometries = tuple(r.geometry for r in self.results if r.geometry is not None)
        notes = list(out.notes)
        if any(r.imaginary for r in self.results):
            notes.append("WARNING: some molecules kept imaginary modes (see events)")
        return Done(
            report_result(
                ctx,
                title=out.title,
                summary=out.summary,
                values=out.values,
                method=out.method,
                artifacts=(table, *geometries),
                references=out.references,
                notes=notes,
            )
        )


SPECIES_STEPS: tuple[type[Step], ...] = (ComputeSpecies, Combine)
"""The steps of the multi-molecule protocols, entry first."""


def reaction_delta(
    terms: list[tuple[int, str]], results: dict[str, SpeciesResult]
) -> dict[str, float | None]:
    """ΔE, ΔH, ΔG (kJ/mol) of Σ ν_i X_i (ν negative for reactants); ΔH/ΔG None when a
    molecule lacks thermal corrections."""
    de = sum(nu * results[k].energy_ha for nu, k in terms) * calc.HARTREE_KJ_MOL
    out: dict[str, float | None] = {"energy": de, "enthalpy": None, "gibbs": None}
    if all(results[k].enthalpy_corr_kj is not None for _, k in terms):
        out["enthalpy"] = de + sum(nu * (results[k].enthalpy_corr_kj or 0.0) for nu, k in terms)
        out["gibbs"] = de + sum(nu * (results[k].gibbs_corr_kj or 0.0) for nu, k in terms)
    return out


def job_list(
    molecules: tuple[MoleculeInput, ...],
    level: LevelOfTheory,
    thermal: bool,
    geometry_level: LevelOfTheory | None = None,
) -> tuple[Job, ...]:
    """One job per molecule at ``level`` (geometries at ``geometry_level`` if given)."""
    geo = geometry_level or level
    return tuple(Job(m.label, m, geo, level, thermal) for m in molecules)
