"""Run shared actions of :mod:`simwright.steps` inside real runs: tiny test-only graphs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from typing_extensions import override

from simwright.graph import Done, Graph, RunContext, Runner, RunOutcome, Step
from simwright.settings import Settings
from simwright.steps.energies import Energies, EnergyEngine
from simwright.store import Store
from simwright.structure import Structure


@dataclass(frozen=True)
class Evaluate(Step):
    """Evaluate ``structures`` with ``engine`` and end with the energies."""

    engine: EnergyEngine
    structures: tuple[Structure, ...]

    @override
    def run(self, ctx: RunContext) -> Done[Energies]:
        return Done(self.engine.evaluate(ctx, self.structures))


EVALUATE = Graph.build("evaluate_energies", [Evaluate])


def run_graph(graph: Graph, first: Step, store: Store, settings: Settings) -> RunOutcome:
    """Run ``graph`` from ``first`` with a real runner; fail loudly unless it completes."""
    out = Runner(store, settings).start(graph, first, protocol=graph.name)
    assert out.status == "completed", out.error
    return out


def evaluate(
    engine: EnergyEngine, structures: list[Structure], store: Store, settings: Settings
) -> tuple[Energies, Any]:
    """The energies of ``structures`` and the run's engine calls."""
    out = run_graph(EVALUATE, Evaluate(engine, tuple(structures)), store, settings)
    return out.result, store.engine_calls(out.run_id)
