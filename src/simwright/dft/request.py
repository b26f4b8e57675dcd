"""A DFT request: typed parameters, and the deterministic reading of free text into them.

``parse_dft_text("relax bulk Si with PBE")`` gives raw parameters for
:class:`DftRequest`; it claims only requests that mention DFT (a functional,
pw.x, Quantum ESPRESSO, SCF, relax/vc-relax with a functional...) and raises
:class:`~simwright.errors.ParseError` rather than guess.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ase.data import chemical_symbols
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from simwright.dft.stated_lattice import stated_lattice, states_value
from simwright.dft.structures import PROTOTYPES, TWO_D, StructureSpec
from simwright.engines.confine import plain_name
from simwright.engines.espresso.pseudo import canonical_functional
from simwright.engines.espresso.template import path_variables
from simwright.errors import ParseError
from simwright.text import element_mentions, find_elements, has_word

Calculation = Literal["scf", "relax", "vc-relax"]
NamelistValue = bool | int | float | str
Smearing = Literal["marzari-vanderbilt", "gaussian", "methfessel-paxton", "fermi-dirac", "none"]

SMEARING_NAMES: dict[str, str] = {
    "marzari-vanderbilt": "mv",
    "gaussian": "gaussian",
    "methfessel-paxton": "mp",
    "fermi-dirac": "fd",
}
"""Smearing choices of a request and pw.x's short names for them."""

_FLAT_KINDS = {
    "bulk": "bulk",
    "slab": "surface",
    "surface": "surface",
    "molecule": "molecule",
    "two_d": "two_d",
    "2d": "two_d",
}
_FLAT_STRUCTURE_KEYS = ("lattice", "facet", "a_a", "vacuum_a", "box_a")
MagneticOrder = Literal["ferromagnetic", "antiferromagnetic"]
PseudoFamily = Literal[
    "sssp", "sg15", "gbrv", "pslibrary", "dojo", "oncv", "paw", "ultrasoft", "norm-conserving"
]


class DftRequest(BaseModel):
    """Typed parameters of a DFT calculation with pw.x."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    structure: StructureSpec
    calculation: Calculation = "scf"
    functional: str | None = Field(None, description="PBE, PBEsol, LDA (None: first available)")
    hybrid: Literal["pbe0", "hse", "b3lyp"] | None = None
    kspacing_inv_a: float = Field(0.25, gt=0, le=2.0, description="k-point spacing (Å⁻¹, with 2π)")
    kpoints: tuple[int, int, int] | None = Field(
        None, description="an explicit Monkhorst-Pack mesh (n1, n2, n3); replaces kspacing"
    )
    ecutwfc_ry: float | None = Field(None, gt=0, description="override the wave-function cutoff")
    ecutrho_ry: float | None = Field(None, gt=0, description="override the density cutoff")
    smearing: Smearing | None = Field(None, description="smearing shape (None: cold for metals)")
    smearing_ry: float = Field(0.02, gt=0, le=0.2, description="degauss for metals (Ry)")
    spin: bool | None = Field(None, description="spin polarization (None: decide from elements)")
    hubbard_u_ev: dict[str, float] = Field(
        default_factory=dict, description="element -> Hubbard U (eV), Dudarev DFT+U"
    )
    hubbard: bool = Field(
        False, description="DFT+U; elements without a given U take the cited table's value"
    )
    magnetic_order: MagneticOrder | None = Field(
        None, description="collinear order (None: ferromagnetic start for Fe, Co, Ni)"
    )
    spin_orbit: bool | None = Field(
        None, description="spin-orbit coupling (True needs fully relativistic files)"
    )
    multiplicity: int | None = Field(None, ge=1, le=7, description="2S+1 of a molecule")
    pseudo_family: tuple[PseudoFamily, ...] = Field(
        (), description="pseudopotential family or kind to choose from (installed only)"
    )
    gamma_point: bool = Field(False, description="Γ-point sampling only")
    use_converged: bool = Field(
        False,
        description="take cutoffs and k-spacing from a stored dft_convergence study "
        "(for what the request does not state)",
    )
    vdw: Literal["grimme-d2", "grimme-d3", "ts", "xdm"] | None = None
    pseudopotentials: dict[str, str] = Field(default_factory=dict, description="element -> file")
    pseudo_dirs: tuple[str, ...] = Field((), description="extra pseudopotential directories")
    overrides: dict[str, dict[str, NamelistValue | None]] = Field(
        default_factory=dict,
        description="namelist -> variable -> value (None removes), applied last",
    )
    rattle_a: float = Field(0.0, ge=0, le=0.2, description="random displacement before relax (Å)")
    force_threshold_ev_a: float | None = Field(
        None, gt=0, le=1, description="largest force of a converged relaxation (eV/Å)"
    )

    @model_validator(mode="before")
    @classmethod
    def _flat_form(cls, data: Any) -> Any:
        """Accept the flat form knowledge modules use (formula, structure kind, lattice...)."""
        if not isinstance(data, dict) or not (
            "formula" in data or isinstance(data.get("structure"), str)
        ):
            return data
        flat = dict(data)
        kind = str(flat.pop("structure", "bulk")).lower()
        if "formula" not in flat:
            raise ValueError("a structure given by kind needs a formula, e.g. formula: Si")
        spec: dict[str, Any] = {"kind": _FLAT_KINDS.get(kind, kind), "name": flat.pop("formula")}
        for key in _FLAT_STRUCTURE_KEYS:
            if key in flat:
                spec[key] = flat.pop(key)
        if "layers" in flat:
            spec["size"] = (1, 1, int(flat.pop("layers")))
        misplaced: list[str] = [
            k for k in ("facet", "size") if k in spec and spec["kind"] != "surface"
        ]
        if "vacuum_a" in spec and spec["kind"] == "bulk":
            misplaced.append("vacuum_a")
        if misplaced:
            words = ", ".join("layers" if k == "size" else k for k in misplaced)
            raise ValueError(
                f"{words} describe a slab, not a {spec['kind']}: say 'slab' or 'surface'"
            )
        flat["structure"] = spec
        if "degauss_ry" in flat:
            flat["smearing_ry"] = flat.pop("degauss_ry")
        if "spin_polarized" in flat:
            flat["spin"] = flat.pop("spin_polarized")
        if "surface_cell" in flat:
            nx, ny = _surface_cell(flat.pop("surface_cell"))
            size = spec.get("size", (1, 1, 3))
            spec["size"] = (nx, ny, size[2])
        _flat_hubbard(flat, spec["name"])
        return flat

    @model_validator(mode="after")
    def _consistent_choices(self) -> DftRequest:
        """Refuse choices that contradict each other before anything is built."""
        if self.gamma_point and self.kpoints is not None:
            raise ValueError("Γ-point sampling and an explicit k-point mesh contradict each other")
        if self.spin is False and self.magnetic_order is not None:
            raise ValueError(f"a {self.magnetic_order} order needs spin polarization")
        if self.multiplicity is not None and self.structure.kind != "molecule":
            raise ValueError(
                "a spin multiplicity is given for molecules; for crystals say "
                "'ferromagnetic' or 'antiferromagnetic'"
            )
        return self

    @field_validator("overrides")
    @classmethod
    def _no_path_variables(
        cls, value: dict[str, dict[str, NamelistValue | None]]
    ) -> dict[str, dict[str, NamelistValue | None]]:
        """Refuse pw.x variables naming files or folders before anything runs."""
        found = path_variables(value)
        if found:
            raise ValueError(
                f"override(s) {', '.join(found)} name files or folders; simwright sets "
                "outdir, prefix and pseudo_dir itself, inside the step directory"
            )
        return value

    @field_validator("pseudopotentials")
    @classmethod
    def _plain_pseudopotential_names(cls, value: dict[str, str]) -> dict[str, str]:
        """Pseudopotentials are named by file name only; the folders come from pseudo_dirs."""
        for element, name in value.items():
            why = plain_name(name)
            if why:
                raise ValueError(f"pseudopotential of {element}: {why} (use pseudo_dirs)")
        return value

    @field_validator("functional")
    @classmethod
    def _known_functional(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return canonical_functional(value)
        except ParseError as exc:
            raise ValueError(str(exc)) from exc


def _surface_cell(value: Any) -> tuple[int, int]:
    """(nx, ny) of a slab's lateral cell from ``[2, 2]``."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"a surface cell has two repeats, e.g. 2x2; got {value!r}")
    nx, ny = (int(v) for v in value)
    if nx < 1 or ny < 1 or nx * ny > 64:
        raise ValueError(f"surface cell {nx}x{ny} is out of range (1x1 .. 8x8)")
    return nx, ny


_D_AND_F_BLOCK = re.compile(
    r"Sc|Ti|V|Cr|Mn|Fe|Co|Ni|Cu|Zn|Y|Zr|Nb|Mo|Tc|Ru|Rh|Pd|Ag|Cd|Hf|Ta|W|Re|Os|Ir|Pt|Au|Hg|"
    r"La|Ce|Pr|Nd|Pm|Sm|Eu|Gd|Tb|Dy|Ho|Er|Tm|Yb|Lu|Th|Pa|U|Np|Pu"
)


def correlated_elements(formula: str) -> list[str]:
    """The d- and f-block elements of a formula (candidates for a Hubbard U)."""
    symbols = re.findall(r"[A-Z][a-z]?", formula)
    return [s for s in dict.fromkeys(symbols) if _D_AND_F_BLOCK.fullmatch(s)]


def _flat_hubbard(flat: dict[str, Any], formula: str) -> None:
    """``hubbard`` (pbe/lda/any), ``hubbard_u_ev`` as a number and ``hubbard_element`` of
    the flat form become the functional, ``hubbard`` and the element -> U mapping."""
    kind = flat.pop("hubbard", None)
    if isinstance(kind, str):
        flat["hubbard"] = True
        if kind in ("pbe", "lda"):
            if flat.get("functional") not in (None, kind):
                raise ValueError(f"{kind.upper()}+U and the functional {flat['functional']} differ")
            flat["functional"] = kind
    elif kind is not None:
        flat["hubbard"] = kind
    element = flat.pop("hubbard_element", None)
    value = flat.get("hubbard_u_ev")
    if not isinstance(value, (int, float)):
        if element is not None:
            raise ValueError(
                f"a Hubbard U on {element} needs its value, e.g. 'U = 5 eV on {element}'"
            )
        return
    if element is None:
        candidates = correlated_elements(formula)
        if len(candidates) != 1:
            raise ValueError(
                f"which element gets U = {value:g} eV? {formula} has "
                f"{', '.join(candidates) or 'no d or f element'}; say e.g. 'U = {value:g} eV on Ni'"
            )
        element = candidates[0]
    if element not in re.findall(r"[A-Z][a-z]?", formula):
        raise ValueError(f"U on {element}: {formula} has no {element}")
    flat["hubbard_u_ev"] = {element: float(value)}
    flat["hubbard"] = True


DFT_WORDS = (
    "dft",
    "pbe",
    "lda",
    "pbesol",
    "pz",
    "pw.x",
    "espresso",
    "quantum espresso",
    "pbe0",
    "hse",
    "b3lyp",
    "blyp",
    "scf",
    "vc-relax",
    "density functional",
)
_FUNCTIONALS = (
    ("pbesol", "pbesol"),
    ("pbe0", None),
    ("hse", None),
    ("b3lyp", None),
    ("pbe", "pbe"),
    ("lda", "lda"),
    ("pz", "lda"),
    ("blyp", "blyp"),
    ("local density approximation", "lda"),
    ("local-density approximation", "lda"),
    ("perdew-burke-ernzerhof", "pbe"),
)
_MOLECULE_NAMES = {
    "water": "H2O",
    "methane": "CH4",
    "ammonia": "NH3",
    "carbon monoxide": "CO",
    "carbon dioxide": "CO2",
    "hydrogen molecule": "H2",
    "oxygen molecule": "O2",
    "nitrogen molecule": "N2",
}
_LATTICES = ("fcc", "bcc", "hcp", "diamond", "rocksalt", "zincblende", "cesiumchloride", "fluorite")
_SURFACE = re.compile(r"\b([A-Z][a-z]?)\s*\((\d{3,4})\)")
_FORMULA = re.compile(r"\b((?:[A-Z][a-z]?\d*){1,4})\b")


def mentions_dft(text: str) -> bool:
    """True when the request is meant for a DFT (pw.x) protocol."""
    low = text.lower()
    phrases = (
        "pw.x",
        "quantum espresso",
        "density functional",
        "local density approximation",
        "local-density approximation",
        "perdew-burke-ernzerhof",
        "generalized gradient approximation",
    )
    return any(has_word(text, w) for w in DFT_WORDS if "." not in w and " " not in w) or any(
        w in low for w in phrases
    )


_VC_WORDS = re.compile(
    r"vc-relax|variable[- ]cell|cell relax|relax(?:ing)? the (?:unit )?cell"
    r"|cell and (?:ions|positions)|full relaxation"
)
_FIXED_CELL_WORDS = re.compile(
    r"fixed[- ]cell|cell fixed|keeping the cell|positions only|atomic positions|ions only"
    r"|at the experimental lattice"
)


def parse_calculation(text: str) -> Calculation:
    """scf, relax or vc-relax from the wording ("relax" alone: see :func:`states_fixed_cell`)."""
    low = text.lower()
    if _VC_WORDS.search(low):
        return "vc-relax"
    if re.search(r"\brelax\w*|geometry optimi[sz]|structural optimi[sz]", low):
        return "relax"
    return "scf"


def states_fixed_cell(text: str) -> bool:
    """True when the request keeps the cell fixed ("fixed cell", "atomic positions", or a
    stated lattice constant: "relax bulk Si at a = 5.40 Å")."""
    return _FIXED_CELL_WORDS.search(text.lower()) is not None or states_value(text)


def _with_symbols(text: str) -> str:
    """``text`` with element names written as symbols ("bcc iron" -> "bcc Fe")."""
    out = text
    for m in reversed(element_mentions(text)):
        if m.text != m.meaning:
            out = out[: m.start] + m.meaning + out[m.end :]
    return out


def parse_functional(text: str) -> tuple[str | None, str | None]:
    """(base functional, hybrid) named in ``text``; (None, None) when none is named."""
    found = [(w, base) for w, base in _FUNCTIONALS if has_word(text, w)]
    if not found:
        return None, None
    word, base = found[0]
    if base is None:
        return "pbe", word
    return base, None


def parse_structure(text: str) -> dict[str, Any]:
    """The structure spec (raw) a request describes."""
    low = text.lower()
    for name in TWO_D:
        if has_word(text, name) or (name == "hBN" and re.search(r"\bh-?bn\b", low)):
            return {"kind": "two_d", "name": name}
    m = _SURFACE.search(text)
    if m is not None or has_word(text, "slab", "surface"):
        elements = [m.group(1)] if m else find_elements(text)
        if len(elements) != 1:
            raise ParseError("a surface request names one element, e.g. 'Cu(111) slab'")
        raw: dict[str, Any] = {"kind": "surface", "name": elements[0]}
        if m:
            raw["facet"] = m.group(2)
        return raw
    for word, formula in _MOLECULE_NAMES.items():
        if word in low:
            return {"kind": "molecule", "name": formula}
    if has_word(text, "molecule", "dimer", "gas"):
        return {"kind": "molecule", "name": _single_formula(text)}
    raw = {"kind": "bulk", "name": _single_formula(text)}
    lattices = [lat for lat in _LATTICES if has_word(text, lat)]
    if len(lattices) > 1:
        raise ParseError(f"the request names several lattices ({', '.join(lattices)})")
    if lattices:
        raw["lattice"] = lattices[0]
    stated = stated_lattice(text)
    if stated is not None:
        raw["a_a"] = stated.a_a
    return raw


def _single_formula(text: str) -> str:
    skip = {w.upper() for w in DFT_WORDS} | {"SCF", "DFT", "D2", "D3", "PZ", "I", "A"}
    found = []
    # "300 K", "20 Å", "2 C": a number's unit is no material
    text = re.sub(r"(?<![\w.])\d+(?:\.\d+)?\s+\S+", " ", text)
    for token in _FORMULA.findall(text):
        if token.upper() in skip or token in skip:
            continue
        if token in PROTOTYPES or _is_formula(token):
            found.append(token)
        elif re.fullmatch(r"[A-Z][a-z]?", token) and token not in skip:
            raise ParseError(f"unknown element {token!r} in the request")
    found = list(dict.fromkeys(found))
    if not found:
        raise ParseError(
            "which material? name an element or formula, e.g. 'SCF of bulk Si with PBE'"
        )
    if len(found) > 1:
        raise ParseError(f"the request names several materials ({', '.join(found)}); name one")
    return found[0]


def _is_formula(token: str) -> bool:
    parts = re.findall(r"([A-Z][a-z]?)(\d*)", token)
    return (
        bool(parts)
        and "".join(s + n for s, n in parts) == token
        and all(s in chemical_symbols[1:] for s, _ in parts)
    )


def parse_dft_text(text: str) -> dict[str, Any] | None:
    """Raw :class:`DftRequest` parameters from free text, or None if not a DFT request."""
    if not mentions_dft(text):
        return None
    calculation = parse_calculation(text)
    raw: dict[str, Any] = {"structure": parse_structure(_with_symbols(text))}
    if calculation != "relax" or states_fixed_cell(text) or raw["structure"]["kind"] != "bulk":
        raw["calculation"] = calculation
    else:
        raw["calculation"] = "vc-relax"  # "relax bulk X": the cell relaxes too
    functional, hybrid = parse_functional(text)
    if functional is not None:
        raw["functional"] = functional
    if hybrid is not None:
        raw["hybrid"] = hybrid
    if re.search(r"\bnon[- ]?magnetic\b|\bwithout spin\b", text.lower()):
        raw["spin"] = False
    elif re.search(r"\bspin[- ]polari[sz]ed\b|\bmagnetic\b", text.lower()):
        raw["spin"] = True
    return raw


EOS_TRIGGERS = ("lattice constant", "lattice parameter", "equation of state", "bulk modulus")
_EOS_WITH_A_STATED = ("equation of state", "bulk modulus")
"""The triggers that still ask for an EOS when the request states the lattice constant."""


def is_eos_request(text: str) -> bool:
    """True when the request asks for a lattice constant or an equation of state; a
    lattice constant whose value is stated ("SCF of Si at a lattice constant of 5.43 Å")
    is a given of the calculation named, not a request for one."""
    low = text.lower()
    triggers = _EOS_WITH_A_STATED if states_value(text) else EOS_TRIGGERS
    return any(t in low for t in triggers) or has_word(text, "eos")


def request_from_text(text: str) -> DftRequest:
    """A :class:`DftRequest` from free text, DFT words not required ("graphene", "CO molecule")."""
    raw: dict[str, Any] = {
        "structure": parse_structure(text),
        "calculation": parse_calculation(text),
    }
    functional, hybrid = parse_functional(text)
    if functional is not None:
        raw["functional"] = functional
    if hybrid is not None:
        raw["hybrid"] = hybrid
    return DftRequest.model_validate(raw)
