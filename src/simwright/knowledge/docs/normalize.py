"""Text normalization for word search: accents folded, stop words dropped, a light stemmer,
and the abbreviations simulation codes name things by.

Queries are written in a scientist's words ("Nosé–Hoover barostat", "mean squared
displacements") and pages in a manual's ("fix nh", "compute msd"). Folding accents and
plural/verb endings, and adding the conventional abbreviation of a phrase
(:data:`ABBREVIATIONS`) to both sides, lets them meet without a language-specific
dependency.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[a-z0-9]+")
STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either few for from further had has have having he her here hers how i if in into is it
    its itself just me more most my no nor not now of off on once only or other our out over
    own same she should so some such than that the their them then there these they this
    those through to too under until up very was we were what when where which while who
    whom why will with would you your yours want wants need needs use used using like
    command commands style styles""".split()
)
"""English function words, plus words every manual page shares ("command", "style")."""

ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "lj": ("lennard jones",),
    "coul": ("coulomb", "coulombic", "electrostatic", "electrostatics"),
    "temp": ("temperature",),
    "press": ("pressure",),
    "thermo": ("thermodynamic", "thermodynamics"),
    "pe": ("potential energy",),
    "ke": ("kinetic energy",),
    "msd": ("mean squared displacement", "mean square displacement"),
    "rdf": ("radial distribution function", "pair distribution function"),
    "vacf": ("velocity autocorrelation",),
    "eam": ("embedded atom",),
    "pppm": ("particle particle particle mesh",),
    "cna": ("common neighbor analysis",),
    "centro": ("centrosymmetry", "centro symmetry"),
    "coord": ("coordination",),
    "neigh": ("neighbor",),
    "ave": ("average", "averaging", "averaged"),
    "min": ("minimization", "minimize", "minimizer"),
    "nh": ("nose hoover",),
    "gcmc": ("grand canonical monte carlo",),
    "mc": ("monte carlo",),
    "com": ("center mass",),
    "dpd": ("dissipative particle dynamics",),
    "sph": ("smoothed particle hydrodynamics",),
    "efield": ("electric field",),
    "ttm": ("two temperature model",),
    "neb": ("nudged elastic band",),
    "timestep": ("time step",),
}
"""Conventional abbreviations of molecular-simulation phrases (as in LAMMPS style names),
added as an extra word wherever the phrase occurs, in pages and queries alike."""

_SUFFIXES = (
    ("izations", "iz"),
    ("ization", "iz"),
    ("ations", "at"),
    ("ation", "at"),
    ("ments", "ment"),
    ("ities", "ity"),
    ("ness", ""),
    ("ings", ""),
    ("ing", ""),
    ("ies", "y"),
    ("ied", "y"),
    ("sses", "ss"),
    ("ers", ""),
    ("er", ""),
    ("ed", ""),
    ("es", ""),
    ("s", ""),
)
_NO_UNDOUBLE = frozenset("lsz")


def fold(text: str) -> str:
    """Lower case without accents (``Nosé–Hoover`` -> ``nose–hoover``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def stem_word(word: str) -> str:
    """A light suffix stemmer, so that ``thermostatting``, ``computes`` and ``computed``
    meet ``thermostat`` and ``compute``; stems need only be consistent, not words."""
    if len(word) <= 3 or word.isdigit() or word.endswith(("ss", "us", "is")):
        return word
    for suffix, repl in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + repl
            break
    if word.endswith("e") and len(word) >= 5:
        word = word[:-1]
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in _NO_UNDOUBLE | set("aeiou"):
        word = word[:-1]
    return word


def _plural(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words(text: str) -> list[str]:
    """Folded words of ``text`` without stop words (no stemming)."""
    return [w for w in _WORD.findall(fold(text)) if w not in STOP_WORDS]


_PHRASES = tuple(
    (abbr, tuple(_plural(w) for w in words(phrase)))
    for abbr, phrases in ABBREVIATIONS.items()
    for phrase in phrases
)


def abbreviations(plain: list[str]) -> list[str]:
    """The abbreviation of every known phrase found in the word sequence ``plain``."""
    base = [_plural(w) for w in plain]
    found = []
    for abbr, phrase in _PHRASES:
        n = len(phrase)
        found += [abbr for i in range(len(base) - n + 1) if tuple(base[i : i + n]) == phrase]
    return found


def tokenize(text: str, *, stem: bool = True) -> list[str]:
    """Words of ``text`` for BM25: folded, split on non-alphanumerics, stop words dropped;
    with ``stem``, stemmed and followed by the abbreviations of known phrases."""
    plain = words(text)
    if not stem:
        return plain
    return [stem_word(w) for w in plain] + abbreviations(plain)
