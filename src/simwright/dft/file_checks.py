"""Check a whole pw.x input file: its namelists through the knowledge graph, then its cards.

:func:`validate_text` parses the text (:func:`~simwright.engines.espresso.reader.parse_pw_file`)
and adds to :func:`~simwright.dft.validation.validate_input` what only a
complete file can show, each checked against what pw.x 6.7 itself refuses:
``nat``/``ntyp``/``ibrav`` missing, the ``ATOMIC_SPECIES`` or
``ATOMIC_POSITIONS`` card missing or short, ``ibrav=0`` without
``CELL_PARAMETERS``, ``ibrav`` without a lattice constant, namelists out of
pw.x's reading order. Namelists and cards pw.x 6.7 skips are warnings.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from simwright import yamlio
from simwright.dft.knowledge_graph import KnowledgeGraph, load_knowledge_graph
from simwright.dft.validation import Problem, errors, validate_input
from simwright.engines.espresso.reader import PwFile, parse_pw_file
from simwright.errors import ParseError, SimwrightError

MAPPING_SUFFIXES = frozenset({".yaml", ".yml", ".json"})
"""Files holding a mapping namelist -> variable -> value instead of pw.x text."""
PW_SUFFIXES = frozenset({".in", ".pwi"})
"""pw.x input files picked up from a directory."""

ORDER: tuple[str, ...] = ("control", "system", "electrons", "ions", "cell")
"""The namelists pw.x 6.7 reads, in the order it reads them."""

READ_BY_PW: frozenset[str] = frozenset(
    {
        "ATOMIC_SPECIES",
        "ATOMIC_POSITIONS",
        "K_POINTS",
        "ADDITIONAL_K_POINTS",
        "CELL_PARAMETERS",
        "REF_CELL_PARAMETERS",
        "OCCUPATIONS",
        "CONSTRAINTS",
        "ATOMIC_FORCES",
        "ATOMIC_VELOCITIES",
    }
)
"""Cards pw.x 6.7 reads; others are printed as ignored."""


def validate_text(text: str, kg: KnowledgeGraph | None = None) -> list[Problem]:
    """All problems of pw.x input ``text``, errors first (:class:`ParseError` if unreadable)."""
    return validate_pw_file(parse_pw_file(text), kg)


def validate_pw_file(f: PwFile, kg: KnowledgeGraph | None = None) -> list[Problem]:
    """All problems of a parsed pw.x input file, errors first."""
    kg = kg or load_knowledge_graph()
    known = {nl: values for nl, values in f.namelists.items() if nl in ORDER}
    # a whole file is not written by simwright's template: its paths are the caller's
    # to confine (the agents' gate does), not reserved
    problems = validate_input(known, kg, template_paths=False)
    problems.extend(_namelist_problems(f))
    problems.extend(_required(f))
    problems.extend(_card_problems(f))
    return sorted(problems, key=lambda p: p.severity != "error")


def _error(kind: str, namelist: str, name: str, message: str) -> Problem:
    return Problem(kind, "error", namelist, name, message)  # type: ignore[arg-type]


def _namelist_problems(f: PwFile) -> list[Problem]:
    out = [
        Problem(
            "unknown_variable",
            "warning",
            nl,
            f"&{nl.upper()}",
            f"pw.x 6.7 reads no namelist &{nl.upper()} and skips it (it reads "
            + ", ".join(ORDER)
            + ")",
        )
        for nl in f.namelists
        if nl not in ORDER
    ]
    read = [nl for nl in f.namelist_order if nl in ORDER]
    if read != sorted(read, key=ORDER.index):
        out.append(
            _error(
                "inconsistent",
                read[0],
                "namelist order",
                "pw.x reads the namelists in the order "
                + ", ".join(ORDER)
                + "; found , ".join(read),
            )
        )
    for nl in ORDER[:3]:
        if nl not in f.namelists:
            out.append(
                _error(
                    "missing_namelist",
                    nl,
                    f"&{nl.upper()}",
                    f"pw.x always reads &{nl.upper()} (it may be empty); it is missing",
                )
            )
    return out


def _int(f: PwFile, name: str) -> int | None:
    value = f.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _required(f: PwFile) -> list[Problem]:
    out = []
    for name in ("nat", "ntyp"):
        n = _int(f, name)
        if n is None or n < 1:
            out.append(_error("missing_dependency", "system", name, f"{name} must be set (≥ 1)"))
    ibrav = _int(f, "ibrav")
    if ibrav is None and f.get("space_group") is None:
        out.append(_error("missing_dependency", "system", "ibrav", "ibrav must be set"))
    lattice = any(f.get(k) for k in ("celldm(1)", "A")) or f.get("space_group") is not None
    if ibrav not in (None, 0) and not lattice:
        out.append(
            _error(
                "missing_dependency",
                "system",
                "celldm(1)",
                f"ibrav={ibrav} needs a lattice constant: celldm(1) or A",
            )
        )
    return out


def _card_problems(f: PwFile) -> list[Problem]:
    out: list[Problem] = []
    for name, count_of in (("ATOMIC_SPECIES", "ntyp"), ("ATOMIC_POSITIONS", "nat")):
        card = f.cards.get(name)
        need = _int(f, count_of) or 0
        if card is None:
            out.append(_error("missing_namelist", "card", name, f"the {name} card is missing"))
        elif len(card.rows) < need:
            out.append(
                _error(
                    "inconsistent",
                    "card",
                    name,
                    f"{name} has {len(card.rows)} lines but {count_of}={need}",
                )
            )
    if _int(f, "ibrav") == 0 and "CELL_PARAMETERS" not in f.cards:
        out.append(
            _error("missing_namelist", "card", "CELL_PARAMETERS", "ibrav=0 needs CELL_PARAMETERS")
        )
    for name in f.cards:
        if name not in READ_BY_PW:
            out.append(
                Problem(
                    "inconsistent", "warning", "card", name, f"pw.x 6.7 ignores the {name} card"
                )
            )
    return out


@dataclass(frozen=True)
class FileReport:
    """The outcome for one file: its problems, or why it could not be read."""

    path: str
    problems: tuple[Problem, ...] = ()
    error: str | None = None
    error_type: str | None = None

    @property
    def ok(self) -> bool:
        """Readable and without error-level problems."""
        return self.error is None and not errors(list(self.problems))

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (one line of ``simwright dft validate --json``)."""
        out: dict[str, Any] = {"file": self.path, "ok": self.ok}
        if self.error is not None:
            return {**out, "error": self.error, "error_type": self.error_type}
        return {**out, "problems": [p.as_dict() for p in self.problems]}


def input_files(path: Path) -> list[Path]:
    """``path`` itself, or the pw.x inputs and namelist mappings under a directory."""
    if not path.is_dir():
        return [path]
    wanted = PW_SUFFIXES | MAPPING_SUFFIXES
    return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in wanted)


def check_file(path: Path, kg: KnowledgeGraph | None = None) -> FileReport:
    """Validate one file: pw.x input text, or a YAML/JSON namelist mapping by suffix."""
    try:
        text = path.read_text()
        if path.suffix.lower() in MAPPING_SUFFIXES:
            problems = validate_input(_mapping(text, path), kg)
        else:
            problems = validate_text(text, kg)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return FileReport(str(path), error=f"{path}: {exc}", error_type="ParseError")
    except SimwrightError as exc:
        return FileReport(str(path), error=f"{path}: {exc}", error_type=type(exc).__name__)
    return FileReport(str(path), tuple(problems))


def _mapping(text: str, path: Path) -> dict[str, dict[str, Any]]:
    data = yamlio.safe_load(text)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ParseError(f"{path}: expected a mapping namelist -> variable -> value")
    return data
