"""The held-out requests of benchmarks/requests_fresh.yaml: none is silently
substituted (planned while dropping or replacing a stated choice), every refusal
names the phrase the label asks for, and every request labelled *honour* is."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml

from helpers.paths import REPO
from simwright.errors import SimwrightError
from simwright.knowledge.modules import load_modules
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols import load_protocols

FRESH = REPO / "benchmarks" / "requests_fresh.yaml"
CASES = yaml.safe_load(FRESH.read_text())["cases"]
PROTOCOLS = load_protocols()
MODULES = load_modules()


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, float) and isinstance(got, int | float):
        return math.isclose(expected, float(got), rel_tol=1e-6)
    return bool(expected == got)


@pytest.mark.parametrize("case", CASES, ids=[c["request"][:60] for c in CASES])
def test_fresh_request_is_honoured_or_refused_by_name(case: dict[str, Any]) -> None:
    try:
        r = resolve(case["request"], PROTOCOLS, MODULES)
    except SimwrightError as exc:
        assert case["expect"] != "honour", f"over-refused: {exc}"
        assert case["names"].lower() in str(exc).lower()
        return
    assert case["expect"] != "refuse", f"planned {r.protocol.name} instead of refusing"
    assert r.protocol.name == case["protocol"]
    if r.plan is not None:  # planned through a knowledge module
        given = r.plan.given()
    else:  # read by the protocol's own parser: the values it took, as typed parameters
        given = {name: getattr(r.params, name) for name in r.given}
    for name, value in case["given"].items():
        assert name in given and _same(value, given[name]), (name, given.get(name))
