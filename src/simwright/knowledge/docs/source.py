"""What a documentation source is: named pages plus a fingerprint that changes with them.

The index cache (:mod:`.index`) rebuilds a source's index when its fingerprint
differs from the one the index was built from.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from simwright.knowledge.docs.retrieval import DocPage


class DocSource(Protocol):
    """A body of documentation that can be indexed."""

    @property
    def name(self) -> str:
        """Short name of the source (``lammps``, ``ase``...)."""
        ...

    def fingerprint(self) -> str:
        """A hash that changes whenever the pages would change."""
        ...

    def pages(self) -> list[DocPage]:
        """Every indexable page."""
        ...


def files_fingerprint(files: Iterable[Path], salt: str = "") -> str:
    """sha256 over the names, sizes and modification times of ``files`` (cheap: no reads)."""
    h = hashlib.sha256(salt.encode())
    for path in sorted(files):
        st = path.stat()
        h.update(f"{path.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def text_fingerprint(*parts: str) -> str:
    """sha256 of some strings (versions, names)."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
