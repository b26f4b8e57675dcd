"""Protocol ``dft_vacancy_formation_energy``: a vacancy in an elemental crystal with pw.x.

E_v = E(N−1) − (N−1)/N · E(N), with E(N) the energy of a perfect supercell of N atoms
and E(N−1) that of the same supercell with one atom removed and the ions relaxed at
fixed cell (the unrelaxed vacancy energy, the relaxation's first step, is reported
too). The supercell is the
conventional cubic cell (fcc 4, bcc 2, diamond 8 atoms) — the primitive cell for other
lattices — repeated ``supercell`` times (2×2×2 unless given).

Both cells are the same, so they share one k-point mesh; every input is derived from
the recommended input of the bulk (same cutoffs, files, smearing — Gaussian 0.01 Ry
unless given — and functional) and ``settings.json`` records them. Lattice constant:
the builder's experimental one (not the functional's own); no zero-point or thermal
terms; small supercells overestimate the interaction of a vacancy with its images.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from ase.data import atomic_numbers
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.dft.request import mentions_dft
from simwright.dft.structures import reference_lattice
from simwright.engines.espresso.template import PwInput
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.combine import (
    EnergyDifferenceRequest,
    derive,
    energies_table,
    pw_energy,
    read_energies,
    settings_record,
)
from simwright.protocols.dft.common import pseudo_dirs, recommend_in_step
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.post import pw_estimate, write_json
from simwright.protocols.dft.words import asks_vacancy, property_request
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result
from simwright.structure import Structure

EHRHART = (
    "P. Ehrhart, in Landolt-Börnstein, New Series III/25 (Springer, 1991): vacancy "
    "formation enthalpies from equilibrium measurements"
)
EXPERIMENT_EV: dict[str, float] = {"Al": 0.67, "Cu": 1.28}
"""Experimental vacancy formation enthalpies (eV; Ehrhart 1991)."""


class DftVacancyParams(EnergyDifferenceRequest):
    """Parameters of ``dft_vacancy_formation_energy``: the crystal and the supercell."""

    calculation: Literal["scf"] = "scf"
    supercell: tuple[int, int, int] = Field((2, 2, 2), description="repeats of the cell")
    relax: bool = Field(True, description="relax the ions around the vacancy (fixed cell)")

    @model_validator(mode="after")
    def _element(self) -> DftVacancyParams:
        s = self.structure
        if s.kind != "bulk" or s.name not in atomic_numbers:
            raise ValueError("a vacancy formation energy needs an elemental crystal, e.g. Al")
        if any(n < 1 for n in self.supercell):
            raise ValueError("supercell repeats must be positive")
        return self


def supercell(
    name: str, lattice: str | None, a_a: float | None, reps: tuple[int, ...]
) -> Structure:
    """The perfect supercell: the conventional cubic cell (primitive for non-cubic
    lattices) at the experimental (or given) lattice constant, repeated ``reps``."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import bulk

    lat, a, c = reference_lattice(name)
    lat = lattice or lat
    kwargs: dict[str, Any] = {"a": a_a or a}
    if lat == "hcp":
        kwargs["c"] = c
    cubic = lat in ("fcc", "bcc", "diamond", "sc")
    atoms = bulk(name, lat, cubic=cubic, **kwargs).repeat(reps)
    return Structure.from_ase(atoms)


def without_atom(structure: Structure, index: int = 0) -> Structure:
    """``structure`` with atom ``index`` removed."""
    atoms = structure.to_ase()
    del atoms[index]
    return Structure.from_ase(atoms)


@dataclass(frozen=True)
class VacancyRecommend(Step):
    """Recommend the bulk input; the supercells are derived from it."""

    params: DftVacancyParams

    @override
    def run(self, ctx: RunContext) -> VacancyRun:
        rec = recommend_in_step(ctx, self.params)
        z = {p.element: p.z_valence for p in rec.pseudos.pseudos}
        return VacancyRun(self.params, rec.template, rec.pseudos.functional, z)


@dataclass(frozen=True)
class VacancyRun(Step):
    """Perfect supercell, unrelaxed and relaxed vacancy cells, one k-mesh."""

    params: DftVacancyParams
    template: PwInput
    functional: str
    z_valence: dict[str, float]

    @override
    def run(self, ctx: RunContext) -> VacancyReport:
        p, s = self.params, self.params.structure
        perfect = supercell(s.name, s.lattice, s.a_a, p.supercell)
        if len(perfect) < 2:
            raise ValidationError("the supercell needs at least two atoms")
        inputs = {"perfect": derive(self.template, perfect, "bulk", p.kspacing_inv_a)}
        mesh = inputs["perfect"].kpoints
        vacant = without_atom(perfect)
        inputs["vacancy"] = derive(
            self.template,
            vacant,
            "bulk",
            1.0,
            kpoints=mesh,
            relax=p.relax,
            force_ev_a=p.force_threshold_ev_a,
        )
        record = settings_record(
            inputs,
            pseudo_dirs(ctx, p),
            self.functional,
            p.kspacing_inv_a,
            supercell=f"{'×'.join(map(str, p.supercell))} of the "
            f"{'conventional' if len(perfect) > np.prod(p.supercell) else 'primitive'} cell, "
            f"{len(perfect)} atoms",
            relaxation="ions around the vacancy, fixed cell" if p.relax else "none",
        )
        settings = write_json(ctx, "settings.json", record, "settings", "shared settings")
        ctx.rule("consistent_settings", "perfect and vacancy cells share settings and k-mesh")
        results = []
        for i, (name, inp) in enumerate(inputs.items()):
            ctx.progress(i / len(inputs), name)
            results.append(pw_energy(ctx, p, inp, self.z_valence, name))
        table = energies_table(ctx, results, {}, "perfect and vacancy supercell energies")
        return VacancyReport(p, table, settings, self.functional)


@dataclass(frozen=True)
class VacancyReport(Step):
    """E_v (relaxed and unrelaxed), compared with experiment."""

    params: DftVacancyParams
    runs: ArtifactRef
    settings: ArtifactRef
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        energy, _ = read_energies(ctx, self.runs)
        e_n, n = energy["perfect"]

        def formation(name: str) -> float:
            return energy[name][0] - (n - 1) / n * e_n

        src = self.runs.path
        unrelaxed = formation("vacancy@initial")
        final = formation("vacancy")
        values = {
            "vacancy_formation_energy": Quantity(final, "eV", source=src),
            "vacancy_formation_energy_unrelaxed": Quantity(unrelaxed, "eV", source=src),
            "relaxation_energy": Quantity(unrelaxed - final, "eV", source=src),
            "supercell_atoms": Quantity(float(n), "1", source=src),
        }
        name = self.params.structure.name
        refs = []
        if name in EXPERIMENT_EV:
            refs.append(Reference("vacancy_formation_energy", EXPERIMENT_EV[name], "eV", EHRHART))
        state = "relaxed" if self.params.relax else "unrelaxed"
        return Done(
            report_result(
                ctx,
                title=f"DFT vacancy formation energy in {name}",
                summary=(
                    f"Vacancy formation energy in {name} ({self.functional.upper()}, {n}-atom "
                    f"supercell, {state}): {final:.3f} eV (unrelaxed {unrelaxed:.3f} eV)"
                ),
                values=values,
                artifacts=(self.runs, self.settings),
                references=tuple(refs),
                notes=(
                    "supercell at the builder's experimental lattice constant, fixed cell",
                    "small supercells bias E_v through vacancy–image interaction; converge "
                    "with the supercell",
                    "published PBE/LDA values are not quoted here (unverified); semilocal "
                    "functionals underestimate E_v of Al and Cu through the missing surface "
                    "(intrinsic) error",
                ),
                method=(
                    "E_v = E(N−1) − (N−1)/N E(N) with pw.x energies (error-recovery machine) "
                    "of the perfect and vacant supercells, same cutoffs, files, smearing, "
                    "functional and k-mesh."
                ),
            )
        )


GRAPH = Graph.build("dft_vacancy_formation_energy", [VacancyRecommend, VacancyRun, VacancyReport])


_SUPERCELL = re.compile(r"\b(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(\d+)\s+(?:super)?cell\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "vacancy formation energy of Al with LDA" (with a "3x3x3 supercell"); one
    without DFT words is left to the classical vacancy protocol."""
    if not asks_vacancy(text) or not mentions_dft(text):
        return None
    cleaned = _SUPERCELL.sub(" ", text)
    if re.search(r"\d\s*[x×]\s*\d", cleaned):
        raise ParseError(
            "only an 'N×N×N supercell' is read from the words; give a k-point mesh as "
            "kpoints in a spec file (the supercell's mesh follows kspacing_inv_a)"
        )
    raw = property_request(cleaned, "a vacancy formation energy")
    m = _SUPERCELL.search(text)
    if m is not None:
        raw["supercell"] = tuple(int(g) for g in m.groups())
    if re.search(r"\bunrelaxed\b|\bwithout relax", text.lower()):
        raw["relax"] = False
    return raw


PROTOCOL = Protocol(
    name="dft_vacancy_formation_energy",
    title="Vacancy formation energy in a supercell with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftVacancyParams,
    start=lambda params: VacancyRecommend(params),
    examples=("vacancy formation energy of Al with LDA", "vacancy formation energy of Cu with PBE"),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=pw_estimate(lambda s: 2),
    prepare=dft_inputs,
)
