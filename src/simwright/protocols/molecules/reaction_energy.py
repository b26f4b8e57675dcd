"""Protocol ``reaction_energy``: reaction energies, enthalpies and Gibbs energies from
balanced reactions, every molecule optimised at one level of theory.

A reaction is given in words ("reaction energy of 2 H2 + oxygen -> 2 water with
B3LYP-D3(BJ)/def2-SVP"), as hydride affinities of carbocations ("hydride affinities of
the methyl, ethyl, isopropyl and tert-butyl cations"), or in a spec (`reactions:` list).
An unbalanced reaction is refused with both sides' counts. Each distinct molecule is
computed once; with ``thermal`` (default) its frequencies give ΔH and ΔG at T and p.
Hydride affinities (−ΔH of R⁺ + H⁻ → RH) rank carbocation stabilities.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, field_validator

from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import ParseError
from simwright.graph import Graph
from simwright.protocols.molecules import words
from simwright.protocols.molecules.params import MoleculeInput, QcParams
from simwright.protocols.molecules.reactions import (
    Reaction,
    hydride_affinity_reaction,
    parse_reaction,
)
from simwright.protocols.molecules.references import HYDRIDE_AFFINITY_KJ_MOL
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
from simwright.results import Quantity, Reference

DEFAULT_LEVEL = LevelOfTheory(method="b3lyp", basis="def2-svp", dispersion="d3bj")


class ReactionParams(QcParams):
    """Parameters of ``reaction_energy``."""

    reactions: tuple[Reaction, ...] = Field(min_length=1)
    level: LevelOfTheory = DEFAULT_LEVEL
    thermal: bool = True
    temperature_k: float = Field(default=298.15, gt=0)
    pressure_bar: float = Field(default=1.0, gt=0)

    @field_validator("reactions", mode="before")
    @classmethod
    def _one(cls, value: Any) -> Any:
        return [value] if isinstance(value, dict) else value

    def molecule_inputs(self) -> tuple[MoleculeInput, ...]:
        """Every distinct molecule of every reaction."""
        seen: dict[MoleculeInput, None] = {}
        for r in self.reactions:
            for m in r.species():
                seen.setdefault(m, None)
        return tuple(seen)

    def levels(self) -> tuple[LevelOfTheory, ...]:
        """The one level."""
        return (self.level,)

    def hessians(self) -> bool:
        """Frequencies are computed when thermal corrections are asked."""
        return self.thermal

    def jobs(self) -> tuple[Job, ...]:
        """One job per distinct molecule."""
        return job_list(self.molecule_inputs(), self.level, self.thermal)

    def combine(self, results: dict[str, SpeciesResult]) -> Combined:
        """ΔE (ΔH, ΔG) per reaction; hydride affinities and their order."""
        values: dict[str, Quantity] = {}
        lines, refs, affinities = [], [], {}
        for i, r in enumerate(self.reactions, start=1):
            terms = [(-t.coefficient, t.molecule.label) for t in r.reactants]
            terms += [(t.coefficient, t.molecule.label) for t in r.products]
            d = reaction_delta(terms, results)
            tag = f"_{i}" if len(self.reactions) > 1 else ""
            for kind, value in d.items():
                if value is not None:
                    values[f"reaction_{kind}{tag}"] = Quantity(
                        value, "kJ/mol", source="species.json"
                    )
            best = d["enthalpy"] if d["enthalpy"] is not None else d["energy"]
            lines.append(f"{r.label or r.equation()}: {best:.1f} kJ/mol")
            if r.label.startswith("hydride affinity of "):
                cation = r.label.removeprefix("hydride affinity of ")
                affinities[cation] = -float(best or 0.0)
                values[f"hydride_affinity_{_slug(cation)}"] = Quantity(
                    -float(best or 0.0), "kJ/mol"
                )
                if cation in HYDRIDE_AFFINITY_KJ_MOL:
                    ref = HYDRIDE_AFFINITY_KJ_MOL[cation]
                    refs.append(
                        Reference(
                            f"hydride_affinity_{_slug(cation)}", ref.value, ref.unit, ref.citation
                        )
                    )
        notes = [f"every molecule at {self.level.label()}"]
        summary = "; ".join(lines)
        if affinities:
            order = sorted(affinities, key=lambda k: affinities[k])
            notes.append(
                "carbocation stability (lowest hydride affinity = most stable): "
                + " > ".join(order)
            )
            summary = "hydride affinities: " + summary
        kind = "ΔH and ΔG" if self.thermal else "ΔE (electronic, no ZPE)"
        return Combined(
            title="Reaction energies",
            summary=summary,
            values=values,
            method=(
                f"every molecule optimised with geomeTRIC at {self.level.label()}; "
                f"{kind} at {self.temperature_k:g} K, {self.pressure_bar:g} bar "
                "(ideal gas, RRHO, unscaled frequencies)"
                if self.thermal
                else f"every molecule optimised with geomeTRIC at {self.level.label()}; {kind}"
            ),
            references=tuple(refs),
            notes=tuple(notes),
        )


def _slug(name: str) -> str:
    return re.sub(r"\W+", "_", name.lower()).strip("_")


_HYDRIDE = re.compile(r"hydride (?:ion )?affinit(?:y|ies)|carbocation stabilit(?:y|ies)", re.I)
_CATIONS = re.compile(r"\b(methyl|ethyl|isopropyl|2-propyl|tert-butyl|t-butyl)\b", re.I)


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "reaction energy of A + B -> C ..." and "hydride affinities of ... cations"."""
    if _HYDRIDE.search(text):
        names = [m.group(1).lower() for m in _CATIONS.finditer(text)]
        smiles = [m["smiles"] for m in words.read_molecules(text) if "smiles" in m]
        cations = [MoleculeInput(name=f"{n} cation") for n in dict.fromkeys(names)]
        cations += [MoleculeInput(smiles=s) for s in smiles]
        if not cations:
            raise ParseError(
                "name the carbocations (methyl, ethyl, isopropyl, tert-butyl "
                "cation) or give 'smiles X' for each"
            )
        reactions = [hydride_affinity_reaction(c) for c in cations]
    elif re.search(r"reaction|heats? of reaction", text, re.I):
        reaction = parse_reaction(text)
        if reaction is None:
            return None
        reactions = [reaction]
        arrow = re.search(r"->|→|=>|⟶|=", text)
        after = text[arrow.end() :] if arrow else text
        rest = re.split(r"\s+(?:with|using|at|in)\s+", after, maxsplit=1)
        words.refuse_unread_numbers(rest[1] if len(rest) > 1 else "", "reaction_energy")
    else:
        return None
    raw: dict[str, Any] = {"reactions": reactions}
    level = words.level_with_solvent(text, words.read_solvents(text))
    if level:
        raw["level"] = level
    raw.update(words.read_conditions(text))
    if re.search(r"\b(?:electronic|reaction) energ", text, re.I) and not re.search(
        r"enthalp|gibbs|free energ", text, re.I
    ):
        raw["thermal"] = False
    return raw


GRAPH = Graph.build("reaction_energy", list(SPECIES_STEPS))

PROTOCOL = Protocol(
    name="reaction_energy",
    title="Reaction energies, enthalpies and hydride affinities (PySCF / xTB)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ReactionParams,
    start=lambda params: ComputeSpecies(params, 0, ()),
    examples=(
        "reaction energy of H2 + ethene -> ethane with B3LYP/def2-SVP",
        "hydride affinities of the methyl, ethyl, isopropyl and tert-butyl cations",
    ),
    parse_request=parse_request,
    estimate=molecule_estimate,
    prepare=molecule_inputs,
)
