"""Pseudopotential headers (UPF v1 and v2) and exchange-correlation functionals.

Everything simwright decides about a pseudopotential comes from its header, never
from its file name: the element, the functional, the kind (norm-conserving,
ultrasoft, PAW), the relativistic treatment (a file with spin-orbit terms needs
``noncolin``/``lspinorb``), the valence charge and the suggested cutoffs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ase.data import atomic_numbers

from simwright.errors import ParseError

PseudoKind = Literal["NC", "US", "PAW", "coulomb"]
Relativistic = Literal["none", "scalar", "full"]

_XC_SHORT: dict[str, tuple[str, str, str, str]] = {
    "PZ": ("SLA", "PZ", "NOGX", "NOGC"),
    "LDA": ("SLA", "PZ", "NOGX", "NOGC"),
    "PW": ("SLA", "PW", "NOGX", "NOGC"),
    "PBE": ("SLA", "PW", "PBX", "PBC"),
    "PBESOL": ("SLA", "PW", "PSX", "PSC"),
    "BLYP": ("SLA", "B88", "LYP", "BLYP"),
    "PW91": ("SLA", "PW", "GGX", "GGC"),
    "TPSS": ("SLA", "PW", "TPSS", "TPSS"),
}
"""Short functional names as pw.x spells them, and their four components."""

_FAMILY: dict[tuple[str, str, str, str], str] = {
    ("SLA", "PZ", "NOGX", "NOGC"): "lda",
    ("SLA", "PW", "NOGX", "NOGC"): "lda-pw",
    ("SLA", "PW", "PBX", "PBC"): "pbe",
    ("SLA", "PW", "PBE", "PBE"): "pbe",
    ("SLA", "PW", "PSX", "PSC"): "pbesol",
    ("SLA", "B88", "LYP", "BLYP"): "blyp",
    ("SLA", "LYP", "B88", "BLYP"): "blyp",
    ("SLA", "PW", "GGX", "GGC"): "pw91",
    ("SLA", "PW", "TPSS", "TPSS"): "tpss",
}
"""Functional families by their components (pw.x orders them exchange, correlation,
gradient exchange, gradient correlation; some generators swapped the middle two)."""

FUNCTIONAL_ALIASES: dict[str, str] = {
    "lda": "lda",
    "pz": "lda",
    "lsda": "lda",
    "pbe": "pbe",
    "gga": "pbe",
    "pbesol": "pbesol",
    "blyp": "blyp",
    "pw91": "pw91",
    "tpss": "tpss",
}
"""What users write for a functional, mapped to the family name used here."""


def functional_family(text: str) -> str:
    """The family (``lda``, ``pbe``, ``pbesol``...) of a functional as written in a header.

    Accepts a short name (``PBE``), four components (``SLA PW PBX PBC``), an
    optional trailing label (``SLA PW PBX PBC PBE``) and dash-separated forms.
    Unknown combinations are returned as their components joined by ``+``.
    """
    words = [w for w in re.split(r"[\s\-+]+", text.strip().upper()) if w]
    if not words:
        raise ParseError("empty functional in pseudopotential header")
    if len(words) == 1 or (len(words) == 2 and words[0] == words[1]):
        key = _XC_SHORT.get(words[0])
        if key is None:
            return words[0].lower()
        return _FAMILY[key]
    components = tuple(words[:4]) if len(words) >= 4 else (*words, "", "", "")[:4]
    four = (components[0], components[1], components[2], components[3])
    return _FAMILY.get(four, "+".join(w.lower() for w in four if w))


def canonical_functional(name: str) -> str:
    """The family a user's functional name refers to; ``ParseError`` lists known names."""
    key = name.strip().lower()
    if key in FUNCTIONAL_ALIASES:
        return FUNCTIONAL_ALIASES[key]
    raise ParseError(
        f"unknown functional {name!r}; known: {', '.join(sorted(set(FUNCTIONAL_ALIASES)))}"
    )


@dataclass(frozen=True)
class PseudoInfo:
    """What the header of one UPF file says (cutoffs in Ry; None when not suggested)."""

    path: Path
    element: str
    functional: str
    functional_raw: str
    kind: PseudoKind
    relativistic: Relativistic
    has_spin_orbit: bool
    z_valence: float
    wfc_cutoff_ry: float | None
    rho_cutoff_ry: float | None
    core_correction: bool
    upf_version: int
    generated_here: bool = False
    """True when simwright generated the file with ld1.x and its provenance record
    (sha256 included) is beside it: see :mod:`~simwright.engines.espresso.pseudo_generated`."""

    @property
    def name(self) -> str:
        """The file name."""
        return self.path.name

    @property
    def fully_relativistic(self) -> bool:
        """True when the file carries spin-orbit terms (pw.x then needs lspinorb)."""
        return self.has_spin_orbit or self.relativistic == "full"

    @property
    def core_electrons(self) -> float:
        """Electrons left in the frozen core: Z minus the valence charge."""
        return atomic_numbers[self.element] - self.z_valence

    @property
    def excited_core(self) -> bool:
        """True for a core-hole (excited) potential: closed core shells hold an even
        number of electrons, so an odd or fractional core count means an open core."""
        core = self.core_electrons
        return abs(core - round(core)) > 1e-6 or round(core) % 2 == 1

    def describe(self) -> str:
        """One line for people and agents."""
        cut = (
            f"suggests {self.wfc_cutoff_ry:g}/{self.rho_cutoff_ry or 0:g} Ry"
            if self.wfc_cutoff_ry
            else "no suggested cutoff"
        )
        rel = "fully relativistic" if self.fully_relativistic else self.relativistic
        made = ", generated here by ld1.x" if self.generated_here else ""
        return (
            f"{self.name}: {self.element}, {self.functional}, {self.kind}, {rel}, "
            f"Z_val={self.z_valence:g}, {cut}{made}"
        )


_ATTR = re.compile(r"""([A-Za-z_]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_V2_HEADER = re.compile(r"<PP_HEADER\b([^>]*?)/?>", re.DOTALL)
_V1_HEADER = re.compile(r"<PP_HEADER>(.*?)</PP_HEADER>", re.DOTALL)


def read_upf_header(path: Path) -> PseudoInfo:
    """Parse the header of a UPF file; :class:`ParseError` when it is not UPF."""
    path = Path(path)
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise ParseError(f"{path}: cannot read ({exc})") from exc
    v1 = _V1_HEADER.search(text)
    if v1 is not None:
        return _parse_v1(path, v1.group(1), has_addinfo="<PP_ADDINFO>" in text)
    v2 = _V2_HEADER.search(text)
    if v2 is not None:
        return _parse_v2(path, v2.group(1))
    raise ParseError(f"{path}: no <PP_HEADER> found (not a UPF pseudopotential)")


def _flag(value: str) -> bool:
    return value.strip().strip(".").upper() in ("T", "TRUE")


def _cutoff(value: str) -> float | None:
    number = float(value.replace("D", "E").replace("d", "e"))
    return number if number > 0 else None


def _kind(pseudo_type: str, is_paw: bool, is_us: bool, is_coulomb: bool) -> PseudoKind:
    if is_coulomb or pseudo_type.upper() == "1/R":
        return "coulomb"
    if is_paw or pseudo_type.upper() == "PAW":
        return "PAW"
    if is_us or pseudo_type.upper() in ("US", "USPP"):
        return "US"
    return "NC"


def _element(raw: str, path: Path) -> str:
    symbol = raw.strip().capitalize()
    if symbol not in atomic_numbers:
        raise ParseError(f"{path}: unknown element {raw!r} in the header")
    return symbol


def _parse_v2(path: Path, body: str) -> PseudoInfo:
    attrs = {m.group(1).lower(): m.group(2) or m.group(3) or "" for m in _ATTR.finditer(body)}
    try:
        functional = attrs["functional"]
        rel = attrs.get("relativistic", "scalar").strip().lower()
        has_so = _flag(attrs.get("has_so", "F"))
        return PseudoInfo(
            path=path,
            element=_element(attrs["element"], path),
            functional=functional_family(functional),
            functional_raw=" ".join(functional.split()),
            kind=_kind(
                attrs.get("pseudo_type", "NC"),
                _flag(attrs.get("is_paw", "F")),
                _flag(attrs.get("is_ultrasoft", "F")),
                _flag(attrs.get("is_coulomb", "F")),
            ),
            relativistic="full" if rel == "full" else ("none" if rel == "no" else "scalar"),
            has_spin_orbit=has_so,
            z_valence=float(attrs["z_valence"].replace("D", "E")),
            wfc_cutoff_ry=_cutoff(attrs.get("wfc_cutoff", "0")),
            rho_cutoff_ry=_cutoff(attrs.get("rho_cutoff", "0")),
            core_correction=_flag(attrs.get("core_correction", "F")),
            upf_version=2,
        )
    except (KeyError, ValueError) as exc:
        raise ParseError(f"{path}: incomplete UPF v2 header ({exc})") from exc


def _parse_v1(path: Path, body: str, *, has_addinfo: bool) -> PseudoInfo:
    lines = [ln.split() for ln in body.strip().splitlines()]
    try:
        kind_word = lines[2][0]
        functional = " ".join(w for w in lines[4][:4])
        cutoffs = lines[7]
        return PseudoInfo(
            path=path,
            element=_element(lines[1][0], path),
            functional=functional_family(functional),
            functional_raw=functional,
            kind=_kind(kind_word, False, False, False),
            relativistic="full" if has_addinfo else "scalar",
            has_spin_orbit=has_addinfo,
            z_valence=float(lines[5][0].replace("D", "E")),
            wfc_cutoff_ry=_cutoff(cutoffs[0]),
            rho_cutoff_ry=_cutoff(cutoffs[1]),
            core_correction=_flag(lines[3][0]),
            upf_version=1,
        )
    except (IndexError, ValueError) as exc:
        raise ParseError(f"{path}: malformed UPF v1 header ({exc})") from exc
