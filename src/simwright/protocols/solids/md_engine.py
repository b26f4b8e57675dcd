"""The potential of a solid-state MD protocol (thermal expansion, melting, conductivity,
deposition), chosen in words or in a spec.

These protocols run LAMMPS molecular dynamics, so they need a catalogued potential
(:mod:`simwright.potentials`): named by author, family or file ("with the Mishin EAM
potential", "with Tersoff", ``Si.sw``), or, when none is named, the one the catalogue
holds for the element (refused, listed, when it holds several without a recorded
favourite). An ASE calculator named in the request (EMT, an MLIP) is refused by name:
it cannot run LAMMPS MD.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ase.data import atomic_masses, atomic_numbers, reference_states
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from simwright.builders import BulkSpec
from simwright.builders.crystals import build_bulk, supercell
from simwright.errors import EngineError, ParseError, ValidationError
from simwright.potentials import Potential, read_catalogue, select_potential
from simwright.protocols.estimate import Estimate, MdSegment
from simwright.protocols.estimate import md_estimate as estimate_md
from simwright.protocols.inputs import BuiltInputs
from simwright.protocols.solids.engine import engine_request
from simwright.settings import Settings
from simwright.steps.md import launcher
from simwright.steps.potential_md import potential_run
from simwright.structure import Structure, is_element
from simwright.text import find_elements, has_word

_KELVIN = re.compile(r"\d+(?:\.\d+)?\s*K\b")
"""A temperature in kelvin: its K is not potassium."""

CubicLattice = Literal["fcc", "bcc", "diamond"]


class CrystalMDParams(BaseModel):
    """The element, lattice and LAMMPS potential shared by the solid-state MD protocols."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    element: str = Field(description="chemical symbol, e.g. Cu")
    potential: str | None = Field(
        None,
        description="a LAMMPS potential of the catalogue by author, family or file "
        "('Mishin EAM', 'Tersoff', 'Si.sw'); default: the catalogue's one for the element",
    )
    calculator: str | None = Field(
        None, description="refused: these protocols run LAMMPS MD with a catalogued potential"
    )
    lattice: CubicLattice | None = Field(None, description="default: the element's own")
    a_guess_a: float | None = Field(None, gt=0, description="starting lattice constant (Å)")
    timestep_fs: float = Field(2.0, gt=0, le=5, description="MD timestep (fs)")
    seed: int = Field(4928, ge=1, description="random seed of the initial velocities")

    @field_validator("element")
    @classmethod
    def _known_element(cls, value: str) -> str:
        if not is_element(value):
            raise ValueError(f"unknown element {value!r}")
        return value

    @model_validator(mode="after")
    def _a_potential(self) -> CrystalMDParams:
        if self.calculator is not None:
            raise ValueError(
                f"calculator {self.calculator!r} is an ASE calculator; this protocol runs "
                "LAMMPS molecular dynamics and needs a catalogued potential "
                "(e.g. 'with the Mishin EAM potential')"
            )
        try:
            self.entry()
            self.resolved_lattice()
        except ValidationError as exc:
            raise ValueError(str(exc)) from exc
        return self

    def entry(self) -> Potential:
        """The catalogued potential: the one named, or the element's only (or validated) one."""
        return select_potential(read_catalogue(), [self.element], self.potential)

    def resolved_lattice(self) -> CubicLattice:
        """The lattice: the given one or the element's cubic reference structure."""
        if self.lattice is not None:
            return self.lattice
        sym = (reference_states[atomic_numbers[self.element]] or {}).get("symmetry")
        if sym not in ("fcc", "bcc", "diamond"):
            raise ValidationError(
                f"{self.element} is {sym} in its reference state; give fcc, bcc or diamond"
            )
        return sym

    def resolved_a(self) -> float:
        """The starting lattice constant (Å): given, or the element's reference value."""
        if self.a_guess_a is not None:
            return self.a_guess_a
        ref = reference_states[atomic_numbers[self.element]] or {}
        if "a" not in ref:
            raise ValidationError(f"no reference lattice constant for {self.element}")
        return float(ref["a"])  # type: ignore[arg-type]

    def crystal(self) -> BulkSpec:
        """The conventional cubic cell of the element."""
        return BulkSpec(self.element, self.resolved_lattice(), self.resolved_a(), cubic=True)

    def atoms_per_cell(self) -> int:
        """Atoms in the conventional cubic cell."""
        return {"fcc": 4, "bcc": 2, "diamond": 8}[self.resolved_lattice()]

    def mass_amu(self) -> float:
        """The element's atomic mass."""
        return float(atomic_masses[atomic_numbers[self.element]])

    def engine_name(self) -> str:
        """The potential's file, for titles."""
        return self.entry().file


def md_solid_request(
    text: str, trigger: re.Pattern[str], example: str, *, liquid_words: bool = True
) -> dict[str, Any] | None:
    """Raw parameters of a solid-state MD protocol whose requests match ``trigger``: one
    element, the potential (or a calculator, refused later by name), a cubic lattice
    and a temperature when one is stated. None when ``trigger`` does not match, or the
    request is about a liquid (``liquid_words``: liquid, argon, Lennard-Jones, water)."""
    if not trigger.search(text.lower()):
        return None
    if liquid_words and has_word(text, "liquid", "argon", "lj", "lennard-jones", "water"):
        return None
    if has_word(text, "dft", "pbe", "lda", "pw.x", "espresso"):
        return None  # a DFT request: not LAMMPS MD
    elements = find_elements(_KELVIN.sub(" ", text))
    if len(elements) != 1:
        raise ParseError(
            f"exactly one element is needed, e.g. {example!r} "
            f"(found: {', '.join(elements) or 'none'})"
        )
    raw: dict[str, Any] = {"element": elements[0], **engine_request(text)}
    lattices = [name for name in ("fcc", "bcc", "diamond") if has_word(text, name)]
    if len(lattices) > 1:
        raise ParseError(f"the request names several lattices ({', '.join(lattices)})")
    if lattices:
        raw["lattice"] = lattices[0]
    return raw


def temperatures_in(text: str) -> list[float]:
    """Temperatures stated in kelvin ('300 K'), in order."""
    return [float(m.group(0).rstrip("K ")) for m in _KELVIN.finditer(text)]


def one_temperature(text: str) -> float | None:
    """The one temperature a request states; refuses several."""
    temps = sorted(set(temperatures_in(text)))
    if len(temps) > 1:
        raise ParseError(f"the request names several temperatures ({', '.join(map(str, temps))} K)")
    return temps[0] if temps else None


def md_inputs(params: CrystalMDParams, structure: Structure, settings: Settings) -> BuiltInputs:
    """The build stage of a solid-state MD protocol: its structure, the potential, LAMMPS."""
    entry = params.entry()
    try:
        lmp = launcher(settings)
    except EngineError as exc:
        raise EngineError(f"LAMMPS is needed and was not found: {exc}") from exc
    potential_run(entry, sorted(set(structure.symbols)))  # the file is installed
    return BuiltInputs(
        (
            f"structure: {structure.formula}, {len(structure)} atoms",
            f"potential: {entry.describe()}",
            f"engine: LAMMPS {lmp.executable}",
        )
    )


def supercell_of(params: CrystalMDParams, repeat: tuple[int, int, int]) -> Structure:
    """The conventional cubic cell of ``params`` repeated ``repeat`` times."""
    return supercell(build_bulk(params.crystal()), repeat)


def md_estimate(params: CrystalMDParams, atoms: int, segments: tuple[MdSegment, ...]) -> Estimate:
    """The size of a run of LAMMPS segments with the potential of ``params``."""
    return estimate_md(params.engine_name(), atoms, segments)
