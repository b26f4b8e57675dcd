"""Hybrid retrieval over short documentation pages: BM25 + dense embeddings, fused by RRF.

A page is indexed by its title, its name, the first paragraph of its description
and its syntax block. BM25 (``rank_bm25``'s BM25+, whose IDF stays positive even in
a corpus of three memory records) ranks by shared words, the injected
:class:`Embedder` ranks by meaning, and reciprocal-rank fusion
(``score = Σ 1 / (k + rank)``, k = 60) merges them. In ``hybrid`` mode a third
ranking joins the fusion when pages link to each other (the LAMMPS manual): the
best candidates of the first two, ordered by how many pages link to them, so the
main page of a family (``dump``) is preferred to a variant (``dump vtk``) that
matches the words just as well. Each of BM25 and dense can also be used alone,
which is what the retrieval benchmark compares.

The embedder is a dependency passed in: anything with ``encode(texts) -> array``
whose rows are unit vectors (the default one lives in :mod:`.embedder`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from simwright.errors import SimwrightError
from simwright.knowledge.docs.normalize import tokenize

if TYPE_CHECKING:
    from numpy.typing import NDArray

Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[Mode, ...] = ("hybrid", "bm25", "dense")
RRF_K = 60
DEPTH = 100
"""How many candidates of each ranking take part in the fusion."""
AUTHORITY_POOL = 0.05
"""Fraction of the pages (first candidates of each ranking) the link-authority ranking
reorders: 50 of the LAMMPS manual's 1006 pages, none beyond the top one of a tiny corpus."""
PASSAGE_CHARS = 600


class RetrievalError(SimwrightError):
    """Documentation or memory cannot be searched (missing index, package or embedder)."""


class Embedder(Protocol):
    """Turns texts into unit-length vectors, one row per text."""

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed ``texts``; rows are L2-normalized."""
        ...


def embedder_name(embedder: Embedder) -> str:
    """A stable name of an embedder (its ``name`` attribute, or its class)."""
    name = getattr(embedder, "name", None)
    return name if isinstance(name, str) else type(embedder).__qualname__


@dataclass(frozen=True)
class DocPage:
    """One documentation page as indexed: name, title, description, syntax and links."""

    page: str
    title: str
    passage: str
    """The first paragraph of the page's description."""
    syntax: str = ""
    source: str = ""
    """Where the page comes from (a file, or a module)."""
    links: tuple[str, ...] = ()
    """Names of the other pages of the same documentation this page links to."""

    def name_words(self) -> str:
        """The page name as words (``fix_nh`` -> ``fix nh``)."""
        return " ".join(tokenize(self.page.replace(".", " "), stem=False))

    def head(self) -> str:
        """Title and name, each word once (a page titled by ten variants is not ten times
        about its family name)."""
        return " ".join(
            dict.fromkeys(f"{self.title} {self.name_words()}".replace(",", " ").split())
        )

    def bm25_text(self) -> str:
        """Text for the word index: title and name weigh twice, then passage and syntax."""
        return f"{self.head()} {self.head()} {self.passage} {self.syntax}"

    def dense_text(self) -> str:
        """Text for the embedder: title, passage, then the syntax (truncated by the model)."""
        return f"{self.title}. {self.passage}\n{self.syntax}"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "page": self.page,
            "title": self.title,
            "passage": self.passage,
            "syntax": self.syntax,
            "source": self.source,
            "links": list(self.links),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocPage:
        """Inverse of :meth:`as_dict`."""
        text = {k: str(data.get(k, "")) for k in ("page", "title", "passage", "syntax", "source")}
        return cls(**text, links=tuple(str(x) for x in data.get("links", ())))


@dataclass(frozen=True)
class Hit:
    """A ranked search result; a rank is None where that ranking did not list the page."""

    page: str
    title: str
    score: float
    passage: str
    source: str
    bm25_rank: int | None = None
    dense_rank: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "page": self.page,
            "title": self.title,
            "score": self.score,
            "passage": self.passage,
            "source": self.source,
            "bm25_rank": self.bm25_rank,
            "dense_rank": self.dense_rank,
        }


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal-rank fusion: each item scores Σ 1/(k + rank), ranks counted from 1."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return scores


def in_links(pages: Sequence[DocPage]) -> NDArray[np.int64]:
    """For each page, how many other pages link to it."""
    where = {p.page: i for i, p in enumerate(pages)}
    counts = np.zeros(len(pages), dtype=np.int64)
    for p in pages:
        for target in set(p.links) - {p.page}:
            if (i := where.get(target)) is not None:
                counts[i] += 1
    return counts


def _bm25(tokens: Sequence[Sequence[str]]) -> Any:
    try:
        # lazy: optional extra [knowledge]
        from rank_bm25 import BM25Plus
    except ImportError as exc:
        raise RetrievalError(
            "word search needs rank-bm25: pip install 'simwright[knowledge]'"
        ) from exc
    return BM25Plus([list(t) for t in tokens])


class RetrievalIndex:
    """Pages with their BM25 tokens and (optionally) their embeddings, ready to search."""

    def __init__(
        self,
        pages: Sequence[DocPage],
        tokens: Sequence[Sequence[str]],
        embeddings: NDArray[np.float32] | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        if len(tokens) != len(pages):
            raise RetrievalError("index is inconsistent: tokens and pages differ in number")
        if embeddings is not None and embeddings.shape[0] != len(pages):
            raise RetrievalError("index is inconsistent: embeddings and pages differ in number")
        self.pages = list(pages)
        self.tokens = [list(t) for t in tokens]
        self.embeddings = embeddings
        self.embedder = embedder
        self.in_links = in_links(self.pages)
        self._bm25: Any = None

    @classmethod
    def build(cls, pages: Sequence[DocPage], embedder: Embedder | None) -> RetrievalIndex:
        """Tokenize and (with an embedder) embed ``pages``."""
        tokens = [tokenize(p.bm25_text()) for p in pages]
        vectors = None
        if embedder is not None and pages:
            vectors = np.asarray(embedder.encode([p.dense_text() for p in pages]), np.float32)
        return cls(pages, tokens, vectors, embedder)

    def __len__(self) -> int:
        return len(self.pages)

    def bm25_ranking(self, query: str, depth: int = DEPTH) -> list[int]:
        """Page indices sharing a word with ``query``, best BM25 score first."""
        words = tokenize(query)
        if not words or not self.pages:
            return []
        if self._bm25 is None:
            self._bm25 = _bm25(self.tokens)
        scores = np.asarray(self._bm25.get_scores(words), float)
        present = set(words)
        matched = [i for i, toks in enumerate(self.tokens) if present.intersection(toks)]
        matched.sort(key=lambda i: (-scores[i], i))
        return matched[:depth]

    def dense_ranking(self, query: str, depth: int = DEPTH) -> list[int]:
        """Page indices by cosine similarity to ``query``, most similar first."""
        if self.embedder is None or self.embeddings is None:
            raise RetrievalError(
                "dense search needs an embedder (pip install 'simwright[knowledge]')"
            )
        if not self.pages:
            return []
        q = np.asarray(self.embedder.encode([query]), np.float32)[0]
        sims = self.embeddings @ q
        order = np.argsort(-sims, kind="stable")
        return [int(i) for i in order[:depth]]

    def authority_ranking(self, candidates: Sequence[int]) -> list[int]:
        """``candidates`` linked to by other pages, most linked-to first (empty without links)."""
        linked = {i for i in candidates if self.in_links[i] > 0}
        return sorted(linked, key=lambda i: (-int(self.in_links[i]), i))

    def search(self, query: str, k: int = 5, mode: Mode = "hybrid") -> list[Hit]:
        """The ``k`` best pages for ``query``.

        ``hybrid`` fuses three rankings by RRF: BM25, dense (left out without embeddings)
        and, among the first candidates of either (:data:`AUTHORITY_POOL` of the pages), how
        many pages link to each — the manual's own judgement of which page is the main one.
        """
        use_dense = mode == "dense" or (mode == "hybrid" and self.embeddings is not None)
        bm25 = self.bm25_ranking(query) if mode in ("hybrid", "bm25") else []
        dense = self.dense_ranking(query) if use_dense else []
        rankings = [bm25, dense]
        if mode == "hybrid":
            n = max(1, round(AUTHORITY_POOL * len(self.pages)))
            pool = dict.fromkeys([*bm25[:n], *dense[:n]])
            rankings.append(self.authority_ranking(list(pool)))
        fused = rrf([r for r in rankings if r])
        order = sorted(fused, key=lambda i: (-fused[i], i))[:k]
        b_rank = {item: n for n, item in enumerate(bm25, start=1)}
        d_rank = {item: n for n, item in enumerate(dense, start=1)}
        return [self._hit(i, fused[i], b_rank.get(i), d_rank.get(i)) for i in order]

    def _hit(self, i: int, score: float, b: int | None, d: int | None) -> Hit:
        p = self.pages[i]
        passage = p.passage if len(p.passage) <= PASSAGE_CHARS else p.passage[:PASSAGE_CHARS] + "…"
        return Hit(p.page, p.title, round(score, 6), passage, p.source, b, d)
