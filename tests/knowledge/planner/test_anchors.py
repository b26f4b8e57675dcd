"""Literal anchors let the planner skip choice patterns a request cannot match; skipping
must never change what is found."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simwright import yamlio
from simwright.knowledge.planner.anchors import alternatives, anchors
from simwright.knowledge.planner.stated import TERMS, Stated, find_stated
from simwright.protocols.registry import load_protocols

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("chgnet", ("chgnet",)),
        ("sevennet(?:-0)?|7net(?:-0)?", ("sevennet", "7net")),
        ("pbe-?sol", ("pbe",)),  # the hyphen is optional, "pbe" and "sol" are not
        ("ab+c", ("ab",)),  # 'b+' may repeat: only "ab" is certain
        (r"m[üu]ller[- ]plathe", ("plathe",)),  # the longest required run
        (r"(?:grimme[- ])?d3", ("d3",)),
        (r"(?:grimme[- ])?d", None),  # one character outside the group is too short
        (r"\d+\s?x\s?\d+", None),
        (r"ice(?: i[hc])?", ("ice",)),
    ],
)
def test_anchors_are_required_literals(pattern: str, expected: tuple[str, ...] | None) -> None:
    assert anchors(pattern) == expected


def test_alternatives_split_only_at_the_top_level() -> None:
    assert alternatives(r"a(?:b|c)|[|]d|e\|f") == ["a(?:b|c)", "[|]d", r"e\|f"]


def _corpus() -> list[str]:
    texts = [e for p in load_protocols().values() for e in p.examples]
    for name in ("benchmarks/requests_fresh.yaml", "benchmarks/data/dft_requests_fresh.yaml"):
        data = yamlio.safe_load((ROOT / name).read_text(encoding="utf-8"))
        texts += [c.get("request") or c["text"] for c in data["cases"]]
    return texts


def _brute(text: str) -> list[Stated]:
    """find_stated without anchors: every pattern compiled and tried."""
    hits = []
    for term in TERMS:
        rx = re.compile(rf"(?<![\w+/-])(?:{term.pattern})(?![\w/])", re.IGNORECASE)
        for m in rx.finditer(text):
            if m.group(0).strip():
                hits.append(Stated(term.category, term.value, m.group(0), m.start(), m.end()))
    hits.sort(key=lambda s: (-(s.end - s.start), s.start))
    kept: list[Stated] = []
    for s in hits:
        if all(s.end <= k.start or k.end <= s.start for k in kept):
            kept.append(s)
    return sorted(kept, key=lambda s: s.start)


def test_skipping_by_anchor_finds_what_trying_every_pattern_finds() -> None:
    corpus = _corpus()
    assert len(corpus) > 150
    found = 0
    for text in corpus:
        assert find_stated(text) == _brute(text), text
        found += len(_brute(text))
    assert found > 100  # the corpus states many choices: the comparison is not vacuous
