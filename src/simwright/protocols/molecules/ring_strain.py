"""Protocol ``ring_strain``: ring-strain energy of a cycloalkane from a homodesmotic
reaction that the protocol constructs and states.

For cyclo-(CH2)n the reaction is (CH2)n + n CH3CH3 -> n CH3CH2CH3: every carbon keeps
its hybridisation and its number of attached hydrogens, and the bonds of each type are
conserved (a homodesmotic reaction; P. George, M. Trachtman, C. W. Bock, A. M. Brett,
J. Chem. Soc., Perkin Trans. 2, 1222 (1976)), so the reaction energy is the strain
with most method errors cancelled: E_strain = −ΔE_rxn. Other rings are refused with
the alternative (write the reaction for ``reaction_energy``).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, model_validator

from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import ParseError
from simwright.graph import Graph
from simwright.protocols.molecules import words
from simwright.protocols.molecules.params import MoleculeInput, QcParams
from simwright.protocols.molecules.references import RING_STRAIN_KJ_MOL
from simwright.protocols.molecules.sizing import molecule_estimate, molecule_inputs
from simwright.protocols.molecules.species_steps import (
    SPECIES_STEPS,
    Combined,
    ComputeSpecies,
    Job,
    SpeciesResult,
    job_list,
    reaction_delta,
)
from simwright.protocols.registry import Protocol
from simwright.results import Quantity

CYCLOALKANES: dict[str, int] = {
    "cyclopropane": 3,
    "cyclobutane": 4,
    "cyclopentane": 5,
    "cyclohexane": 6,
}
"""The rings the homodesmotic reaction is built for, with their ring size."""

DEFAULT_LEVEL = LevelOfTheory(method="b3lyp", basis="6-31g*", dispersion="d3bj")

ETHANE = MoleculeInput(name="ethane")
PROPANE = MoleculeInput(name="propane")


def ring_size(smiles: str) -> int:
    """n of a cycloalkane SMILES C1CC...C1 (unsubstituted, all-sp3); 0 otherwise."""
    m = re.fullmatch(r"C1(C+)1|C1(C+)C1", smiles.strip())
    return len(smiles.strip()) - 2 if m else 0


class RingStrainParams(QcParams):
    """Parameters of ``ring_strain``."""

    ring: MoleculeInput
    level: LevelOfTheory = DEFAULT_LEVEL
    thermal: bool = False
    temperature_k: float = Field(default=298.15, gt=0)
    pressure_bar: float = Field(default=1.0, gt=0)

    @model_validator(mode="after")
    def _cycloalkane(self) -> RingStrainParams:
        if self.n_carbons() == 0:
            raise ValueError(
                f"{self.ring.label}: the homodesmotic reaction is built for unsubstituted "
                f"cycloalkanes ({', '.join(CYCLOALKANES)} or SMILES C1CC1...) only; for "
                "another ring write its balanced reaction for reaction_energy"
            )
        return self

    def n_carbons(self) -> int:
        """Ring size n."""
        if self.ring.name:
            return CYCLOALKANES.get(self.ring.name, 0)
        return ring_size(self.ring.smiles)

    def reaction(self) -> str:
        """The homodesmotic reaction, stated."""
        n = self.n_carbons()
        return f"{self.ring.label} + {n} ethane -> {n} propane"

    def molecule_inputs(self) -> tuple[MoleculeInput, ...]:
        """The ring, ethane and propane."""
        return (self.ring, ETHANE, PROPANE)

    def levels(self) -> tuple[LevelOfTheory, ...]:
        """The one level."""
        return (self.level,)

    def hessians(self) -> bool:
        """Frequencies only for thermal corrections."""
        return self.thermal

    def jobs(self) -> tuple[Job, ...]:
        """The ring, ethane and propane at the one level."""
        return job_list(self.molecule_inputs(), self.level, self.thermal)

    def combine(self, results: dict[str, SpeciesResult]) -> Combined:
        """E_strain = −ΔE (−ΔH with thermal corrections) of the homodesmotic reaction."""
        n = self.n_carbons()
        d = reaction_delta([(-1, self.ring.label), (-n, "ethane"), (n, "propane")], results)
        values = {"reaction_energy": Quantity(d["energy"] or 0.0, "kJ/mol", source="species.json")}
        strain = -(d["energy"] or 0.0)
        what = "electronic energy (no ZPE)"
        if d["enthalpy"] is not None:
            values["reaction_enthalpy"] = Quantity(d["enthalpy"], "kJ/mol", source="species.json")
            strain, what = -d["enthalpy"], f"enthalpy at {self.temperature_k:g} K"
        values["strain_energy"] = Quantity(strain, "kJ/mol", source="species.json")
        values["strain_energy_kcal"] = Quantity(strain / 4.184, "kcal/mol")
        ref = RING_STRAIN_KJ_MOL.get(self.ring.name)
        notes = [f"homodesmotic reaction: {self.reaction()}"]
        if not self.thermal:
            notes.append(
                "electronic strain energy: ZPE and thermal corrections of the "
                "homodesmotic reaction are left out (say thermal: true to add them); "
                "the experimental values are enthalpies"
            )
        return Combined(
            title=f"Ring strain of {self.ring.label}",
            summary=f"strain energy of {self.ring.label}: {strain:.1f} kJ/mol "
            f"({strain / 4.184:.1f} kcal/mol) from {self.reaction()}",
            values=values,
            method=(
                f"homodesmotic reaction {self.reaction()}; every molecule optimised with "
                f"geomeTRIC at {self.level.label()}; strain = −Δ({what})"
            ),
            references=(ref,) if ref else (),
            notes=tuple(notes),
        )


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "ring strain of cyclopropane with B3LYP/6-31G*"."""
    if not re.search(r"ring[- ]strain|strain energ", text, re.I):
        return None
    mols = words.read_molecules(text)
    if not mols:
        raise ParseError("name the ring (cyclopropane ... cyclohexane, or 'smiles C1CCC1')")
    words.refuse_unread_numbers(text, "ring_strain")
    raw: dict[str, Any] = {"ring": mols[0]}
    level = words.level_with_solvent(text, words.read_solvents(text))
    if level:
        raw["level"] = level
    if re.search(r"enthalp|thermal|zero[- ]point|zpe", text, re.I):
        raw["thermal"] = True
    raw.update(words.read_conditions(text))
    return raw


GRAPH = Graph.build("ring_strain", list(SPECIES_STEPS))

PROTOCOL = Protocol(
    name="ring_strain",
    title="Ring strain of cycloalkanes from a homodesmotic reaction (PySCF / xTB)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=RingStrainParams,
    start=lambda params: ComputeSpecies(params, 0, ()),
    examples=("ring strain of cyclopropane with B3LYP-D3(BJ)/6-31G*",),
    parse_request=parse_request,
    estimate=molecule_estimate,
    prepare=molecule_inputs,
)
