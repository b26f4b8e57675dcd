"""One confinement rule for every file or folder name an engine input can name.

Whatever names a path in an engine's input — a LAMMPS script, a pw.x namelist, a
PACKMOL input, a spec an agent wrote for ASE — is checked here, against the
directory the engine runs in (the step directory, or the dry run's scratch copy):

- the name is not empty and holds no NUL, newline or other control character;
- it is relative: no absolute path (LAMMPS alone may give an absolute path that
  lies inside the directory, because its dry run rewrites those into the scratch
  copy: ``allow_absolute_inside``), and no ``~`` home directory;
- it has no ``..`` component at all, even one that would come back inside;
- followed through symbolic links it resolves inside the directory; a name that
  cannot be resolved is refused. Files that are only *read* may also resolve
  inside one of ``read_roots`` (an allowlisted potentials folder).

:func:`plain_name` is the stricter form for names that must be one file in the
directory itself (a pw.x ``prefix``, a pseudopotential file), and
:data:`SHELL_SAFE` the character set for names a program may hand to a shell or
split at blanks (LAMMPS compressed files, PACKMOL inputs). This module is the
only place the rule is written; the LAMMPS safety checker, the pw.x template and
request, the PACKMOL adapter and the agents' executors all call it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

from simwright.errors import ValidationError

SHELL_SAFE = re.compile(r"[A-Za-z0-9._+\-/=,@%*:]+")
"""Characters allowed in a name that may reach a shell or a blank-separated input."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class Breach(Enum):
    """Why a name is refused."""

    EMPTY = "empty"
    CONTROL = "control"
    HOME = "home"
    ABSOLUTE = "absolute"
    ESCAPE = "escape"
    SYMLINK = "symlink"
    UNRESOLVABLE = "unresolvable"


@dataclass(frozen=True)
class Violation:
    """One reason a name may not be used: the kind of breach and a message naming it."""

    breach: Breach
    message: str


class ConfinementError(ValidationError):
    """A file or folder name that leaves the directory an engine runs in."""


@dataclass(frozen=True)
class Confinement:
    """The directory an engine runs in, and what may be read from elsewhere.

    ``root`` is the step (or scratch) directory; ``read_roots`` are folders
    whose files may be read but never written; ``allow_absolute_inside``
    accepts an absolute path that lies inside ``root`` (LAMMPS only).
    """

    root: Path
    read_roots: tuple[Path, ...] = ()
    allow_absolute_inside: bool = False

    def violations(
        self, name: str, *, read: bool = False, controls: bool = True
    ) -> list[Violation]:
        """Every reason ``name`` may not be used (empty when it may).

        ``read`` allows the read-only roots; ``controls=False`` lets control
        characters through (a LAMMPS message word, never a file position).
        """
        lexical = lexical_violation(name, controls=controls, absolute=True)
        if lexical is not None:
            return [lexical]
        return self._resolved(name, read)

    def _resolved(self, name: str, read: bool) -> list[Violation]:
        path = Path(name)
        if path.is_absolute() and not self.allow_absolute_inside:
            if read and self._inside_read_root(path):
                return []
            message = f"path {name!r} is absolute; only names relative to the step directory"
            return [Violation(Breach.ABSOLUTE, message)]
        root = self.root.absolute()
        candidate = path if path.is_absolute() else root / path
        try:
            resolved = candidate.resolve()
        except (OSError, RuntimeError, ValueError):
            return [Violation(Breach.UNRESOLVABLE, f"path {name!r} cannot be resolved")]
        if resolved.is_relative_to(self.root.resolve()):
            return []
        if read and self._inside_read_root(resolved):
            return []
        plain = Path(os.path.normpath(candidate))
        if not (plain.is_relative_to(root) or plain.is_relative_to(self.root.resolve())):
            return [Violation(Breach.ABSOLUTE, f"path {name!r} is outside the step directory")]
        message = f"path {name!r} leads through a link to {resolved}, outside"
        return [Violation(Breach.SYMLINK, message)]

    def _inside_read_root(self, path: Path) -> bool:
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError, ValueError):
            return False
        return any(resolved.is_relative_to(r.resolve()) for r in self.read_roots)

    def why(self, name: str, *, read: bool = False) -> str | None:
        """The first reason ``name`` may not be used, or None."""
        found = self.violations(name, read=read)
        return found[0].message if found else None

    def require(self, name: str, *, read: bool = False) -> Path:
        """``root / name`` when the name is confined; :class:`ConfinementError` otherwise."""
        why = self.why(name, read=read)
        if why:
            raise ConfinementError(why)
        return self.root / name


def lexical_violation(
    name: str, *, controls: bool = True, absolute: bool = False
) -> Violation | None:
    """The part of the rule that needs no directory: empty, control, ``~``, ``..``, absolute.

    ``absolute=True`` leaves absolute paths to :meth:`Confinement.violations`,
    which knows whether they lie inside the directory.
    """
    if not name:
        return Violation(Breach.EMPTY, "empty file name")
    if controls and _CONTROL.search(name):
        return Violation(Breach.CONTROL, f"name {name!r} holds a control character")
    if name.startswith("~"):
        return Violation(Breach.HOME, f"name {name!r} starts with '~' (a home directory)")
    if ".." in PurePosixPath(name).parts:
        return Violation(
            Breach.ESCAPE, f"path {name!r} uses '..' (it may leave the step directory)"
        )
    if not absolute and PurePosixPath(name).is_absolute():
        message = f"path {name!r} is absolute; only names relative to the step directory"
        return Violation(Breach.ABSOLUTE, message)
    return None


def relative_name(name: str) -> str | None:
    """Why ``name`` is not a relative, shell-safe name without ``..``; None when it is.

    For names written into an input before its directory exists (a PACKMOL
    input); where the directory is known, :class:`Confinement` also follows links.
    """
    found = lexical_violation(name)
    return found.message if found else shell_safe(name)


def plain_name(name: str) -> str | None:
    """Why ``name`` is not one plain file name (no folder, no ``.``/``..``); None when it is."""
    if not name:
        return "empty file name"
    if _CONTROL.search(name):
        return f"name {name!r} holds a control character"
    if "/" in name or "\\" in name or name in (".", "..") or name.startswith("~"):
        return f"{name!r} must be a plain file name, without folders"
    return None


def shell_safe(name: str) -> str | None:
    """Why ``name`` may not reach a shell or a blank-separated input; None when it may."""
    if SHELL_SAFE.fullmatch(name):
        return None
    bad = "".join(sorted({c for c in name if not SHELL_SAFE.fullmatch(c)}))
    return f"file name {name!r} contains characters {bad!r}"
