"""A small deterministic lexical scorer: tokens, light stemming and Okapi BM25.

Used by the planner to rank knowledge modules for a request. It needs no model and
no index on disk; with a dozen modules it is instantaneous. The IDF is the
non-negative form ``ln(1 + (N - n + 0.5) / (n + 0.5))`` (Robertson–Spärck Jones with
the +1 used by Lucene), so a term present in every module adds a little, never a
penalty.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

_STOP_LIST = (
    "a an and are as at be by compute calculate do for from get give i in into is it me "
    "my of on or please run simulate simulation the this to use using want what with "
    "would you need can could"
)
_STOP = frozenset(_STOP_LIST.split())
_SUFFIXES = ("ivities", "ivity", "ations", "ation", "ions", "ion", "ing", "ed", "s")
_KEEP_S = ("ss", "us", "is")
_REWRITES = (
    (re.compile(r"spc/e", re.I), "spce"),
    (re.compile(r"pw\.x", re.I), "pwx"),
    (re.compile(r"r²|r\^2", re.I), "r2"),
    (re.compile(r"green[\s–-]*kubo", re.I), "greenkubo"),
)


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light suffix stripper: 'diffusivity', 'diffusion' → 'diffus'; 'atoms' → 'atom'."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            if suffix == "s" and word.endswith(_KEEP_S):
                continue
            return word[: -len(suffix)]
    return word


def tokens(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-case stemmed word tokens of ``text`` (stop words dropped unless kept)."""
    return list(_tokens(text, keep_stopwords))


@lru_cache(maxsize=1024)
def _tokens(text: str, keep_stopwords: bool) -> tuple[str, ...]:
    """:func:`tokens`, remembered: the planner tokenizes the same module texts for
    every ranking it makes."""
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    words = re.findall(r"[a-z0-9+]+", text.lower())
    return tuple(stem(w) for w in words if keep_stopwords or w not in _STOP)


def contains_phrase(request_tokens: Sequence[str], phrase: str) -> bool:
    """True when the tokens of ``phrase`` occur contiguously in ``request_tokens``."""
    target = tokens(phrase, keep_stopwords=True)
    n = len(target)
    if n == 0:
        return False
    return any(
        list(request_tokens[i : i + n]) == target for i in range(len(request_tokens) - n + 1)
    )


@dataclass(frozen=True)
class BM25:
    """Okapi BM25 over a fixed list of documents (each a list of tokens)."""

    documents: tuple[tuple[str, ...], ...]
    k1: float = 1.2
    b: float = 0.75

    @classmethod
    def from_texts(cls, texts: Sequence[str]) -> BM25:
        """An index of ``texts`` tokenized with :func:`tokens`."""
        return cls(tuple(tuple(tokens(t)) for t in texts))

    def idf(self, term: str) -> float:
        """Inverse document frequency of ``term`` (never negative)."""
        n = sum(1 for d in self.documents if term in d)
        big_n = len(self.documents)
        return math.log(1.0 + (big_n - n + 0.5) / (n + 0.5))

    def scores(self, query: Sequence[str]) -> list[float]:
        """The BM25 score of each document for the query tokens."""
        if not self.documents:
            return []
        avg = sum(len(d) for d in self.documents) / len(self.documents) or 1.0
        idf = {t: self.idf(t) for t in set(query)}
        out = []
        for doc in self.documents:
            counts = Counter(doc)
            norm = self.k1 * (1.0 - self.b + self.b * len(doc) / avg)
            total = 0.0
            for term in query:
                f = counts.get(term, 0)
                if f:
                    total += idf[term] * f * (self.k1 + 1.0) / (f + norm)
            out.append(total)
        return out
