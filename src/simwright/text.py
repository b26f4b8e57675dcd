"""Small deterministic helpers for reading requests: element symbols and names,
chemical formulas and known phrases (used by the planner, the protocols and the DFT
recommender alike)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from ase.data import atomic_names, chemical_symbols

from simwright.errors import ParseError

T = TypeVar("T")

_SYMBOL_TOKEN = re.compile(r"\b([A-Z][a-z]?)\b")
_NAMES = {
    name.lower(): sym for sym, name in zip(chemical_symbols, atomic_names, strict=True) if name
} | {"aluminum": "Al", "cesium": "Cs", "sulphur": "S"}  # spellings ASE does not list
_NOT_ELEMENTS = {"I", "A"}  # English words that look like symbols ("I want", "A lattice...")
_SENTENCE_WORD_LIST = "At In As Be He No So Do If It Is On Of Or To We My Me Go Up An By"
_SENTENCE_WORDS = frozenset(_SENTENCE_WORD_LIST.split())
"""Capitalized English words that are skipped at the start of a sentence ("At 300 K...")."""
_SENTENCE_START = re.compile(r"(?:^|[.!?;:]\s+)$")
_FORMULA_TOKEN = re.compile(r"(?<![\w/])((?:[A-Z][a-z]?\d*)+)(?![\w/])")
_FORMULA_PART = re.compile(r"([A-Z][a-z]?)(\d*)")

_ACRONYM_LIST = (
    "SCF DFT PBE LDA GGA EOS NPT NVT NVE MD MSD EMT LJ GCMC RH QE PAW NC US BM SPC CHGNet "
    "MLIP GPU CPU VDW DOS MP MV FD CN ACF NEB BFGS SHAKE PPPM RDF"
)
ACRONYMS = frozenset(_ACRONYM_LIST.split())
"""Upper-case abbreviations of the field that are never read as chemical formulas."""


@dataclass(frozen=True)
class PhraseMatch(Generic[T]):
    """A known phrase found in a text, at ``start:end``, with what it stands for."""

    start: int
    end: int
    text: str
    meaning: T


def element_mentions(text: str) -> list[PhraseMatch[str]]:
    """Elements named in ``text`` by symbol (``Cu``) or name (``copper``), with positions.

    Capitalized one- or two-letter tokens that are not elements (``Xx``) raise
    :class:`ParseError`, because a misspelt element must never be silently ignored.
    Common capitalized English words at the start of a sentence ("At 300 K, ...",
    "In water ...") are not read as symbols.
    """
    found: list[PhraseMatch[str]] = []
    for m in _SYMBOL_TOKEN.finditer(text):
        token = m.group(1)
        if token in _NOT_ELEMENTS:
            continue
        if token in _SENTENCE_WORDS and _SENTENCE_START.search(text[: m.start()]):
            continue
        if token not in chemical_symbols[1:]:
            raise ParseError(f"unknown element {token!r} in the request")
        found.append(PhraseMatch(m.start(), m.end(), token, token))
    for m in re.finditer(r"[A-Za-z]+", text):
        symbol = _NAMES.get(m.group(0).lower())
        if symbol is not None:
            found.append(PhraseMatch(m.start(), m.end(), m.group(0), symbol))
    return sorted(found, key=lambda f: f.start)


def find_elements(text: str) -> list[str]:
    """Element symbols named in ``text`` by symbol or name, in order of appearance.

    See :func:`element_mentions` for what counts and what is refused.
    """
    return list(dict.fromkeys(m.meaning for m in element_mentions(text)))


def find_formulas(text: str) -> list[str]:
    """Chemical formulas of two or more atoms written in ``text`` (``NaCl``, ``SiO2``, ``H2O``).

    A token counts when every part is an element symbol and it is not one of the
    field's :data:`ACRONYMS`; single symbols (``Cu``) are left to :func:`find_elements`.
    """
    out: list[str] = []
    for m in _FORMULA_TOKEN.finditer(text):
        token = m.group(1)
        if token in ACRONYMS:
            continue
        parts = _FORMULA_PART.findall(token)
        if len(parts) == 1 and not parts[0][1]:
            continue
        if all(sym in chemical_symbols[1:] for sym, _ in parts):
            out.append(token)
    return list(dict.fromkeys(out))


def has_word(text: str, *words: str) -> bool:
    """True when any of ``words`` occurs in ``text`` as a whole word (case-insensitive)."""
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in words)


def phrase_pattern(phrase: str) -> str:
    """A regex for ``phrase`` as a whole word: not glued to letters or digits on a side
    that ends in one; spaces, hyphens and underscores inside it match any of them."""
    parts = [re.escape(p) for p in re.split(r"[\s_-]+", phrase.strip()) if p]
    head = r"(?<![\w])" if re.match(r"\w", phrase.strip()) else ""
    tail = r"(?![\w])" if re.search(r"\w$", phrase.strip()) else ""
    return head + r"[\s_-]*".join(parts) + tail


def find_phrases(
    text: str, phrases: Mapping[str, T] | Iterable[tuple[str, T]]
) -> list[PhraseMatch[T]]:
    """Non-overlapping case-insensitive matches of ``phrases`` in ``text``, longest
    phrases first (so "non-spin-polarized" wins over "spin-polarized"), in text order."""
    items = list(phrases.items()) if isinstance(phrases, Mapping) else list(phrases)
    items.sort(key=lambda item: len(item[0]), reverse=True)
    taken: list[PhraseMatch[T]] = []
    for phrase, meaning in items:
        for m in re.finditer(phrase_pattern(phrase), text, re.IGNORECASE):
            if any(m.start() < t.end and t.start < m.end() for t in taken):
                continue
            taken.append(PhraseMatch(m.start(), m.end(), m.group(0), meaning))
    return sorted(taken, key=lambda t: t.start)


def mask(text: str, spans: Iterable[tuple[int, int]], fill: str = "§") -> str:
    """``text`` with each ``(start, end)`` span overwritten by ``fill`` (positions kept)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = fill * (end - start)
    return "".join(chars)
