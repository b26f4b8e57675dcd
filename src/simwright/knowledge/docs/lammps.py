"""The LAMMPS manual as a documentation source: its HTML pages or its RST sources.

A page is named after its file (``fix_nh.html`` -> ``fix_nh``), titled by its
``<h1>`` headings, and indexed by its Description's first paragraph and its Syntax
block. The manual itself is never shipped with simwright: it is installed on the
user's machine (:mod:`.install`) or pointed to with ``--from PATH``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from simwright.knowledge.docs.html import read_html_page
from simwright.knowledge.docs.retrieval import DocPage, RetrievalError
from simwright.knowledge.docs.rst import read_rst_page
from simwright.knowledge.docs.source import files_fingerprint

ManualKind = Literal["html", "rst"]
PARSER_VERSION = "lammps-manual-2"
HTML_IN_DEB = Path("usr/share/doc/lammps/html")
_KINDS: tuple[ManualKind, ...] = ("html", "rst")
_PLACES = (Path(), HTML_IN_DEB, Path("html"), Path("doc/src"), Path("src"))


@dataclass(frozen=True)
class LammpsManual:
    """The pages of a LAMMPS manual directory (``*.html`` or ``*.rst``)."""

    root: Path
    kind: ManualKind
    name: str = "lammps"

    def files(self) -> list[Path]:
        """The manual's page files, sorted by name."""
        return sorted(self.root.glob(f"*.{self.kind}"))

    def fingerprint(self) -> str:
        """Changes when a page file is added, removed or modified, or the reader changes."""
        return files_fingerprint(self.files(), salt=f"{PARSER_VERSION}:{self.kind}")

    def pages(self) -> list[DocPage]:
        """Every page that has a description or a syntax block."""
        read = read_html_page if self.kind == "html" else read_rst_page
        pages = (read(f) for f in self.files())
        return [p for p in pages if p.passage or p.syntax]


def find_manual(path: Path) -> LammpsManual:
    """The manual under ``path``: an HTML directory, an extracted ``lammps-doc`` package,
    a LAMMPS source tree (``doc/src/*.rst``) or a directory of ``.rst`` pages."""
    if not path.is_dir():
        raise RetrievalError(f"{path} is not a directory holding a LAMMPS manual")
    for place in _PLACES:
        folder = path / place
        for kind in _KINDS:
            if folder.is_dir() and any(folder.glob(f"*.{kind}")):
                return LammpsManual(folder.resolve(), kind)
    raise RetrievalError(
        f"no LAMMPS manual under {path}: expected *.html pages, "
        f"{HTML_IN_DEB}/*.html or doc/src/*.rst"
    )
