"""Small deterministic helpers for reading requests: element symbols and names."""

from __future__ import annotations

import re

from ase.data import atomic_names, chemical_symbols

from simwright.errors import ParseError

_SYMBOL_TOKEN = re.compile(r"\b([A-Z][a-z]?)\b")
_NAMES = {
    name.lower(): sym for sym, name in zip(chemical_symbols, atomic_names, strict=True) if name
}
_NOT_ELEMENTS = {"I", "A"}  # English words that look like symbols ("I want", "A lattice...")


def find_elements(text: str) -> list[str]:
    """Element symbols named in ``text`` by symbol (``Cu``) or name (``copper``), in order.

    Capitalized one- or two-letter tokens that are not elements (``Xx``) raise
    :class:`ParseError`, because a misspelt element must never be silently ignored.
    """
    found: list[str] = []
    for token in _SYMBOL_TOKEN.findall(text):
        if token in _NOT_ELEMENTS:
            continue
        if token not in chemical_symbols[1:]:
            raise ParseError(f"unknown element {token!r} in the request")
        found.append(token)
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _NAMES:
            found.append(_NAMES[word])
    return list(dict.fromkeys(found))


def has_word(text: str, *words: str) -> bool:
    """True when any of ``words`` occurs in ``text`` as a whole word (case-insensitive)."""
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in words)
