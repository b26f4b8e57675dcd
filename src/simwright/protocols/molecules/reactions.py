"""Reactions as values: terms with coefficients, parsed from words, checked for balance.

"H2 + ethene -> ethane", "2 H2 + oxygen -> 2 water", "smiles C[C+](C)C + hydride ->
isobutane". Each side's elements and charge must balance, else the reaction is refused
with both counts. A hydride affinity of a carbocation R⁺ is the reaction R⁺ + H⁻ → RH,
its product built by adding H⁻ to the C⁺ (RDKit).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright.builders.qc_molecules import add_hydride, canonical_smiles, formula_of
from simwright.errors import ParseError
from simwright.molecules.species import SPECIES, find_species
from simwright.protocols.molecules.params import MoleculeInput


class Term(BaseModel):
    """A molecule with its stoichiometric coefficient in a reaction."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    molecule: MoleculeInput
    coefficient: int = Field(default=1, ge=1)


class Reaction(BaseModel):
    """Reactants -> products, balanced in elements and charge."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reactants: tuple[Term, ...]
    products: tuple[Term, ...]
    label: str = ""

    @model_validator(mode="after")
    def _balanced(self) -> Reaction:
        if not self.reactants or not self.products:
            raise ValueError("a reaction needs reactants and products")
        left, q_left = _side(self.reactants)
        right, q_right = _side(self.products)
        if left != right or q_left != q_right:
            raise ValueError(
                f"the reaction {self.equation()} is not balanced: reactants "
                f"{_show(left, q_left)}, products {_show(right, q_right)}"
            )
        return self

    def equation(self) -> str:
        """The reaction as written: ``2 hydrogen + oxygen -> 2 water``."""

        def side(terms: tuple[Term, ...]) -> str:
            return " + ".join(
                f"{t.coefficient} {t.molecule.label}" if t.coefficient > 1 else t.molecule.label
                for t in terms
            )

        return f"{side(self.reactants)} -> {side(self.products)}"

    def species(self) -> tuple[MoleculeInput, ...]:
        """Every distinct molecule of the reaction, reactants first."""
        seen: dict[MoleculeInput, None] = {}
        for t in (*self.reactants, *self.products):
            seen.setdefault(t.molecule, None)
        return tuple(seen)


def _side(terms: tuple[Term, ...]) -> tuple[dict[str, int], int]:
    total: dict[str, int] = {}
    charge = 0
    for t in terms:
        counts, q = formula_of(t.molecule.source())
        for element, n in counts.items():
            total[element] = total.get(element, 0) + t.coefficient * n
        charge += t.coefficient * q
    return total, charge


def _show(counts: dict[str, int], charge: int) -> str:
    body = " ".join(f"{e}{n}" for e, n in sorted(counts.items()))
    return f"{body} (charge {charge:+d})"


_ARROW = re.compile(r"\s*(?:->|→|=>|⟶|\bgives\b|=)\s*")
_TERM = re.compile(r"^\s*(\d+)?\s*(?:(?:the|a|an)\s+)?(.+?)\s*$", re.IGNORECASE)


def parse_term(text: str) -> dict[str, Any]:
    """A term ("2 H2", "smiles CC", "the tert-butyl cation") as raw values."""
    m = _TERM.match(text)
    if m is None or not m.group(2):
        raise ParseError(f"cannot read the reaction term {text!r}")
    coefficient = int(m.group(1) or 1)
    word = m.group(2).strip()
    smiles = re.match(r"smiles\s*:?\s*(\S+)$", word, re.IGNORECASE)
    if smiles:
        molecule: dict[str, Any] = {"smiles": smiles.group(1)}
    elif word.lower() in SPECIES:
        molecule = {"name": word.lower()}
    elif word.lower().endswith(".xyz"):
        molecule = {"xyz": word}
    else:
        raise ParseError(
            f"the reaction term {word!r} is neither a named molecule nor 'smiles X': "
            f"write 'smiles {word}' for a SMILES, or name one of the table"
        )
    return {"molecule": molecule, "coefficient": coefficient}


def parse_reaction(text: str) -> dict[str, Any] | None:
    """Raw values of "A + 2 B -> C" found after "of"/":" in ``text``, or None."""
    body = re.split(r"\b(?:of|for)\b\s*(?:the\s+)?(?:reaction\s+)?|:\s*", text, maxsplit=1)
    body_text = body[-1]
    body_text = re.split(r"\s+(?:with|using|at|in)\s+", body_text)[0]
    parts = _ARROW.split(body_text)
    if len(parts) != 2:
        return None
    sides = [re.split(r"\s+\+\s+", p.strip()) for p in parts]
    return {
        "reactants": [parse_term(t) for t in sides[0] if t.strip()],
        "products": [parse_term(t) for t in sides[1] if t.strip()],
    }


def hydride_affinity_reaction(cation: MoleculeInput) -> dict[str, Any]:
    """Raw values of R⁺ + H⁻ → RH for the carbocation ``cation``."""
    smiles = find_species(cation.name).smiles if cation.name else cation.smiles
    product = canonical_smiles(add_hydride(smiles))
    named = [s.name for s in SPECIES.values() if canonical_smiles(s.smiles) == product]
    prod: dict[str, Any] = {"name": named[0]} if named else {"smiles": product}
    return {
        "reactants": [
            {"molecule": cation.model_dump(exclude_defaults=True)},
            {"molecule": {"name": "hydride"}},
        ],
        "products": [{"molecule": prod}],
        "label": f"hydride affinity of {cation.label}",
    }
