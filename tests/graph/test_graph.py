"""The typed graph: edges from annotations, build-time and run-time checks, decisions."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from simwright.errors import GraphError
from simwright.graph import Done, FixedChoice, Graph, RunContext, Runner, Step, declared_successors
from simwright.graph.decision import Choice, DecisionRequest


@dataclass(frozen=True)
class Start(Step):
    """Begin."""

    n: int

    def run(self, ctx: RunContext) -> Middle | Done[int]:
        if self.n <= 0:
            ctx.rule("nothing_to_do", "n <= 0")
            return Done(0)
        return Middle(self.n * 2)


@dataclass(frozen=True)
class Middle(Step):
    """Double."""

    n: int

    def run(self, ctx: RunContext) -> Done[int]:
        return Done(self.n + 1)


def test_edges_come_from_annotations() -> None:
    graph = Graph.build("demo", [Start, Middle])
    assert graph.edges == {"Start": ("Middle", "Done"), "Middle": ("Done",)}
    assert declared_successors(Start) == (Middle, Done)
    assert "Start --> Middle" in graph.mermaid()
    assert "Middle --> [*]" in graph.mermaid()


def test_unregistered_successor_is_rejected_at_build_time() -> None:
    with pytest.raises(GraphError, match="declares successor Middle, which is not registered"):
        Graph.build("broken", [Start])


@dataclass(frozen=True)
class BadAnnotation(Step):
    """Names something that is not a step."""

    def run(self, ctx: RunContext) -> int:  # type: ignore[override]
        return 1


@dataclass(frozen=True)
class NoAnnotation(Step):
    """Has no return annotation."""

    def run(self, ctx: RunContext):  # type: ignore[no-untyped-def]
        return Done(1)


class NotFrozen(Step):
    """Not decorated as a frozen dataclass."""

    def run(self, ctx: RunContext) -> Done[int]:
        return Done(1)


def test_malformed_steps_are_rejected_naming_them() -> None:
    with pytest.raises(GraphError, match="BadAnnotation: successor <class 'int'>"):
        Graph.build("g", [BadAnnotation])
    with pytest.raises(GraphError, match="NoAnnotation: run\\(\\) has no return annotation"):
        Graph.build("g", [NoAnnotation])
    with pytest.raises(GraphError, match="NotFrozen must be a frozen dataclass"):
        Graph.build("g", [NotFrozen])


def test_unresolvable_forward_reference_is_named() -> None:
    @dataclass(frozen=True)
    class Ghostly(Step):
        """Refers to a class that does not exist."""

        def run(self, ctx: RunContext) -> Ghost:  # type: ignore[name-defined]  # noqa: F821
            raise AssertionError

    with pytest.raises(GraphError, match="Ghost"):
        Graph.build("g", [Ghostly])


def test_unreachable_steps_are_rejected() -> None:
    with pytest.raises(GraphError, match="not reachable from Middle: Start"):
        Graph.build("g", [Middle, Start])


@dataclass(frozen=True)
class Liar(Step):
    """Declares Done but returns another step."""

    def run(self, ctx: RunContext) -> Honest | Done[int]:
        return Sneaky()


@dataclass(frozen=True)
class Honest(Step):
    """A declared successor."""

    def run(self, ctx: RunContext) -> Done[int]:
        return Done(1)


@dataclass(frozen=True)
class Sneaky(Step):
    """Registered in the graph, but not a successor of Liar."""

    def run(self, ctx: RunContext) -> Done[int]:
        return Done(2)


@dataclass(frozen=True)
class Entry(Step):
    """Entry reaching every other step."""

    def run(self, ctx: RunContext) -> Liar | Sneaky:
        return Liar()


def test_undeclared_transition_is_rejected_at_run_time(store, settings) -> None:
    graph = Graph.build("liar", [Entry, Liar, Honest, Sneaky])
    runner = Runner(store, settings)
    with pytest.raises(GraphError, match="undeclared transition Liar -> Sneaky"):
        runner.start(graph, Entry(), protocol="liar")
    run = store.list_runs()[0]
    assert run.status == "failed"
    steps = store.steps(run.id)
    assert [s.status for s in steps] == ["completed", "failed"]
    assert "undeclared transition" in (steps[1].error or "")


def test_run_records_steps_rules_and_result(store, settings) -> None:
    graph = Graph.build("demo", [Start, Middle])
    runner = Runner(store, settings)
    out = runner.start(graph, Start(3), protocol="demo")
    assert out.status == "completed" and out.result == 7
    steps = store.steps(out.run_id)
    assert [(s.name, s.successor, s.decided_by) for s in steps] == [
        ("Start", "Middle", "code"),
        ("Middle", "Done", "only-successor"),
    ]
    assert all(s.inputs_hash and s.workdir.endswith(s.name) for s in steps)
    out0 = runner.start(graph, Start(0), protocol="demo")
    only = store.steps(out0.run_id)[0]
    assert (only.decided_by, only.reason) == ("rule:nothing_to_do", "n <= 0")


@dataclass(frozen=True)
class Review(Step):
    """A decision point with two options."""

    options: int

    def run(self, ctx: RunContext) -> Accept | Extend:
        offered = {"accept": Accept(), "extend": Extend()}
        if self.options == 1:
            offered = {"accept": Accept()}
        return ctx.decide("accept_or_extend", offered, {"r2": 0.95})  # type: ignore[return-value]


@dataclass(frozen=True)
class Accept(Step):
    """Accept."""

    def run(self, ctx: RunContext) -> Done[str]:
        return Done("accepted")


@dataclass(frozen=True)
class Extend(Step):
    """Extend."""

    def run(self, ctx: RunContext) -> Done[str]:
        return Done("extended")


REVIEW = Graph.build("review", [Review, Accept, Extend])


def test_decision_without_decider_takes_a_sole_option(store, settings) -> None:
    out = Runner(store, settings).start(REVIEW, Review(1), protocol="review")
    assert out.result == "accepted"
    (d,) = store.decisions(out.run_id)
    assert (d.chosen, d.decided_by) == ("accept", "fallback:sole-option")


def test_decision_without_decider_stops_for_review_and_resumes_with_a_choice(
    store, settings
) -> None:
    out = Runner(store, settings).start(REVIEW, Review(2), protocol="review")
    assert out.status == "needs_review"
    assert store.get_run(out.run_id).status == "needs_review"
    (d,) = store.decisions(out.run_id)
    assert d.chosen is None and '"accept", "extend"' in d.options_json
    resumed = Runner(store, settings, decider=FixedChoice("extend")).resume(REVIEW, out.run_id)
    assert resumed.status == "completed" and resumed.result == "extended"
    chosen = store.decisions(out.run_id)[-1]
    assert (chosen.chosen, chosen.decided_by) == ("extend", "human")


class _Model:
    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.requests: list[DecisionRequest] = []

    def decide(self, request: DecisionRequest) -> Choice:
        self.requests.append(request)
        return Choice(self.answer, "model:scripted", "because")


def test_decider_sees_typed_inputs_and_invalid_answers_stop_for_review(store, settings) -> None:
    model = _Model("accept")
    out = Runner(store, settings, decider=model).start(REVIEW, Review(2), protocol="review")
    assert out.result == "accepted"
    assert model.requests[0].inputs == {"r2": 0.95}
    assert model.requests[0].options == ("accept", "extend")
    bad = Runner(store, settings, decider=_Model("delete everything"))
    out2 = bad.start(REVIEW, Review(2), protocol="review")
    assert out2.status == "needs_review"
    assert store.decisions(out2.run_id)[0].rationale == "invalid choice 'delete everything'"


@dataclass(frozen=True)
class Offbeat(Step):
    """Offers an option that is not a declared successor."""

    def run(self, ctx: RunContext) -> Done[int]:
        return ctx.decide("x", {"other": Middle(1)})  # type: ignore[return-value]


def test_decision_options_must_be_declared_successors(store, settings) -> None:
    graph = Graph.build("offbeat", [Offbeat])
    with pytest.raises(GraphError, match="not a declared successor"):
        Runner(store, settings).start(graph, Offbeat(), protocol="offbeat")
