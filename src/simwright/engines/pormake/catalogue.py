"""The topologies and building blocks of the installed PORMAKE database, by name.

Read from the package's ``database`` folder (``topologies/*.cgd``, ``bbs/*.xyz``)
without importing PORMAKE. Building blocks have PORMAKE's ids (``N16``, ``E14``);
:data:`ALIASES` gives the common names of a few well-known ones, checked by their
composition in :func:`composition` (tests keep them so). An unknown name is refused
with the closest names.
"""

from __future__ import annotations

import difflib
import importlib.util
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from simwright.errors import ValidationError


@dataclass(frozen=True)
class BlockAlias:
    """A common name of a PORMAKE building block and what it is."""

    name: str
    block: str
    description: str


ALIASES: tuple[BlockAlias, ...] = (
    BlockAlias("Zn4O", "N16", "Zn4O(CO2)6 octahedral cluster (MOF-5 node), 6-c"),
    BlockAlias("Cu paddlewheel", "N409", "Cu2(CO2)4 paddlewheel (HKUST-1 node), 4-c"),
    BlockAlias("Zr6", "N419", "Zr6O8(CO2)12 cluster without μ3-OH hydrogens (UiO-66 node), 12-c"),
    BlockAlias("BTC", "N10", "benzene-1,3,5-triyl, the core of trimesate (HKUST-1), 3-c"),
    BlockAlias("BDC", "E14", "1,4-phenylene, the core of terephthalate (MOF-5, UiO-66), 2-c"),
)
"""Common names; the carboxylate carbons of BDC and BTC belong to the metal node."""

_ALIAS_WORDS: dict[str, str] = {
    "zn4o": "N16",
    "zn4o(co2)6": "N16",
    "cu paddlewheel": "N409",
    "cu2 paddlewheel": "N409",
    "paddlewheel": "N409",
    "cu2(co2)4": "N409",
    "zr6": "N419",
    "zr6o4(oh)4": "N419",
    "zr6o8": "N419",
    "btc": "N10",
    "trimesate": "N10",
    "bdc": "E14",
    "terephthalate": "E14",
}


def database_dir() -> Path | None:
    """PORMAKE's ``database`` folder, or None when PORMAKE is not installed."""
    spec = importlib.util.find_spec("pormake")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "database"


def require_database() -> Path:
    """The database folder; a clear error naming the extra when PORMAKE is missing."""
    found = database_dir()
    if found is None or not found.is_dir():
        raise ValidationError(
            "building a MOF needs PORMAKE, which is not installed: pip install 'simwright[mofs]'"
        )
    return found


@cache
def topology_names(database: Path) -> frozenset[str]:
    """Names of the topologies (RCSR three-letter symbols and variants)."""
    return frozenset(p.stem for p in (database / "topologies").glob("*.cgd"))


@cache
def block_names(database: Path) -> frozenset[str]:
    """Ids of the building blocks (``N…`` nodes, ``E…`` edges)."""
    return frozenset(p.stem for p in (database / "bbs").glob("*.xyz"))


def _suggest(name: str, known: frozenset[str], extra: tuple[str, ...] = ()) -> str:
    close = difflib.get_close_matches(name, sorted(known | set(extra)), n=5, cutoff=0.5)
    return f"; closest: {', '.join(close)}" if close else ""


def resolve_topology(name: str, database: Path) -> str:
    """The topology called ``name`` (case as PORMAKE spells it); refused by name."""
    known = topology_names(database)
    for candidate in (name, name.lower()):
        if candidate in known:
            return candidate
    raise ValidationError(
        f"unknown topology {name!r}: PORMAKE has {len(known)} RCSR nets "
        f"(e.g. pcu, dia, tbo, fcu, sod){_suggest(name.lower(), known)}"
    )


def resolve_block(name: str, database: Path) -> str:
    """The PORMAKE id of building block ``name`` (an id such as ``N16`` or a common
    name of :data:`ALIASES`); an unknown name is refused with the closest ones."""
    known = block_names(database)
    key = " ".join(name.strip().split())
    if key.upper() in known:
        return key.upper()
    alias = _ALIAS_WORDS.get(key.lower())
    if alias is not None:
        return alias
    names = tuple(a.name for a in ALIASES)
    raise ValidationError(
        f"unknown building block {name!r}: give a PORMAKE id (N1…N{len(known)}, E1…) or "
        f"one of {', '.join(names)}{_suggest(key, frozenset(), names)}"
    )


def block_file(block: str, database: Path) -> Path:
    """The ``.xyz`` file of a building block id."""
    return database / "bbs" / f"{block}.xyz"


def composition(block: str, database: Path) -> dict[str, int]:
    """Element counts of a building block; ``X`` counts its connection points."""
    lines = block_file(block, database).read_text(encoding="utf-8").splitlines()
    count = int(lines[0].split()[0])
    return dict(Counter(line.split()[0] for line in lines[2 : 2 + count]))


def connection_points(block: str, database: Path) -> int:
    """How many connection points (``X`` atoms) a building block has."""
    return composition(block, database).get("X", 0)


def describe_block(block: str, database: Path) -> str:
    """``N16 (Zn4O: Zn4O(CO2)6 ..., C6 O13 Zn4, 6-c)`` for reports."""
    counts = composition(block, database)
    formula = " ".join(f"{el}{n}" for el, n in sorted(counts.items()) if el != "X")
    common = next((a for a in ALIASES if a.block == block), None)
    name = f"{common.name}, " if common is not None else ""
    return f"{block} ({name}{formula}, {counts.get('X', 0)}-c)"
