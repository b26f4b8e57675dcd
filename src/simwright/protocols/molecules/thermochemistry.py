"""Protocol ``molecule_thermochemistry``: geometry optimisation, harmonic frequencies
and ideal-gas thermochemistry of one molecule.

geomeTRIC optimises the molecule at the stated level (PySCF HF/DFT or GFN2-xTB); the
Hessian gives harmonic frequencies. Rule for imaginary modes (below -20 cm⁻¹) of a
minimum search: displace along the mode (0.1 Å largest atomic step) and re-optimise,
at most twice, then report with a warning. Asked for a transition state, geomeTRIC
searches a saddle point and the report checks it has exactly one imaginary mode. ZPE,
H, S and G at T and p come from the ideal-gas rigid-rotor harmonic-oscillator model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import Field
from typing_extensions import override

from simwright.builders.qc_molecules import build_molecule
from simwright.engines.qc.level import LevelOfTheory
from simwright.graph import Done, Graph, RunContext, Step
from simwright.molecules.qc import QcMolecule
from simwright.protocols.molecules import calc, words
from simwright.protocols.molecules.params import MoleculeInput, QcParams
from simwright.protocols.molecules.references import MOLECULE_REFERENCES
from simwright.protocols.molecules.sizing import molecule_estimate, molecule_inputs
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.report import report_result

DISPLACEMENT_A = 0.1
"""Largest atomic displacement along an imaginary mode before re-optimising (Å)."""


class ThermochemistryParams(QcParams):
    """Parameters of ``molecule_thermochemistry``."""

    molecule: MoleculeInput
    temperature_k: float = Field(default=298.15, gt=0, le=5000)
    pressure_bar: float = Field(default=1.0, gt=0)
    transition_state: bool = False
    max_displacements: int = Field(default=2, ge=0, le=5)

    def molecule_inputs(self) -> tuple[MoleculeInput, ...]:
        """The one molecule."""
        return (self.molecule,)

    def levels(self) -> tuple[LevelOfTheory, ...]:
        """The one level of theory."""
        return (self.level,)


@dataclass(frozen=True)
class Build(Step):
    """Build the molecule (table, SMILES or XYZ) and record it."""

    params: ThermochemistryParams

    @override
    def run(self, ctx: RunContext) -> Optimise:
        mol = build_molecule(self.params.molecule.source(), seed=self.params.seed)
        path = ctx.workdir / "initial.xyz"
        path.write_text(mol.xyz(), encoding="utf-8")
        ctx.artifact(path, "structure", f"initial geometry of {mol.name}")
        if self.params.molecule.multiplicity is None:
            ctx.event("assumed", f"multiplicity {mol.multiplicity} (even electron count)")
        return Optimise(self.params, mol, 0)


@dataclass(frozen=True)
class Optimise(Step):
    """Optimise with geomeTRIC (a minimum, or a saddle point when asked)."""

    params: ThermochemistryParams
    molecule: QcMolecule
    displacements: int

    @override
    def run(self, ctx: RunContext) -> Frequencies:
        p = self.params
        with calc.limited_threads(p.threads):
            opt, ref = calc.optimise_in_step(
                ctx, self.molecule, p.level, transition=p.transition_state
            )
        return Frequencies(p, opt.molecule, opt.energy_ha, opt.steps, ref, self.displacements)


@dataclass(frozen=True)
class Frequencies(Step):
    """Hessian and harmonic analysis; route imaginary modes by rule."""

    params: ThermochemistryParams
    molecule: QcMolecule
    energy_ha: float
    opt_steps: int
    geometry: ArtifactRef
    displacements: int

    @override
    def run(self, ctx: RunContext) -> Displace | Report:
        p = self.params
        with calc.limited_threads(p.threads):
            freqs = calc.frequencies_in_step(ctx, self.molecule, p.level)
        imag = freqs.imaginary
        report = Report(
            p,
            self.molecule,
            self.energy_ha,
            self.opt_steps,
            self.geometry,
            freqs,
            self.displacements,
        )
        if p.transition_state:
            ctx.rule("transition_state", f"{len(imag)} imaginary mode(s): {imag}")
            return report
        if imag and self.displacements < p.max_displacements:
            ctx.rule("imaginary_mode_displace", f"{imag[0]:.0f} cm^-1: displace and re-optimise")
            return Displace(p, self.molecule, freqs.modes[0], self.displacements)
        ctx.rule("minimum" if not imag else "imaginary_mode_left", f"imaginary: {imag}")
        return report


@dataclass(frozen=True)
class Displace(Step):
    """Displace along the imaginary mode (both directions are tried by energy)."""

    params: ThermochemistryParams
    molecule: QcMolecule
    mode: np.ndarray
    displacements: int

    @override
    def run(self, ctx: RunContext) -> Optimise:
        mode = np.asarray(self.mode)
        step = DISPLACEMENT_A * mode / np.abs(mode).max()
        moved = self.molecule.moved(self.molecule.positions + step)
        ctx.event("displaced", f"{DISPLACEMENT_A} Å along the imaginary mode")
        return Optimise(self.params, moved, self.displacements + 1)


@dataclass(frozen=True)
class Report(Step):
    """Thermochemistry, comparison with references, report."""

    params: ThermochemistryParams
    molecule: QcMolecule
    energy_ha: float
    opt_steps: int
    geometry: ArtifactRef
    freqs: calc.Frequencies
    displacements: int

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p, mol, f = self.params, self.molecule, self.freqs
        th = calc.thermo_of(mol, f, p.temperature_k, p.pressure_bar)
        e_kj = self.energy_ha * calc.HARTREE_KJ_MOL
        src = "thermochemistry.json"
        values = {
            "electronic_energy": Quantity(self.energy_ha, "Eh", source=src),
            "zero_point_energy": Quantity(th.zpe_kj_mol, "kJ/mol", source=src),
            "enthalpy_correction": Quantity(th.thermal_enthalpy_kj_mol, "kJ/mol", source=src),
            "entropy": Quantity(th.entropy_j_mol_k, "J/(mol K)", source=src),
            "gibbs_correction": Quantity(th.gibbs_correction_kj_mol, "kJ/mol", source=src),
            "enthalpy": Quantity(
                (e_kj + th.thermal_enthalpy_kj_mol) / calc.HARTREE_KJ_MOL, "Eh", source=src
            ),
            "gibbs_energy": Quantity(
                (e_kj + th.gibbs_correction_kj_mol) / calc.HARTREE_KJ_MOL, "Eh", source=src
            ),
            "imaginary_modes": Quantity(float(len(f.imaginary)), "1", source=src),
        }
        real = [x for x in f.frequencies_cm if x > 0]
        for i, x in enumerate(sorted(real)[:12]):
            values[f"harmonic_frequency_{i + 1}"] = Quantity(x, "cm^-1", source=src)
        values.update(geometry_values(mol))
        data = {
            "molecule": mol.name,
            "formula": mol.formula,
            "level": p.level.label(),
            "point_group": f.point_group,
            "symmetry_number": th.symmetry_number,
            "hessian": f.hessian_rule,
            "frequencies_cm": list(f.frequencies_cm),
            "temperature_k": p.temperature_k,
            "pressure_bar": p.pressure_bar,
            **{k: v.value for k, v in values.items()},
        }
        table = calc.write_json(ctx, src, data, "frequencies and thermochemistry")
        notes = _notes(p, f, self.displacements)
        refs = MOLECULE_REFERENCES.get(p.molecule.name, ())
        summary = (
            f"{mol.name} ({mol.formula}) at {p.level.label()}: {len(real)} real modes, "
            f"{len(f.imaginary)} imaginary; ZPE {th.zpe_kj_mol:.1f} kJ/mol, "
            f"S {th.entropy_j_mol_k:.1f} J/(mol K) at {p.temperature_k:g} K"
        )
        return Done(
            report_result(
                ctx,
                title=f"Thermochemistry of {mol.name}",
                summary=summary,
                values=values,
                method=(
                    f"geomeTRIC optimisation ({self.opt_steps} gradient calls) at "
                    f"{p.level.label()}, Hessian {f.hessian_rule}, point group {f.point_group} "
                    f"(σ = {th.symmetry_number}); ideal gas, rigid rotor, harmonic oscillator at "
                    f"{p.temperature_k:g} K and {p.pressure_bar:g} bar; frequencies unscaled."
                ),
                artifacts=(self.geometry, table),
                references=refs,
                notes=notes,
            )
        )


def geometry_values(mol: QcMolecule) -> dict[str, Quantity]:
    """Bond lengths and angles of water and diatomics (compared with references)."""
    pos, sym = mol.positions, mol.symbols
    out: dict[str, Quantity] = {}
    if len(sym) == 2:
        out[f"r_{''.join(sym)}"] = Quantity(float(np.linalg.norm(pos[1] - pos[0])), "Å")
    if sorted(sym) == ["H", "H", "O"]:
        o = sym.index("O")
        hs = [i for i, s in enumerate(sym) if s == "H"]
        a, b = pos[hs[0]] - pos[o], pos[hs[1]] - pos[o]
        out["r_OH"] = Quantity(float((np.linalg.norm(a) + np.linalg.norm(b)) / 2), "Å")
        cos = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
        out["angle_HOH"] = Quantity(float(np.degrees(np.arccos(cos))), "deg")
    return out


def _notes(p: ThermochemistryParams, f: calc.Frequencies, displacements: int) -> list[str]:
    notes = [
        "harmonic frequencies are unscaled; experiment's fundamentals include "
        "anharmonicity (typically 3-5 % lower)",
    ]
    if displacements:
        notes.append(f"{displacements} displacement(s) along imaginary modes were needed")
    if p.transition_state and len(f.imaginary) != 1:
        notes.append(
            f"WARNING: a transition state needs one imaginary mode; found {len(f.imaginary)}"
        )
    if not p.transition_state and f.imaginary:
        notes.append(f"WARNING: imaginary modes remain ({f.imaginary}): not a minimum")
    return notes


GRAPH = Graph.build("molecule_thermochemistry", [Build, Optimise, Frequencies, Displace, Report])

_ASKS = re.compile(
    r"\b(?:harmonic |vibrational )?frequenc(?:y|ies)\b|thermochemistry|zero[- ]point"
    r"|\bzpe\b|vibrational analysis|transition state|\bgibbs\b|free energ",
    re.IGNORECASE,
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "harmonic frequencies of water with B3LYP/def2-SVP", "thermochemistry of formaldehyde
    at 350 K with HF/STO-3G", "transition state of smiles ..."."""
    if not _ASKS.search(text):
        return None
    mols = words.read_molecules(text)
    if not mols:
        return None
    words.refuse_unread_numbers(text, "molecule_thermochemistry")
    raw: dict[str, Any] = {"molecule": {**mols[0], **words.read_spin(text)}}
    level = words.level_with_solvent(text, words.read_solvents(text))
    if level:
        raw["level"] = level
    raw.update(words.read_conditions(text))
    if re.search(r"transition state|saddle point", text, re.IGNORECASE):
        raw["transition_state"] = True
    return raw


PROTOCOL = Protocol(
    name="molecule_thermochemistry",
    title="Molecular geometry, harmonic frequencies and thermochemistry (PySCF / xTB)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ThermochemistryParams,
    start=lambda params: Build(params),
    examples=(
        "harmonic frequencies of water with B3LYP/def2-SVP",
        "thermochemistry of formaldehyde with HF/STO-3G at 350 K",
    ),
    parse_request=parse_request,
    estimate=molecule_estimate,
    prepare=molecule_inputs,
)
