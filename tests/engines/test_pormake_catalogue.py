"""PORMAKE's database read as files: names, common names checked by composition, and
refusals that name the closest names."""

from __future__ import annotations

import pytest

from simwright.engines.pormake.catalogue import (
    ALIASES,
    composition,
    database_dir,
    resolve_block,
    resolve_topology,
    topology_names,
)
from simwright.errors import ValidationError

pytestmark = pytest.mark.skipif(database_dir() is None, reason="needs pormake")

EXPECTED = {
    "Zn4O": {"Zn": 4, "O": 13, "C": 6, "X": 6},
    "Cu paddlewheel": {"Cu": 2, "O": 8, "C": 4, "X": 4},
    "Zr6": {"Zr": 6, "O": 32, "C": 12, "X": 12},
    "BTC": {"C": 6, "H": 3, "X": 3},
    "BDC": {"C": 6, "H": 4, "X": 2},
}


def test_common_names_are_the_blocks_they_say() -> None:
    db = database_dir()
    assert db is not None
    assert len(topology_names(db)) > 2000
    for alias in ALIASES:
        assert composition(alias.block, db) == EXPECTED[alias.name], alias
        assert resolve_block(alias.name.lower(), db) == alias.block
    assert resolve_block("n16", db) == "N16"
    assert resolve_topology("PCU", db) == "pcu"


def test_unknown_names_are_refused_with_the_closest() -> None:
    db = database_dir()
    assert db is not None
    with pytest.raises(ValidationError, match=r"unknown topology 'pcx'.*closest: .*pcu"):
        resolve_topology("pcx", db)
    with pytest.raises(ValidationError, match=r"unknown building block 'Zn4X'.*closest: Zn4O"):
        resolve_block("Zn4X", db)
