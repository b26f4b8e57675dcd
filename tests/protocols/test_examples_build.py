"""Every example request of every protocol plans and builds every input of its run
(structure, force field or calculator, pseudopotentials, engines) without running."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.knowledge.planner.resolver import resolve
from simwright.protocols import load_protocols
from simwright.settings import Settings

PROTOCOLS = load_protocols()
EXAMPLES = [(name, ex) for name, p in PROTOCOLS.items() for ex in p.examples]


@pytest.mark.parametrize(("protocol", "example"), EXAMPLES)
def test_example_plans_and_builds(protocol: str, example: str, tmp_path: Path) -> None:
    r = resolve(example, PROTOCOLS, settings=Settings(home=tmp_path))
    assert r.protocol.name == protocol
    # a structure, a liquid system or a molecule; an engine, a calculator or a level of theory
    assert any(line.startswith(("structure:", "system:", "molecule:")) for line in r.inputs)
    assert any(line.startswith(("engine:", "level:")) or "calculator" in line for line in r.inputs)
    assert not list(tmp_path.rglob("*.db")), "planning created a store"
