"""The typed front matter of a knowledge module: parameters, acceptance, references.

A module's front matter is YAML; it is validated into these frozen pydantic models
when the module is loaded, so a typo in a unit, a default outside its range or a
choice that does not exist is reported at load time, naming the file and field.
"""

from __future__ import annotations

import math
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from simwright.units import unit_registry

Scalar = bool | int | float | str
"""A scalar parameter value (bool first, so YAML ``true`` stays a bool)."""
Value = Scalar | list[Scalar]
"""A parameter value: a scalar or a list of scalars."""
ParamType = Literal["float", "int", "bool", "str", "choice", "list", "element", "formula"]
"""How a parameter's value is typed (and so how the planner looks for it in a request)."""
Domain = Literal[
    "molecular_dynamics", "electronic_structure", "monte_carlo", "interatomic_potentials"
]
"""The field a module belongs to."""

_NAME = r"^[a-z][a-z0-9_]*$"
_FROZEN = ConfigDict(frozen=True, extra="forbid")


PARSED_UNITS: frozenset[str] = frozenset(
    {"Ry", "eV", "ps", "fs", "ns", "K", "bar", "angstrom", "Å", "1/angstrom", "g/cm^3"}
    | {"eV/angstrom", "percent", "mol/kg", "1"}
)
"""Units the shipped modules use, known to parse (a test checks each with pint): loading
the modules then needs no unit registry, whose construction costs ~0.3 s per command."""


def check_unit(unit: str) -> str:
    """``unit`` if pint parses it, else :class:`ValueError` naming it."""
    if unit in PARSED_UNITS:
        return unit
    try:
        unit_registry().parse_units(unit)
    except Exception as exc:  # pint raises several unrelated types
        raise ValueError(f"{unit!r} is not a unit pint understands") from exc
    return unit


class ParameterSpec(BaseModel):
    """One parameter of a module: its type, unit, default, bounds and how requests name it.

    ``choices`` maps each allowed value to the phrases that name it in a request (the
    value itself when no phrase is listed). ``default_by`` makes the default depend on another
    (choice) parameter: ``{system: {spce_water: 298.15, lj_argon: 94.4}}``. A parameter
    with neither default is required unless ``optional`` (then the protocol derives it).
    ``cues`` are words that tie a number in a request to this parameter ("timestep");
    ``count_nouns`` are the nouns a count of this parameter is followed by ("atoms");
    ``primary`` takes a quantity of its dimension that has no cue; ``cue_required`` takes
    only a quantity next to one of its cues (a length is a vacuum only when "vacuum" is
    said: never by elimination). ``substance`` marks
    choices that are substances: a request naming another known substance is refused.
    ``conflicts`` lists parameters that are not assumed when this one is given
    (pressure or density, not both). ``ratio`` reads a list from colon notation
    ("3:7"); ``same_length_as`` requires as many items as another list parameter.
    ``only_with`` (element parameters): read only when one of these parameters was found
    (the element a Hubbard U is put "on" exists only beside a U).
    """

    model_config = _FROZEN

    type: ParamType
    description: str = Field(min_length=3)
    unit: str | None = None
    default: Value | None = None
    default_by: dict[str, dict[str, Value]] | None = None
    optional: bool = False
    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    choices: dict[str, list[str]] | None = None
    cues: list[str] = Field(default_factory=list)
    count_nouns: list[str] = Field(default_factory=list)
    primary: bool = False
    cue_required: bool = False
    substance: bool = False
    conflicts: list[str] = Field(default_factory=list)
    ratio: bool = False
    same_length_as: str | None = None
    only_with: list[str] = Field(default_factory=list)

    @field_validator("choices", mode="before")
    @classmethod
    def _choices_as_mapping(cls, value: object) -> object:
        if isinstance(value, list):
            return {str(v): [] for v in value}
        if isinstance(value, dict):
            return {str(k): v or [] for k, v in value.items()}
        return value

    @field_validator("unit")
    @classmethod
    def _unit_parses(cls, value: str | None) -> str | None:
        return None if value is None else check_unit(value)

    @model_validator(mode="after")
    def _consistent(self) -> ParameterSpec:
        if self.type == "choice" and not self.choices:
            raise ValueError("a choice parameter needs 'choices'")
        if (self.ratio or self.same_length_as) and self.type != "list":
            raise ValueError("ratio and same_length_as apply to list parameters")
        if self.type == "bool" and self.choices and set(self.choices) - {"true", "false"}:
            raise ValueError("the choices of a bool parameter are 'true' and 'false'")
        if self.default_by is not None and len(self.default_by) != 1:
            raise ValueError("default_by names exactly one parameter")
        if self.default is not None and self.default_by is not None:
            raise ValueError("give either default or default_by, not both")
        if self.default is not None:
            self.check(self.default)
        for values in (self.default_by or {}).values():
            for value in values.values():
                self.check(value)
        return self

    @property
    def required(self) -> bool:
        """True when a request must give this parameter."""
        return self.default is None and self.default_by is None and not self.optional

    def coerce(self, value: Value) -> Value:
        """``value`` in this parameter's type (choice phrases are strings, bools are bools)."""
        if self.type == "bool" and isinstance(value, str):
            return value == "true"
        if self.type == "float" and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return value

    def check(self, value: Value) -> None:
        """Raise :class:`ValueError` when ``value`` has the wrong type, range or choice."""
        if self.type == "list":
            if not isinstance(value, list) or not value:
                raise ValueError(f"expected a non-empty list, got {value!r}")
            for item in value:
                self._check_scalar(item, list_item=True)
            return
        if isinstance(value, list):
            raise ValueError(f"expected one value, got the list {value!r}")
        self._check_scalar(value, list_item=False)

    def _check_scalar(self, value: Scalar, *, list_item: bool) -> None:
        if self.choices and (self.type in ("choice", "list")) and str(value) not in self.choices:
            raise ValueError(f"{value!r} is not one of {', '.join(self.choices)}")
        if self.type == "bool" and not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        numeric = self.type in ("float", "int") or (list_item and not self.choices)
        if numeric:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"expected a number, got {value!r}")
            if self.type == "int" and not isinstance(value, int):
                raise ValueError(f"expected an integer, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"expected a finite number, got {value!r}")
            self._check_bounds(float(value))

    def _check_bounds(self, x: float) -> None:
        unit = f" {self.unit}" if self.unit else ""
        if self.gt is not None and not x > self.gt:
            raise ValueError(f"{x:g}{unit} must be greater than {self.gt:g}{unit}")
        if self.ge is not None and not x >= self.ge:
            raise ValueError(f"{x:g}{unit} is below the minimum {self.ge:g}{unit}")
        if self.lt is not None and not x < self.lt:
            raise ValueError(f"{x:g}{unit} must be less than {self.lt:g}{unit}")
        if self.le is not None and not x <= self.le:
            raise ValueError(f"{x:g}{unit} is above the maximum {self.le:g}{unit}")

    def phrases(self) -> dict[str, list[str]]:
        """Each choice value with the phrases that name it (the value itself when it has
        no phrases listed)."""
        return {value: aliases or [value] for value, aliases in (self.choices or {}).items()}


class AcceptanceCriterion(BaseModel):
    """A condition a result must meet, and what to do when it does not."""

    model_config = _FROZEN

    id: str = Field(pattern=_NAME)
    description: str = Field(min_length=3)
    metric: str | None = None
    comparison: Literal["<", "<=", ">", ">=", "=="] | None = None
    threshold: float | None = None
    unit: str | None = None
    on_failure: str | None = None

    @field_validator("unit")
    @classmethod
    def _unit_parses(cls, value: str | None) -> str | None:
        return None if value is None else check_unit(value)

    @model_validator(mode="after")
    def _comparison_has_threshold(self) -> AcceptanceCriterion:
        if (self.comparison is None) != (self.threshold is None):
            raise ValueError("comparison and threshold go together")
        return self


class ReferenceEntry(BaseModel):
    """A citation backing a value or a method in the module."""

    model_config = _FROZEN

    key: str = Field(min_length=2)
    citation: str = Field(min_length=10)
    doi: str | None = None
    used_for: str = Field(min_length=3)

    @field_validator("doi")
    @classmethod
    def _doi_shape(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^10\.\d{4,9}/\S+$", value):
            raise ValueError(f"{value!r} is not a DOI (10.xxxx/...)")
        return value


class FrontMatter(BaseModel):
    """Everything above the markdown body of a knowledge module."""

    model_config = _FROZEN

    id: str = Field(pattern=_NAME)
    title: str = Field(min_length=5)
    domain: Domain
    protocol: str | None = Field(pattern=_NAME)
    pending: str | None = None
    keywords: list[str] = Field(min_length=1)
    requires: list[str] = Field(default_factory=list)
    excludes: list[str] = Field(default_factory=list)
    parameters: dict[str, ParameterSpec]
    acceptance: list[AcceptanceCriterion] = Field(default_factory=list)
    references: list[ReferenceEntry] = Field(min_length=1)

    @field_validator("parameters")
    @classmethod
    def _names(cls, value: dict[str, ParameterSpec]) -> dict[str, ParameterSpec]:
        for name in value:
            if not re.match(_NAME, name):
                raise ValueError(f"parameter name {name!r} must be snake_case")
        return value

    @model_validator(mode="after")
    def _cross_checks(self) -> FrontMatter:
        if self.protocol is None and not self.pending:
            raise ValueError("a module without a protocol says why in 'pending'")
        for name, spec in self.parameters.items():
            for other, table in (spec.default_by or {}).items():
                target = self.parameters.get(other)
                if target is None or target.choices is None:
                    raise ValueError(f"{name}.default_by names {other!r}, not a choice parameter")
                unknown = set(table) - set(target.choices)
                if unknown:
                    raise ValueError(
                        f"{name}.default_by: {sorted(unknown)} are not {other} choices"
                    )
            for other in spec.conflicts:
                if other not in self.parameters:
                    raise ValueError(f"{name}.conflicts names {other!r}, not a parameter")
            if spec.same_length_as and spec.same_length_as not in self.parameters:
                raise ValueError(f"{name}.same_length_as names {spec.same_length_as!r}")
        return self
