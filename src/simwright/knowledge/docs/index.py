"""The on-disk index of a documentation source, built lazily and rebuilt when stale.

Layout of ``<index dir>``: ``pages.json`` (page records), ``tokens.json`` (BM25 words),
``embeddings.npy`` (float32, one unit row per page) and ``manifest.json`` written last,
which names the index format, the source's fingerprint and the embedder. An index
whose manifest does not match is rebuilt; one built without embeddings gains them the
first time a search needs them.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from simwright.knowledge.docs.retrieval import DocPage, Embedder, RetrievalIndex, embedder_name
from simwright.knowledge.docs.source import DocSource

INDEX_FORMAT = 3
"""Bump when page text, tokenization or the files change meaning."""


@dataclass(frozen=True)
class Manifest:
    """What an index on disk was built from."""

    format: int
    source: str
    fingerprint: str
    pages: int
    embedder: str | None
    build_s: float


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def read_manifest(directory: Path) -> Manifest | None:
    """The manifest of the index in ``directory``, or None when there is none."""
    path = directory / "manifest.json"
    if not path.is_file():
        return None
    try:
        return Manifest(**json.loads(path.read_text()))
    except (TypeError, ValueError):
        return None


def save_index(directory: Path, index: RetrievalIndex, manifest: Manifest) -> None:
    """Write ``index`` to ``directory``; the manifest goes last, so a crash leaves it stale."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "manifest.json").unlink(missing_ok=True)
    _write(directory / "pages.json", json.dumps([p.as_dict() for p in index.pages]).encode())
    _write(directory / "tokens.json", json.dumps(index.tokens).encode())
    emb = directory / "embeddings.npy"
    if index.embeddings is not None:
        np.save(emb.with_name("embeddings.tmp.npy"), index.embeddings.astype(np.float32))
        os.replace(emb.with_name("embeddings.tmp.npy"), emb)
    else:
        emb.unlink(missing_ok=True)
    _write(directory / "manifest.json", json.dumps(asdict(manifest), indent=2).encode())


def load_index(directory: Path, embedder: Embedder | None) -> RetrievalIndex:
    """Read the index in ``directory`` (embeddings only when an embedder is given)."""
    pages = [DocPage.from_dict(d) for d in json.loads((directory / "pages.json").read_text())]
    tokens = json.loads((directory / "tokens.json").read_text())
    vectors = None
    if embedder is not None:
        vectors = np.load(directory / "embeddings.npy").astype(np.float32)
    return RetrievalIndex(pages, tokens, vectors, embedder)


def is_fresh(manifest: Manifest | None, source: DocSource, embedder: Embedder | None) -> bool:
    """Whether an index built per ``manifest`` can serve ``source`` with ``embedder``."""
    return (
        manifest is not None
        and manifest.format == INDEX_FORMAT
        and manifest.fingerprint == source.fingerprint()
        and (embedder is None or manifest.embedder == embedder_name(embedder))
    )


def cached_index(directory: Path, source: DocSource, embedder: Embedder | None) -> RetrievalIndex:
    """The index of ``source`` from ``directory``, (re)built first when missing or stale."""
    manifest = read_manifest(directory)
    if is_fresh(manifest, source, embedder):
        return load_index(directory, embedder)
    return build_index(directory, source, embedder)


def build_index(directory: Path, source: DocSource, embedder: Embedder | None) -> RetrievalIndex:
    """Read every page of ``source``, index it and save the index to ``directory``."""
    start = time.perf_counter()
    fingerprint = source.fingerprint()
    index = RetrievalIndex.build(source.pages(), embedder)
    manifest = Manifest(
        format=INDEX_FORMAT,
        source=source.name,
        fingerprint=fingerprint,
        pages=len(index),
        embedder=embedder_name(embedder) if embedder is not None else None,
        build_s=round(time.perf_counter() - start, 3),
    )
    save_index(directory, index, manifest)
    return index
