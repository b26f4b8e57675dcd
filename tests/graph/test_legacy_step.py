"""A step stored in an older shape is upgraded when its run resumes, then runs as today's."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from typing_extensions import override

from simwright.graph import Done, Graph, LegacyStep, RunContext, Runner, Step, codec
from simwright.graph.step import upgraded
from simwright.settings import Settings
from simwright.store import Store
from simwright.store.records import EventRecord


@dataclass(frozen=True)
class Square(Step):
    """Today's step: end with value²."""

    value: float

    @override
    def run(self, ctx: RunContext) -> Done[float]:
        return Done(self.value**2)


@dataclass(frozen=True)
class OldSquare(LegacyStep):
    """The same step as once stored: the value in tenths."""

    tenths: int

    def upgrade(self) -> Square:
        return Square(self.tenths / 10)


@dataclass(frozen=True)
class OlderSquare(LegacyStep):
    """Two releases back: the value as text."""

    text: str

    def upgrade(self) -> OldSquare:
        return OldSquare(int(float(self.text) * 10))


def test_a_run_stored_with_a_legacy_first_step_resumes_as_the_current_step(
    store: Store, settings: Settings
) -> None:
    graph = Graph.build("square", [Square])
    run_dir = settings.runs_path / "r1"
    run_dir.mkdir(parents=True)
    store.create_run(
        "r1", "square", request="", params_json="null", workdir=str(run_dir), version="0"
    )
    step_json = codec.dumps(OlderSquare("1.5"))
    store.add_event("r1", EventRecord("entry", "first step", json.dumps({"step": step_json})))
    out = Runner(store, settings).resume(graph, "r1")
    assert out.status == "completed" and out.result == pytest.approx(2.25)
    assert [s.name for s in store.steps("r1")] == ["Square"]


def test_upgraded_refuses_what_is_not_a_step() -> None:
    assert upgraded(Square(2.0)) == Square(2.0)
    with pytest.raises(TypeError, match="not a Step"):
        upgraded({"value": 2.0})
