"""Retrieval accuracy on the full LAMMPS manual: BM25 alone, dense alone and hybrid (RRF).

Each labelled query is searched in the manual installed with ``simwright docs install
lammps``; a query counts as answered at k when one of its labelled pages is among the
first k hits. Two query sets are used by default: ``retrieval_queries.yaml`` (60
queries, the set the ranking was designed on) and ``retrieval_queries_heldout.yaml``
(20 queries written afterwards, before any change made in response to the first set),
reported separately and together. The index is built afresh in a
temporary directory (timed: reading the pages, BM25 tokens and embeddings), so the
user's cached index is neither used nor touched.

    python benchmarks/retrieval.py [--queries A.yaml B.yaml ...] [--home DIR]
                                   [--show-misses] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from simwright.knowledge.docs.embedder import MiniLMEmbedder
from simwright.knowledge.docs.index import build_index, read_manifest
from simwright.knowledge.docs.library import DocLibrary
from simwright.knowledge.docs.retrieval import MODES, Mode, RetrievalIndex, rrf
from simwright.settings import load_settings

HERE = Path(__file__).parent


def load_queries(path: Path) -> list[tuple[str, list[str]]]:
    data = yaml.safe_load(path.read_text())
    return [(q["query"], list(q["pages"])) for q in data["queries"]]


def _plain_rrf(index: RetrievalIndex) -> Callable[[str], list[str]]:
    """BM25 and dense fused by RRF without the link-authority ranking (ablation)."""

    def rank(query: str) -> list[str]:
        fused = rrf([index.bm25_ranking(query), index.dense_ranking(query)])
        return [index.pages[i].page for i in sorted(fused, key=lambda i: (-fused[i], i))[:4]]

    return rank


def _mode(index: RetrievalIndex, mode: Mode) -> Callable[[str], list[str]]:
    def rank(query: str) -> list[str]:
        return [h.page for h in index.search(query, 4, mode)]

    return rank


def rankers(index: RetrievalIndex) -> dict[str, Callable[[str], list[str]]]:
    out = {mode: _mode(index, mode) for mode in MODES}
    out["bm25+dense, no links"] = _plain_rrf(index)
    return out


def evaluate(index: RetrievalIndex, queries: list[tuple[str, list[str]]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, rank in rankers(index).items():
        top1 = top4 = 0
        misses = []
        start = time.perf_counter()
        for query, labels in queries:
            pages = rank(query)
            top1 += bool(pages) and pages[0] in labels
            hit4 = any(p in labels for p in pages)
            top4 += hit4
            if not hit4:
                misses.append({"query": query, "labels": labels, "got": pages})
        n = len(queries)
        out[name] = {
            "top1": round(top1 / n, 3),
            "top4": round(top4 / n, 3),
            "ms_per_query": round(1000 * (time.perf_counter() - start) / n, 1),
            "misses": misses,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--home", type=Path, help="simwright home (default: $SIMWRIGHT_HOME)")
    parser.add_argument(
        "--queries",
        type=Path,
        nargs="+",
        default=[HERE / "retrieval_queries.yaml", HERE / "retrieval_queries_heldout.yaml"],
    )
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = load_settings()
    home = args.home.expanduser().resolve() if args.home else settings.home
    library = DocLibrary(home / "docs")
    source = library.source("lammps")  # a clear error when the manual is not installed
    sets = {path.stem: load_queries(path) for path in args.queries}
    if len(sets) > 1:
        sets["all"] = [q for qs in list(sets.values()) for q in qs]

    start = time.perf_counter()
    embedder = MiniLMEmbedder.load()
    load_s = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        index = build_index(Path(tmp), source, embedder)
        manifest = read_manifest(Path(tmp))
    assert manifest is not None
    results = {name: evaluate(index, queries) for name, queries in sets.items()}
    report = {
        "queries": {name: len(qs) for name, qs in sets.items()},
        "pages": len(index),
        "index_build_s": manifest.build_s,
        "model_load_s": round(load_s, 2),
        "results": results,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{len(index)} pages; index built in {manifest.build_s:.1f} s (model load {load_s:.1f} s)"
    )
    for name, by_mode in results.items():
        print(f"\n{name} ({len(sets[name])} queries)\n")
        print("| ranking | top-1 | top-4 | ms/query |\n|---|---|---|---|")
        for mode, r in by_mode.items():
            print(f"| {mode} | {r['top1']:.3f} | {r['top4']:.3f} | {r['ms_per_query']} |")
    if args.show_misses:
        for name, by_mode in results.items():
            if name == "all":
                continue
            for mode, r in by_mode.items():
                for miss in r["misses"]:
                    print(f"{mode}: {miss['query']!r} want {miss['labels']} got {miss['got']}")


if __name__ == "__main__":
    main()
