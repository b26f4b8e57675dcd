"""Protocol ``excitation_spectrum``: vertical excitations by TDDFT and a UV-vis spectrum
from a Boltzmann-weighted conformer ensemble, in one or more solvents.

Conformers: RDKit embeddings (ETKDG + MMFF), each optimised with GFN2-xTB, ranked by the
xTB energy; those within ``window_kj_mol`` of the lowest (at most ``max_conformers``)
are kept. Per solvent (implicit: PCM unless stated; "gas" for none) every kept
conformer gets a TDDFT calculation at the stated level; its ground-state SCF energy in
that solvent refines the Boltzmann weights. The spectrum is the weighted sum of
Gaussian bands (σ = ``broadening_ev``) with the oscillator strengths; reported per
solvent: S1 (the lowest excitation, e.g. n→π* of carbonyls), λ_max of the brightest
band, and the solvatochromic shifts relative to the first solvent.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import override

from simwright.builders.qc_molecules import build_molecule, embed_conformers
from simwright.engines.qc import calculator, pyscf_calc
from simwright.engines.qc.geomopt import optimise
from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import ParseError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.molecules.qc import QcMolecule
from simwright.molecules.solvents import find_solvent
from simwright.molecules.species import find_species
from simwright.protocols.molecules import calc, words
from simwright.protocols.molecules.params import MoleculeInput, QcParams
from simwright.protocols.molecules.references import EXCITATIONS_EV
from simwright.protocols.molecules.sizing import molecule_estimate, molecule_inputs
from simwright.protocols.registry import Protocol
from simwright.results import ProtocolResult, Quantity
from simwright.steps.report import report_result

EV_NM = 1239.84198
"""hc in eV·nm."""
KB_KJ = 8.314462618e-3
XTB = LevelOfTheory(method="xtb")


class ExcitationParams(QcParams):
    """Parameters of ``excitation_spectrum``."""

    molecule: MoleculeInput
    solvents: tuple[str, ...] = ("gas",)
    level: LevelOfTheory = LevelOfTheory(method="b3lyp", basis="def2-svp")
    n_states: int = Field(default=5, ge=1, le=50)
    tda: bool = False
    conformers: int = Field(default=10, ge=1, le=200)
    max_conformers: int = Field(default=3, ge=1, le=50)
    window_kj_mol: float = Field(default=10.0, gt=0)
    broadening_ev: float = Field(default=0.2, gt=0)
    temperature_k: float = Field(default=298.15, gt=0)

    @field_validator("solvents", mode="before")
    @classmethod
    def _solvents(cls, value: Any) -> Any:
        items = [value] if isinstance(value, str) else list(value)
        out = []
        for s in items:
            key = str(s).strip().lower()
            out.append("gas" if key in ("gas", "vacuum", "none") else find_solvent(key).name)
        if not out:
            raise ValueError("state at least one solvent (or 'gas')")
        return tuple(dict.fromkeys(out))

    def molecule_inputs(self) -> tuple[MoleculeInput, ...]:
        """The one molecule."""
        return (self.molecule,)

    def levels(self) -> tuple[LevelOfTheory, ...]:
        """The TDDFT level in each solvent."""
        return tuple(self.level_in(s) for s in self.solvents)

    def level_in(self, solvent: str) -> LevelOfTheory:
        """The level with ``solvent`` ('gas' for none)."""
        return self.level.in_solvent(None if solvent == "gas" else solvent)

    def hessians(self) -> bool:
        """No frequencies."""
        return False


@dataclass(frozen=True)
class Conformers(Step):
    """Embed conformers, optimise them with GFN2-xTB, keep the low-energy ones."""

    params: ExcitationParams

    @override
    def run(self, ctx: RunContext) -> Excite:
        p, m = self.params, self.params.molecule
        if m.xyz:
            candidates: tuple[QcMolecule, ...] = (build_molecule(m.source()),)
        else:
            smiles = find_species(m.name).smiles if m.name else m.smiles
            mult = m.multiplicity or (find_species(m.name).multiplicity if m.name else None)
            candidates = embed_conformers(
                m.label,
                smiles,
                charge=m.charge,
                multiplicity=mult,
                n_conformers=p.conformers,
                seed=p.seed,
            )
        ranked = []
        with calc.limited_threads(p.threads):
            for i, c in enumerate(candidates):
                start = time.perf_counter()
                opt = optimise(
                    c, lambda x: calculator.energy_gradient(x, XTB), ctx.workdir, prefix=f"xtb{i}"
                )
                ctx.engine_call(calculator.record(XTB, "conformer optimisation of", c, start))
                ranked.append((opt.energy_ha * calc.HARTREE_KJ_MOL, opt.molecule))
        ranked.sort(key=lambda x: x[0])
        e0 = ranked[0][0]
        kept = tuple(mol for e, mol in ranked if e - e0 <= p.window_kj_mol)[: p.max_conformers]
        ctx.rule(
            "conformer_window",
            f"{len(candidates)} embedded, {len(kept)} kept within "
            f"{p.window_kj_mol:g} kJ/mol (at most {p.max_conformers})",
        )
        path = ctx.workdir / "conformers.xyz"
        path.write_text("".join(k.xyz() for k in kept), encoding="utf-8")
        ctx.artifact(path, "structure", "kept conformers (GFN2-xTB geometries)")
        return Excite(p, kept, 0, ())


@dataclass(frozen=True)
class SolventSpectrum:
    """TDDFT of every conformer in one solvent: weights and states."""

    solvent: str
    weights: tuple[float, ...]
    energies_ev: tuple[tuple[float, ...], ...]
    strengths: tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Excite(Step):
    """TDDFT of every conformer in solvent ``index``; the next solvent, or the spectrum."""

    params: ExcitationParams
    conformers: tuple[QcMolecule, ...]
    index: int
    done: tuple[SolventSpectrum, ...]

    @override
    def run(self, ctx: RunContext) -> Excite | Spectrum:
        p = self.params
        solvent = p.solvents[self.index]
        level = p.level_in(solvent)
        results = []
        with calc.limited_threads(p.threads):
            for c in self.conformers:
                start = time.perf_counter()
                ex = pyscf_calc.excitations(c, level, p.n_states, tda=p.tda)
                ctx.engine_call(calculator.record(level, "TDDFT of", c, start))
                results.append(ex)
        e = np.array([r.ground_energy_ha for r in results]) * calc.HARTREE_KJ_MOL
        w = np.exp(-(e - e.min()) / (KB_KJ * p.temperature_k))
        w /= w.sum()
        spec = SolventSpectrum(
            solvent,
            tuple(float(x) for x in w),
            tuple(r.energies_ev for r in results),
            tuple(r.oscillator_strengths for r in results),
        )
        done = (*self.done, spec)
        if self.index + 1 < len(p.solvents):
            return Excite(p, self.conformers, self.index + 1, done)
        return Spectrum(p, done)


def broadened(spec: SolventSpectrum, sigma_ev: float) -> tuple[np.ndarray, np.ndarray]:
    """(energies eV, intensity) of the Boltzmann-weighted Gaussian-broadened spectrum."""
    grid = np.linspace(1.0, 12.0, 2201)
    y = np.zeros_like(grid)
    for w, es, fs in zip(spec.weights, spec.energies_ev, spec.strengths, strict=True):
        for e, f in zip(es, fs, strict=True):
            y += w * f * np.exp(-0.5 * ((grid - e) / sigma_ev) ** 2)
    return grid, y


@dataclass(frozen=True)
class Spectrum(Step):
    """λ_max and S1 per solvent, solvatochromic shifts, spectrum table, report."""

    params: ExcitationParams
    spectra: tuple[SolventSpectrum, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        values: dict[str, Quantity] = {}
        rows: dict[str, Any] = {}
        first: dict[str, float] = {}
        for k, s in enumerate(self.spectra):
            grid, y = broadened(s, p.broadening_ev)
            s1 = sum(w * es[0] for w, es in zip(s.weights, s.energies_ev, strict=True))
            e_max = float(grid[int(np.argmax(y))]) if y.max() > 0 else math.nan
            tag = s.solvent.replace(" ", "_")
            values[f"S1_{tag}"] = Quantity(s1, "eV", source="spectrum.json")
            values[f"S1_wavelength_{tag}"] = Quantity(EV_NM / s1, "nm", source="spectrum.json")
            if math.isfinite(e_max):
                values[f"lambda_max_{tag}"] = Quantity(EV_NM / e_max, "nm", source="spectrum.json")
            if k == 0:
                first = {"s1": s1, "emax": e_max}
            else:
                values[f"S1_shift_{tag}"] = Quantity(s1 - first["s1"], "eV", source="spectrum.json")
                if math.isfinite(e_max) and math.isfinite(first["emax"]):
                    values[f"lambda_max_shift_{tag}"] = Quantity(
                        EV_NM / e_max - EV_NM / first["emax"], "nm", source="spectrum.json"
                    )
            rows[s.solvent] = {
                "weights": s.weights,
                "energies_ev": s.energies_ev,
                "oscillator_strengths": s.strengths,
                "grid_ev": grid[::10].tolist(),
                "intensity": y[::10].tolist(),
            }
        table = calc.write_json(ctx, "spectrum.json", rows, "states and broadened spectra")
        ref = EXCITATIONS_EV.get(p.molecule.name)
        refs = (ref,) if ref and "gas" in p.solvents else ()
        summary = ", ".join(
            f"{s.solvent}: S1 {values['S1_' + s.solvent.replace(' ', '_')].value:.2f} eV"
            for s in self.spectra
        )
        n_conf = len(self.spectra[0].weights)
        return Done(
            report_result(
                ctx,
                title=f"Excitations of {p.molecule.label}",
                summary=summary,
                values=values,
                method=(
                    f"{'TDA' if p.tda else 'TDDFT'} at {p.level.label()} ({p.n_states} states) "
                    f"on {n_conf} conformer(s) (RDKit ETKDG, GFN2-xTB optimised, within "
                    f"{p.window_kj_mol:g} kJ/mol), Boltzmann weights from the SCF energies in "
                    f"each solvent at {p.temperature_k:g} K; Gaussian bands σ = "
                    f"{p.broadening_ev:g} eV; solvents: {', '.join(p.solvents)} (PySCF "
                    f"{p.level_in(p.solvents[-1]).model or 'gas'})"
                ),
                artifacts=(table,),
                references=refs,
                notes=(
                    "vertical excitations at GFN2-xTB geometries; experiment's band maxima "
                    "include vibronic effects (often 0.1-0.3 eV apart)",
                ),
            )
        )


GRAPH = Graph.build("excitation_spectrum", [Conformers, Excite, Spectrum])

_ASKS = re.compile(
    r"excitation energ|(?:uv[-/ ]?vis|electronic|absorption) spectr|λ_?max|lambda[_ ]max"
    r"|solvatochromi|n\s?(?:→|->|to)\s?(?:π|pi)|tddft|td-dft",
    re.I,
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "excitation energies of formaldehyde", "UV-vis spectrum of acetone in water
    and hexane with CAM-B3LYP/def2-SVP"."""
    if not _ASKS.search(text):
        return None
    mols = words.read_molecules(text)
    if not mols:
        return None
    words.refuse_unread_numbers(text, "excitation_spectrum")
    raw: dict[str, Any] = {"molecule": {**mols[0], **words.read_spin(text)}}
    solvents = words.read_solvents(text)
    if solvents:
        if re.search(r"\bgas(?: phase)?\b", text, re.I):
            solvents = ["gas", *solvents]
        raw["solvents"] = solvents
    level = words.read_level(text)
    if level:
        raw["level"] = level
    m = re.search(r"(\d+)\s+(?:excited\s+)?states\b", text, re.I)
    if m:
        raw["n_states"] = int(m.group(1))
    cond = words.read_conditions(text)
    if "pressure_bar" in cond:
        raise ParseError("a pressure does not enter vertical excitations: leave it out")
    raw.update(cond)
    if re.search(r"\btda\b|tamm[- ]dancoff", text, re.I):
        raw["tda"] = True
    return raw


PROTOCOL = Protocol(
    name="excitation_spectrum",
    title="Vertical excitations (TDDFT) and conformer-averaged UV-vis spectra in solvents",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ExcitationParams,
    start=lambda params: Conformers(params),
    examples=(
        "excitation energies of formaldehyde with B3LYP/def2-SVP",
        "UV-vis spectrum of acetone in water and hexane",
    ),
    parse_request=parse_request,
    estimate=molecule_estimate,
    prepare=molecule_inputs,
)
