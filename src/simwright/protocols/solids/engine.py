"""The energy engine of a solid-state protocol, chosen in words or in a spec.

Every solid-state protocol (``lattice_constant``, ``cohesive_energy``,
``elastic_constants``) takes the same three fields: an ASE ``calculator`` (EMT,
LJ, the universal MLIPs ``sevennet`` and ``chgnet``), or a LAMMPS ``potential``
from the catalogue of :mod:`simwright.potentials`, named by author, family or file
("Mishin EAM", "Tersoff", "Stillinger–Weber", ``Si.sw``). A named potential that
the catalogue does not hold for the element is refused by name, listing what it
holds. :func:`engine_request` reads the choice from a request in words.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ase.data import atomic_numbers, reference_states
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from simwright.builders import BulkSpec
from simwright.engines.ase.calculators import CalculatorSpec
from simwright.engines.ase.registry import calculator_names
from simwright.errors import ParseError, ValidationError
from simwright.potentials import (
    Potential,
    PublishedValues,
    experiment_references,
    published_for,
    read_catalogue,
    select_potential,
)
from simwright.results import Reference
from simwright.steps.energies import AseEnergies, EnergyEngine, PotentialEnergies
from simwright.structure import is_element
from simwright.text import find_elements, has_word
from simwright.units import KB_EV_K

CALCULATOR_WORDS: dict[str, str] = {
    "emt": "emt",
    "lj": "lj",
    "lennard-jones": "lj",
    "sevennet": "sevennet",
    "sevennet-0": "sevennet",
    "7net-0": "sevennet",
    "chgnet": "chgnet",
}
"""Words that name an ASE calculator in a request (lower case)."""

_WITH = re.compile(
    r"\b(?:with|using|by)\s+(?:the\s+|a\s+|an\s+)?(.+?)(?=\s*(?:[,;.?!]\s|[,;.?!]?$|\s+at\s|"
    r"\s+and\s|\s+for\s|\s+in\s|\s+from\s|\s+with\s|\s+using\s|"
    r"\s+(?:quenched|cooled|annealed|melted|heated|relaxed)\b))",
    re.IGNORECASE,
)
_FILLER = re.compile(r"\b(?:potential|interatomic|force field|model|lammps|mlip)\b", re.I)


Lattice = Literal["fcc", "bcc", "sc", "diamond"]

EXPERIMENT_A: dict[str, float] = {
    "Al": 4.05,
    "Cu": 3.61,
    "Ag": 4.09,
    "Au": 4.08,
    "Ni": 3.52,
    "Pd": 3.89,
    "Pt": 3.92,
}
"""Room-temperature lattice constants (Å), C. Kittel, Introduction to Solid State
Physics, 8th ed. (Wiley, 2005), Table 1.3."""
KITTEL = "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), Table 1.3"


class SolidEngineParams(BaseModel):
    """The engine fields shared by the solid-state protocols (a base of their parameters)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    element: str = Field(description="chemical symbol, e.g. Cu")
    calculator: str = Field(
        "emt",
        description="a registered ASE calculator (emt, lj, sevennet, chgnet, plugins) or a "
        "'module:Class' the installation allows in config.toml",
    )
    calculator_kwargs: dict[str, Any] = Field(default_factory=dict)
    potential: str | None = Field(
        None,
        description="a LAMMPS potential of the catalogue by author, family or file "
        "('Mishin EAM', 'Tersoff', 'Si.sw'); replaces the calculator",
    )

    lattice: Lattice | None = Field(None, description="cubic lattice; default: the element's own")
    a_guess_a: float | None = Field(None, gt=0, description="starting lattice constant (Å)")

    @field_validator("element")
    @classmethod
    def _known_element(cls, value: str) -> str:
        if not is_element(value):
            raise ValueError(f"unknown element {value!r}")
        return value

    def resolved_lattice(self) -> Lattice:
        """The lattice to build: the given one or the element's reference structure."""
        if self.lattice is not None:
            return self.lattice
        ref = reference_states[atomic_numbers[self.element]] or {}
        sym = ref.get("symmetry")
        if sym not in ("fcc", "bcc", "sc", "diamond"):
            raise ValidationError(
                f"{self.element} is not cubic in its reference state ({sym}); give a cubic lattice"
            )
        return sym

    def resolved_a(self) -> float:
        """The starting lattice constant (Å)."""
        if self.a_guess_a is not None:
            return self.a_guess_a
        ref = reference_states[atomic_numbers[self.element]] or {}
        if "a" not in ref:
            raise ValidationError(
                f"no reference lattice constant for {self.element}; give a_guess_a"
            )
        return float(ref["a"])  # type: ignore[arg-type]

    def crystal(self) -> BulkSpec:
        """The conventional cubic cell of the element."""
        return BulkSpec(self.element, self.resolved_lattice(), self.resolved_a(), cubic=True)

    @model_validator(mode="after")
    def _engine_knows_element(self) -> SolidEngineParams:
        # a stored run's parameters come back with every field set: the default calculator
        # beside a potential is what was stored, not a second choice
        default = type(self).model_fields["calculator"].default
        chosen = "calculator" in self.model_fields_set and self.calculator != default
        if self.potential is not None and chosen:
            raise ValueError(
                f"give either a calculator ({self.calculator!r}) or a potential "
                f"({self.potential!r}), not both"
            )
        try:
            if self.potential is not None:
                self.potential_entry()
            else:
                self.calculator_spec().check_elements([self.element])
        except ValidationError as exc:
            raise ValueError(str(exc)) from exc
        return self

    def calculator_spec(self) -> CalculatorSpec:
        """The ASE calculator (when no potential is named); Lennard-Jones argon without
        kwargs takes Rahman's σ and ε (ASE's own defaults, σ = 1 Å and ε = 1 eV,
        describe no element)."""
        if self.calculator == "lj" and not self.calculator_kwargs and self.element == "Ar":
            # lazy: the force-field package (its classes) only for Lennard-Jones argon
            from simwright.forcefields.lj_argon import EPSILON_OVER_KB_K, SIGMA_A

            kwargs = {"sigma": SIGMA_A, "epsilon": EPSILON_OVER_KB_K * KB_EV_K, "rc": 3 * SIGMA_A}
            return CalculatorSpec("lj", kwargs)
        return CalculatorSpec(self.calculator, self.calculator_kwargs)

    def potential_entry(self) -> Potential | None:
        """The catalogued potential named, or None; refuses an unknown name by name."""
        if self.potential is None:
            return None
        return select_potential(read_catalogue(), [self.element], self.potential)

    def engine(self, *, relax_ions: bool = False) -> EnergyEngine:
        """The energy engine: LAMMPS with the potential, else the ASE calculator."""
        entry = self.potential_entry()
        if entry is not None:
            return PotentialEnergies(entry.file, relax_ions)
        return AseEnergies(self.calculator_spec())

    def engine_name(self) -> str:
        """A short name for titles: the potential's file or the calculator."""
        entry = self.potential_entry()
        return entry.file if entry is not None else self.calculator

    def published(self) -> PublishedValues | None:
        """The values the potential's own paper reports for the element, if recorded."""
        entry = self.potential_entry()
        return published_for(entry.file, self.element) if entry is not None else None

    def references(self, names: tuple[str, ...]) -> tuple[Reference, ...]:
        """The potential's published values, then experiment, for the properties ``names``."""
        paper = self.published()
        own = paper.references(names) if paper is not None else ()
        return own + experiment_references(self.element, names)

    def validation_note(self) -> str:
        """What the values are compared with, for the report's notes."""
        entry = self.potential_entry()
        if entry is None:
            return f"{self.calculator} is compared with experiment only."
        paper = self.published()
        if paper is None:
            return (
                f"No values from the paper of {entry.file} ({entry.citation}) are recorded; "
                "the results are compared with experiment only."
            )
        note = f" ({paper.note})" if paper.note else ""
        return f"Published values of the potential: {paper.citation}{note}."


def names_a_potential(phrase: str) -> bool:
    """True when a 'with ...' phrase is about a potential: it says "potential" (or
    "interatomic", "force field"), or one of its words names a catalogued potential
    (family, cited author, file). "with a starting guess of 3.7 Å" is not."""
    if _FILLER.search(phrase):
        return True
    words = {w.lower().strip(".,;") for w in phrase.split()}
    known: set[str] = set()
    for potential in read_catalogue().potentials:
        known |= potential.words()
    return bool(words & known) or phrase.strip().lower() in known


def engine_phrases(text: str) -> list[str]:
    """The words after each 'with'/'using'/'by' that could name an engine, in order
    ("by melt-quench with the Stillinger-Weber potential": both phrases)."""
    phrases = (match.group(1).strip() for match in _WITH.finditer(text))
    return [p for p in phrases if p and not p[0].isdigit()]


def engine_request(text: str) -> dict[str, Any]:
    """``{"calculator": ...}`` or ``{"potential": ...}`` from a request; {} when none is named.

    A calculator word anywhere wins ("with CHGNet"); otherwise a phrase after 'with'
    that is about a potential (:func:`names_a_potential`) is passed on as stated, so
    that an unknown one is refused by name when the parameters are validated.
    """
    low = text.lower()
    for word, name in CALCULATOR_WORDS.items():
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
            return {"calculator": name}
    phrase = next((p for p in engine_phrases(text) if names_a_potential(p)), None)
    if phrase is None:
        return {}
    name = " ".join(_FILLER.sub(" ", phrase).split())
    if not name:
        raise ParseError(f"which potential? the request says only {phrase!r}")
    if name.lower() in calculator_names():
        return {"calculator": name.lower()}
    return {"potential": name}


def solid_request(text: str, trigger: re.Pattern[str], example: str) -> dict[str, Any] | None:
    """Raw parameters of a solid-state protocol whose requests match ``trigger``: one
    element, its energy engine (:func:`engine_request`) and at most one cubic lattice.
    None when ``trigger`` does not match or the request is for DFT (pw.x protocols)."""
    if not trigger.search(text.lower()):
        return None
    if has_word(text, "dft", "pbe", "lda", "pw.x", "espresso"):
        return None
    elements = find_elements(text)
    if len(elements) != 1:
        raise ParseError(
            f"exactly one element is needed, e.g. {example!r} "
            f"(found: {', '.join(elements) or 'none'})"
        )
    raw: dict[str, Any] = {"element": elements[0], **engine_request(text)}
    lattices = [name for name in ("fcc", "bcc", "sc", "diamond") if has_word(text, name)]
    if len(lattices) > 1:
        raise ParseError(f"the request names several lattices ({', '.join(lattices)})")
    if lattices:
        raw["lattice"] = lattices[0]
    return raw
