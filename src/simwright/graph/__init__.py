"""Typed execution graphs: steps, edges from annotations, decision points, the runner.

The names below load on first use (PEP 562), so that a module needing one light part
of the package (``graph.lock``, ``graph.renames``) does not import the runner, the
store and the file contract with it: read-only commands start faster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.lazy import lazy_exports

if TYPE_CHECKING:
    from simwright.graph.context import RunContext
    from simwright.graph.decision import Choice, Decider, DecisionRequest, FixedChoice
    from simwright.graph.graph import DONE, Graph, declared_successors
    from simwright.graph.observer import NullObserver, RunObserver
    from simwright.graph.runner import Runner, RunOutcome
    from simwright.graph.step import Done, LegacyStep, Step

_WHERE = {
    "RunContext": "context",
    "Choice": "decision",
    "Decider": "decision",
    "DecisionRequest": "decision",
    "FixedChoice": "decision",
    "DONE": "graph",
    "Graph": "graph",
    "declared_successors": "graph",
    "NullObserver": "observer",
    "RunObserver": "observer",
    "Runner": "runner",
    "RunOutcome": "runner",
    "Done": "step",
    "LegacyStep": "step",
    "Step": "step",
}

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


__getattr__ = lazy_exports(__name__, _WHERE)
