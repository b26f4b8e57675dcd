"""Protocol ``pka``: aqueous pKa from a thermodynamic cycle with implicit solvation.

Relative scheme (default): a proton exchange with a reference acid of known pKa,
HA + Ref⁻ → A⁻ + HRef, pKa(HA) = pKa(HRef) + ΔG_aq/(RT ln 10): errors of the solvent
model largely cancel between similar acids (expected error about 1 pKa unit;
J. Ho, M. L. Coote, Theor. Chem. Acc. 125, 3 (2010)). Direct scheme: HA → A⁻ + H⁺
with the proton's aqueous free energy G_aq(H⁺) = G_gas(H⁺) + ΔG_solv(H⁺) + RT ln 24.46
= −6.28 − 265.9 + 1.89 kcal/mol (ΔG_solv from M. D. Tissandier et al., J. Phys. Chem.
A 102, 7787 (1998)); expected error several pKa units (Ho & Coote 2010).

Geometries: GFN2-xTB with ALPB water by default (cheap pre-optimisation); energies:
the stated level in implicit water (default B3LYP/6-31+G* with IEF-PCM). The
conjugate base is made by removing the O-H proton of the first matching rule
(carboxylic acid, phenol, alcohol) unless it is stated.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import Field, model_validator

from simwright.builders.qc_molecules import ACID_RULES, canonical_smiles, deprotonate
from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import ParseError
from simwright.graph import Graph
from simwright.molecules.species import SPECIES, find_species
from simwright.protocols.molecules import words
from simwright.protocols.molecules.calc import HARTREE_KJ_MOL, KJ_PER_KCAL
from simwright.protocols.molecules.params import MoleculeInput, QcParams
from simwright.protocols.molecules.references import PKA
from simwright.protocols.molecules.sizing import molecule_estimate, molecule_inputs
from simwright.protocols.molecules.species_steps import (
    SPECIES_STEPS,
    Combined,
    ComputeSpecies,
    Job,
    SpeciesResult,
)
from simwright.protocols.registry import Protocol
from simwright.results import Quantity, Reference

R_KJ = 8.314462618e-3
PROTON_AQ_KCAL = -6.28 - 265.9 + 1.89
"""G_aq(H⁺) at 298.15 K, 1 M (kcal/mol): gas-phase G (Sackur–Tetrode, −6.28), ΔG_solv
(Tissandier et al. 1998, −265.9) and the 1 atm → 1 M change (+1.89)."""
STANDARD_STATE_KJ = 1.89 * KJ_PER_KCAL
"""RT ln 24.46 at 298.15 K: 1 atm gas -> 1 M solution, added to each solute's G."""

REFERENCE_ACIDS: dict[str, tuple[str, ...]] = {
    "carboxylic acid O-H": ("acetic acid", "formic acid"),
    "phenol O-H": ("phenol", "4-nitrophenol"),
}
"""Reference acids by the acid's class (the first that is not the acid itself)."""

ENERGY_LEVEL = LevelOfTheory(method="b3lyp", basis="6-31+g*", solvent="water")
GEOMETRY_LEVEL = LevelOfTheory(method="xtb", solvent="water")


def _smiles(m: MoleculeInput) -> str:
    return find_species(m.name).smiles if m.name else m.smiles


def _named(smiles: str) -> MoleculeInput:
    key = canonical_smiles(smiles)
    found = [s.name for s in SPECIES.values() if canonical_smiles(s.smiles) == key]
    return MoleculeInput(name=found[0]) if found else MoleculeInput(smiles=smiles)


class PkaParams(QcParams):
    """Parameters of ``pka``."""

    acid: MoleculeInput
    base: MoleculeInput | None = None
    scheme: Literal["relative", "direct"] = "relative"
    reference: MoleculeInput | None = None
    reference_pka: float | None = None
    level: LevelOfTheory = ENERGY_LEVEL
    geometry_level: LevelOfTheory = GEOMETRY_LEVEL
    thermal: bool = False
    temperature_k: float = Field(default=298.15, gt=0)
    pressure_bar: float = 1.01325

    @model_validator(mode="after")
    def _aqueous(self) -> PkaParams:
        for lv in (self.level, self.geometry_level):
            if lv.solvent not in (None, "water"):
                raise ValueError(f"pKa here is aqueous: {lv.solvent} is not water")
        if self.level.solvent is None:
            object.__setattr__(self, "level", self.level.in_solvent("water"))
        if self.scheme == "direct" and self.level.method == "xtb":
            raise ValueError(
                "the direct scheme needs absolute deprotonation energies, which GFN2-xTB's "
                "total energies are not; use scheme: relative or a DFT level"
            )
        if self.scheme == "relative":
            ref = self.reference_acid()
            if self.reference_pka is None and ref.name not in PKA:
                raise ValueError(f"state reference_pka for the reference acid {ref.label}")
        return self

    def acid_class(self) -> str:
        """The deprotonation rule the acid matches."""
        return deprotonate(_smiles(self.acid))[1]

    def base_of(self, acid: MoleculeInput) -> MoleculeInput:
        """The stated conjugate base of the acid, or the one the rule makes."""
        if acid == self.acid and self.base is not None:
            return self.base
        return _named(deprotonate(_smiles(acid))[0])

    def reference_acid(self) -> MoleculeInput:
        """The stated reference acid, or the first of its class that is not the acid."""
        if self.reference is not None:
            return self.reference
        rule = self.acid_class()
        for name in REFERENCE_ACIDS.get(rule, ()):
            if name != self.acid.name:
                return MoleculeInput(name=name)
        raise ValueError(
            f"no default reference acid for a {rule} ({', '.join(r for r, _ in ACID_RULES)} "
            "have defaults for the first two); state `reference` or use scheme: direct"
        )

    def molecule_inputs(self) -> tuple[MoleculeInput, ...]:
        """Acid and base (and the reference pair in the relative scheme)."""
        mols = [self.acid, self.base_of(self.acid)]
        if self.scheme == "relative":
            ref = self.reference_acid()
            mols += [ref, self.base_of(ref)]
        return tuple(mols)

    def levels(self) -> tuple[LevelOfTheory, ...]:
        """Geometry and energy levels."""
        return (self.geometry_level, self.level)

    def hessians(self) -> bool:
        """Frequencies only for thermal corrections."""
        return self.thermal

    def jobs(self) -> tuple[Job, ...]:
        """Each molecule: geometry at geometry_level, energy at level (in water)."""
        return tuple(
            Job(m.label, m, self.geometry_level, self.level, self.thermal)
            for m in self.molecule_inputs()
        )

    def _g(self, r: SpeciesResult) -> float:
        """G_aq (kJ/mol) of a solute: E(solution) + thermal G (if computed) + 1 atm→1 M."""
        return r.energy_ha * HARTREE_KJ_MOL + (r.gibbs_corr_kj or 0.0) + STANDARD_STATE_KJ

    def combine(self, results: dict[str, SpeciesResult]) -> Combined:
        """pKa from the cycle, with its expected error stated."""
        acid, base = self.molecule_inputs()[:2]
        rtln10 = R_KJ * self.temperature_k * math.log(10)
        d_acid = self._g(results[base.label]) - self._g(results[acid.label])
        refs: list[Reference] = []
        if self.scheme == "relative":
            ref, ref_base = self.molecule_inputs()[2:]
            d_ref = self._g(results[ref_base.label]) - self._g(results[ref.label])
            ref_pka = self.reference_pka if self.reference_pka is not None else PKA[ref.name].value
            pka = ref_pka + (d_acid - d_ref) / rtln10
            how = (
                f"relative to {ref.label} (pKa {ref_pka:g}): HA + Ref⁻ → A⁻ + HRef; "
                "expected error about 1 pKa unit (Ho & Coote 2010)"
            )
        else:
            pka = (d_acid + PROTON_AQ_KCAL * KJ_PER_KCAL) / rtln10
            how = (
                "direct: HA → A⁻ + H⁺ with G_aq(H⁺) = −270.3 kcal/mol (ΔG_solv(H⁺) = −265.9, "
                "Tissandier et al. 1998); expected error several pKa units (Ho & Coote 2010)"
            )
        if acid.name in PKA:
            refs.append(PKA[acid.name])
        values = {
            "pKa": Quantity(pka, "1", source="species.json"),
            "deprotonation_free_energy": Quantity(d_acid, "kJ/mol", source="species.json"),
        }
        notes = [how, "conjugate base: " + base.label]
        if abs(self.temperature_k - 298.15) > 0.5:
            notes.append(
                f"WARNING: at {self.temperature_k:g} K, while the reference pKa values "
                "and G_aq(H⁺) are for 25 °C"
            )
        if not self.thermal:
            notes.append(
                "free energies are solution-phase electronic energies (no ZPE or "
                "thermal terms: they largely cancel in the relative scheme; say "
                "thermal: true to add gas-phase RRHO corrections)"
            )
        return Combined(
            title=f"pKa of {acid.label}",
            summary=f"pKa({acid.label}) = {pka:.2f} ({self.scheme} scheme)",
            values=values,
            method=(
                f"geometries at {self.geometry_level.label()} (geomeTRIC), energies at "
                f"{self.level.label()}; {how}"
            ),
            references=tuple(refs),
            notes=tuple(notes),
        )


_ASKS = re.compile(r"\bpk_?a\b|acid dissociation constant|acidity constant", re.I)
_REF = re.compile(
    r"(?:relative to|reference(?: acid)?:?)\s+(?:the\s+)?("
    + "|".join(re.escape(n) for n in sorted(SPECIES, key=len, reverse=True))
    + r")",
    re.I,
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "pKa of acetic acid", "pKa of phenol with GFN2-xTB relative to 4-nitrophenol"."""
    if not _ASKS.search(text):
        return None
    ref = _REF.search(text)
    body = text if ref is None else text[: ref.start()] + text[ref.end() :]
    mols = words.read_molecules(body)
    if not mols:
        raise ParseError("name the acid (e.g. 'pKa of acetic acid' or 'pKa of smiles CC(=O)O')")
    words.refuse_unread_numbers(text, "pka")
    raw: dict[str, Any] = {"acid": mols[0]}
    if ref is not None:
        raw["reference"] = {"name": ref.group(1).lower()}
    if re.search(r"\bdirect\b|\babsolute\b|proton solvation", text, re.I):
        raw["scheme"] = "direct"
    level = words.level_with_solvent(text, words.read_solvents(text))
    if level:
        raw["level"] = level
        if level.get("method") in ("xtb", "gfn2", "gfn2-xtb"):
            raw["geometry_level"] = {"method": "xtb", "solvent": "water"}
    if re.search(r"thermal|zero[- ]point|zpe", text, re.I):
        raw["thermal"] = True
    raw.update(words.read_conditions(text))
    return raw


GRAPH = Graph.build("pka", list(SPECIES_STEPS))

PROTOCOL = Protocol(
    name="pka",
    title="Aqueous pKa from a thermodynamic cycle with implicit solvation (PySCF / xTB)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=PkaParams,
    start=lambda params: ComputeSpecies(params, 0, ()),
    examples=("pKa of acetic acid", "pKa of phenol with GFN2-xTB relative to 4-nitrophenol"),
    parse_request=parse_request,
    estimate=molecule_estimate,
    prepare=molecule_inputs,
)
