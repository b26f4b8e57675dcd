"""Which knowledge module a request is for: keyword gating, then BM25 ranking.

A module is a *candidate* when the request contains one of its ``keywords`` (as a
phrase, after light stemming), at least one of its ``requires`` terms when it lists
any, and none of its ``excludes``. Candidates are ranked by BM25 over the module's
title (weighted twice), keywords (three times) and body. The best one wins unless
the runner-up scores within :data:`AMBIGUITY_RATIO` of it: then the request is
ambiguous and refused, never decided by a hair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simwright.errors import ParseError
from simwright.knowledge.modules import KnowledgeModule
from simwright.knowledge.planner.lexical import BM25, contains_phrase, tokens

AMBIGUITY_RATIO = 0.8
"""A runner-up scoring at least this fraction of the best makes the request ambiguous."""
TITLE_WEIGHT = 2
KEYWORD_WEIGHT = 3


class NotUnderstood(ParseError):
    """No knowledge module matches the request."""


@dataclass(frozen=True)
class Candidate:
    """A module that matches the request, its BM25 score and the keywords it matched."""

    module: KnowledgeModule
    score: float
    matched: tuple[str, ...]


def _document(module: KnowledgeModule) -> str:
    keywords = " ".join(module.keywords)
    return "\n".join(
        [*([module.title] * TITLE_WEIGHT), *([keywords] * KEYWORD_WEIGHT), module.index_text()]
    )


def _gate(request_tokens: Sequence[str], module: KnowledgeModule) -> tuple[str, ...] | None:
    """The keywords matched, or None when the module is not a candidate."""
    if any(contains_phrase(request_tokens, t) for t in module.excludes):
        return None
    if module.requires and not any(contains_phrase(request_tokens, t) for t in module.requires):
        return None
    matched = tuple(k for k in module.keywords if contains_phrase(request_tokens, k))
    return matched or None


def rank_modules(request: str, modules: Sequence[KnowledgeModule]) -> list[Candidate]:
    """The candidate modules for ``request``, best first (ties broken by module id)."""
    all_tokens = tokens(request, keep_stopwords=True)
    index = BM25.from_texts([_document(m) for m in modules])
    scores = index.scores(tokens(request))
    out = []
    for module, score in zip(modules, scores, strict=True):
        matched = _gate(all_tokens, module)
        if matched is not None:
            out.append(Candidate(module, round(score, 4), matched))
    return sorted(out, key=lambda c: (-c.score, c.module.id))


def choose_module(
    request: str, modules: Sequence[KnowledgeModule]
) -> tuple[Candidate, tuple[Candidate, ...]]:
    """The module for ``request`` and the other candidates.

    Raises :class:`NotUnderstood` when no module matches and :class:`ParseError` when
    two modules match about equally well.
    """
    ranked = rank_modules(request, modules)
    if not ranked:
        raise NotUnderstood(
            f"simwright did not understand the request {request!r}: no knowledge module matches it"
        )
    best, rest = ranked[0], tuple(ranked[1:])
    if rest and rest[0].score >= AMBIGUITY_RATIO * best.score:
        names = ", ".join(
            f"{c.module.id} (protocol {c.module.protocol or 'none yet'})" for c in ranked[:3]
        )
        raise ParseError(
            f"the request {request!r} is ambiguous: it fits {names} about equally well; "
            "say which, or write a spec file"
        )
    return best, rest
