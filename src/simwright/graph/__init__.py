"""Typed execution graphs: steps, edges from annotations, decision points, the runner."""

from simwright.graph.context import RunContext
from simwright.graph.decision import Choice, Decider, DecisionRequest, FixedChoice
from simwright.graph.graph import DONE, Graph, declared_successors
from simwright.graph.observer import NullObserver, RunObserver
from simwright.graph.runner import Runner, RunOutcome
from simwright.graph.step import Done, LegacyStep, Step

__all__ = [
    "DONE",
    "Choice",
    "Decider",
    "DecisionRequest",
    "Done",
    "FixedChoice",
    "Graph",
    "LegacyStep",
    "NullObserver",
    "RunContext",
    "RunObserver",
    "RunOutcome",
    "Runner",
    "Step",
    "declared_successors",
]
