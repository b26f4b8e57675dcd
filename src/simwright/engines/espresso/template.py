"""The typed input of one pw.x run and its rendering as a pw.x input file (a pure template).

:class:`PwInput` holds the namelists as typed mappings (variable name -> value;
array elements are written ``starting_magnetization(1)``), the species with their
pseudopotential files, the structure (positions and cell in Å), optional fixed
coordinates and the k-point mesh. :func:`render` writes the text pw.x reads; the
variables derived from the structure (``ibrav``, ``nat``, ``ntyp``) and the
launcher's paths (``pseudo_dir``, ``outdir``, ``prefix``) are set by the template,
and every variable naming a file or folder (:data:`PATH_VARIABLES`) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np
from ase.data import atomic_masses, atomic_numbers

from simwright.engines.confine import ConfinementError, plain_name
from simwright.engines.espresso.parse import PwOutput, parse_output
from simwright.errors import ValidationError
from simwright.structure import Structure

Value = bool | int | float | str
"""A namelist value."""

NAMELISTS: tuple[str, ...] = ("control", "system", "electrons", "ions", "cell")
"""The namelists pw.x reads, in the order it reads them."""

MANAGED: frozenset[str] = frozenset(
    {"ibrav", "nat", "ntyp", "pseudo_dir", "outdir", "prefix", "celldm", "a", "b", "c"}
)
"""Variables the template sets itself; giving them in ``namelists`` is refused."""

PATH_VARIABLES: frozenset[str] = frozenset(
    {"outdir", "wfcdir", "prefix", "pseudo_dir", "input_xml_schema_file", "dmft_prefix"}
)
"""pw.x namelist variables that name a file or folder (6.7, plus later ``dmft_prefix``).

The template sets ``outdir``, ``prefix`` and ``pseudo_dir`` to fixed places inside
the step directory; every one of them is refused in a request or an input, so
that pw.x never reads or writes a path simwright did not choose. ``prefix`` is
refused too, even as a plain name: the parser and the recovery machine find
pw.x's files under the fixed ``pwscf`` prefix.
"""


def path_variables(namelists: Mapping[str, Mapping[str, object]]) -> list[str]:
    """The variables of ``namelists`` that name files or folders, as written."""
    return sorted(
        name
        for values in namelists.values()
        for name in values
        if name.split("(")[0].strip().lower() in PATH_VARIABLES
    )


def refuse_path_variables(namelists: Mapping[str, Mapping[str, object]]) -> None:
    """Raise :class:`~simwright.engines.confine.ConfinementError` naming any path variable."""
    found = path_variables(namelists)
    if found:
        raise ConfinementError(
            f"pw.x variable(s) {', '.join(found)} name files or folders; simwright sets "
            "outdir, prefix and pseudo_dir itself, inside the step directory, and refuses "
            "these in requests and overrides"
        )


INPUT_NAME = "pw.in"
OUTPUT_NAME = "pw.stdout"
"""run_subprocess writes the standard output of engine ``pw`` here."""
PREFIX = "pwscf"
OUTDIR = "./tmp"
PSEUDO_SUBDIR = "pseudo"


@dataclass(frozen=True)
class Species:
    """One atomic species: symbol, mass (amu) and pseudopotential file name."""

    symbol: str
    pseudo_file: str
    mass_amu: float | None = None
    label: str | None = None
    """A species name other than the element ("Fe1", "Fe2": one element, two spins)."""

    def __post_init__(self) -> None:
        why = plain_name(self.pseudo_file)
        if why:
            raise ConfinementError(f"pseudopotential of {self.symbol}: {why}")
        label_ok = re.fullmatch(rf"{self.symbol}[0-9]", self.label or "")
        if self.label is not None and (not label_ok or len(self.label) > 3):
            raise ValidationError(
                f"species label {self.label!r} must be the element and one digit "
                "(pw.x reads at most three characters)"
            )

    @property
    def name(self) -> str:
        """The name written to the cards: the label, else the element."""
        return self.label or self.symbol

    @property
    def mass(self) -> float:
        """The mass written to the input (the standard atomic mass unless given)."""
        return (
            self.mass_amu
            if self.mass_amu is not None
            else float(atomic_masses[atomic_numbers[self.symbol]])
        )


@dataclass(frozen=True)
class KPoints:
    """An automatic Monkhorst-Pack mesh with optional half-step shifts, Γ only, or an
    explicit list of points in crystal coordinates of the reciprocal cell (``crystal``,
    e.g. a band-structure path; each point has weight 1)."""

    mode: Literal["automatic", "gamma", "crystal"] = "automatic"
    mesh: tuple[int, int, int] = (1, 1, 1)
    shift: tuple[int, int, int] = (0, 0, 0)
    points: tuple[tuple[float, float, float], ...] = ()

    def __post_init__(self) -> None:
        if (self.mode == "crystal") != bool(self.points):
            raise ValidationError("an explicit k-point list (mode 'crystal') needs its points")
        if any(n < 1 for n in self.mesh):
            raise ValidationError(f"k-point mesh must be positive, got {self.mesh}")
        if any(s not in (0, 1) for s in self.shift):
            raise ValidationError(f"k-point shifts are 0 or 1, got {self.shift}")

    def render(self) -> str:
        """The K_POINTS card."""
        if self.mode == "gamma":
            return "K_POINTS gamma\n"
        if self.mode == "crystal":
            rows = "".join(f"  {k[0]:.10f} {k[1]:.10f} {k[2]:.10f} 1\n" for k in self.points)
            return f"K_POINTS crystal\n  {len(self.points)}\n{rows}"
        nums = " ".join(str(n) for n in (*self.mesh, *self.shift))
        return f"K_POINTS automatic\n  {nums}\n"

    def describe(self) -> str:
        """``Γ`` or ``4×4×4`` (with ``+shift`` when shifted)."""
        if self.mode == "gamma":
            return "Γ only"
        if self.mode == "crystal":
            return f"{len(self.points)} listed points"
        text = "×".join(str(n) for n in self.mesh)
        return text + (" shifted" if any(self.shift) else "")


@dataclass(frozen=True)
class PwInput:
    """Everything one pw.x run reads (the namelists without the managed variables)."""

    namelists: Mapping[str, Mapping[str, Value]]
    species: tuple[Species, ...]
    structure: Structure
    kpoints: KPoints = field(default_factory=KPoints)
    fixed: tuple[tuple[bool, bool, bool], ...] | None = None
    """Per atom: which Cartesian components are frozen (None: all free)."""
    labels: tuple[str, ...] | None = None
    """Per atom: the species name (None: the element), for two spins of one element."""

    def __post_init__(self) -> None:
        clean: dict[str, dict[str, Value]] = {}
        for name, values in self.namelists.items():
            key = name.lower()
            if key not in NAMELISTS:
                raise ValidationError(
                    f"unknown namelist &{name}; pw.x reads {', '.join(NAMELISTS)}"
                )
            clean[key] = dict(values)
        object.__setattr__(self, "namelists", clean)
        symbols = {s.symbol for s in self.species}
        missing = sorted(set(self.structure.symbols) - symbols)
        if missing:
            raise ValidationError(f"no species (pseudopotential) given for {', '.join(missing)}")
        if self.labels is not None:
            names = {s.name: s.symbol for s in self.species}
            if len(self.labels) != len(self.structure) or any(
                names.get(lab) != sym
                for lab, sym in zip(self.labels, self.structure.symbols, strict=False)
            ):
                raise ValidationError("'labels' needs one species name of its element per atom")
        if self.fixed is not None and len(self.fixed) != len(self.structure):
            raise ValidationError("'fixed' needs one entry per atom")

    # -- access ---------------------------------------------------------------
    def get(self, namelist: str, name: str, default: Value | None = None) -> Value | None:
        """The value of ``name`` in ``namelist`` (or ``default``)."""
        return self.namelists.get(namelist, {}).get(name, default)

    @property
    def calculation(self) -> str:
        """The pw.x calculation (``scf`` unless set)."""
        return str(self.get("control", "calculation", "scf"))

    def find(self, name: str) -> str | None:
        """The namelist holding ``name`` (case-insensitive), or None."""
        for nl, values in self.namelists.items():
            if any(k.lower() == name.lower() for k in values):
                return nl
        return None

    def written_namelists(self) -> dict[str, dict[str, Value]]:
        """The namelists as the template writes them (needed empty ones included)."""
        return {nl: dict(self.namelists.get(nl, {})) for nl in NAMELISTS if _needs(self, nl)}

    # -- changes ---------------------------------------------------------------
    def with_values(self, changes: Mapping[str, Mapping[str, Value | None]]) -> PwInput:
        """A copy with ``changes`` applied (``None`` removes a variable)."""
        new = {k: dict(v) for k, v in self.namelists.items()}
        for nl, values in changes.items():
            target = new.setdefault(nl.lower(), {})
            for name, value in values.items():
                if value is None:
                    target.pop(name, None)
                else:
                    target[name] = value
        return replace(self, namelists={k: v for k, v in new.items() if v or k in NAMELISTS[:3]})

    def with_structure(self, structure: Structure) -> PwInput:
        """A copy with another structure (same atoms)."""
        if structure.symbols != self.structure.symbols:
            raise ValidationError("the new structure must have the same atoms in the same order")
        return replace(self, structure=structure)


def format_value(value: Value) -> str:
    """A namelist value as Fortran reads it."""
    if isinstance(value, bool):
        return ".true." if value else ".false."
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not np.isfinite(value):
            raise ValidationError(f"cannot write a non-finite number ({value}) to pw.x")
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


def _needs(inp: PwInput, namelist: str) -> bool:
    calc = inp.calculation
    if namelist == "ions":
        return calc in ("relax", "md", "vc-relax", "vc-md") or bool(inp.namelists.get("ions"))
    if namelist == "cell":
        return calc in ("vc-relax", "vc-md") or bool(inp.namelists.get("cell"))
    return True


def _managed_values(inp: PwInput) -> dict[str, dict[str, Value]]:
    return {
        "control": {"pseudo_dir": f"./{PSEUDO_SUBDIR}", "outdir": OUTDIR, "prefix": PREFIX},
        "system": {"ibrav": 0, "nat": len(inp.structure), "ntyp": len(inp.species)},
    }


def render(inp: PwInput) -> str:
    """The pw.x input text for ``inp``."""
    refuse_path_variables(inp.namelists)
    for values in inp.namelists.values():
        clash = sorted(k for k in values if k.split("(")[0].lower() in MANAGED)
        if clash:
            raise ValidationError(
                f"{', '.join(clash)} are set by simwright's template; remove them from the input"
            )
    managed = _managed_values(inp)
    parts: list[str] = []
    for nl in NAMELISTS:
        if not _needs(inp, nl):
            continue
        values = {**managed.get(nl, {}), **inp.namelists.get(nl, {})}
        body = "".join(f"  {k} = {format_value(v)}\n" for k, v in values.items())
        parts.append(f"&{nl.upper()}\n{body}/\n")
    parts.append(_species_card(inp))
    parts.append(_cell_card(inp.structure))
    parts.append(_positions_card(inp))
    parts.append(inp.kpoints.render())
    return "".join(parts)


@dataclass(frozen=True)
class PwTemplate:
    """The pw.x template (an :class:`~simwright.engines.base.EngineTemplate`).

    ``inputs`` renders ``pw.in`` from a :class:`PwInput`; ``parse`` reads ``pw.stdout``
    (an empty output when pw.x wrote none).
    """

    def inputs(self, spec: PwInput) -> dict[str, str]:
        """``{'pw.in': text}``; the pseudopotential files are staged by the caller."""
        return {INPUT_NAME: render(spec)}

    def parse(self, spec: PwInput, workdir: Path) -> PwOutput:
        """The parsed ``pw.stdout`` of ``workdir``."""
        path = workdir / OUTPUT_NAME
        return parse_output(path.read_text(errors="replace") if path.is_file() else "")


def _species_card(inp: PwInput) -> str:
    lines = [f"  {s.name} {s.mass:.6f} {s.pseudo_file}" for s in inp.species]
    return "ATOMIC_SPECIES\n" + "\n".join(lines) + "\n"


def _cell_card(structure: Structure) -> str:
    if abs(np.linalg.det(structure.cell)) < 1e-9:
        raise ValidationError("pw.x needs a cell: put molecules in a box with vacuum")
    rows = "".join(f"  {v[0]:.10f} {v[1]:.10f} {v[2]:.10f}\n" for v in structure.cell)
    return "CELL_PARAMETERS angstrom\n" + rows


def _positions_card(inp: PwInput) -> str:
    lines = []
    names = inp.labels or inp.structure.symbols
    for i, (sym, pos) in enumerate(zip(names, inp.structure.positions, strict=True)):
        line = f"  {sym} {pos[0]:.10f} {pos[1]:.10f} {pos[2]:.10f}"
        if inp.fixed is not None:
            line += " " + " ".join("0" if f else "1" for f in inp.fixed[i])
        lines.append(line)
    return "ATOMIC_POSITIONS angstrom\n" + "\n".join(lines) + "\n"
