"""A deterministic protocol as one tool: a whole typed graph run by the :class:`Runner`.

A ``protocol`` subtask names a registered protocol and its parameters (validated by the
protocol, then by the preflight of :mod:`simwright.protocols.preflight` before any run
exists: names through registries, engines, limits) or only words, which
:func:`~simwright.knowledge.planner.resolver.resolve` turns into a protocol and
parameters without any model (the path of ``simwright plan``). The graph runs as its
own run (linked to the agent run as the subtask's ``child_run_id``); no script is
written and no model is asked unless the graph reaches a decision point and a decider
is given. The protocol's quantities are
written, by the framework, to a results table (``subtasks/<id>/results.h5``: one row, a
column per quantity with its unit, ``<name>_uncertainty`` beside it, the originating
artifact in each column's description); the report's values cite that table and the
quantity by name, so a final answer traces each result to a named column. The structure
summaries are those the runner recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import anyio
import numpy as np
from pydantic import BaseModel

from simwright.agents.replies import OutputValue, SubtaskSpec
from simwright.agents.review.reports import SubtaskReport
from simwright.contract import Column, Table, write_table
from simwright.errors import SimwrightError, ValidationError
from simwright.graph import Decider, Runner, RunObserver, RunOutcome
from simwright.kg.auto import completion_hooks
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols.preflight import preflight
from simwright.protocols.registry import Protocol
from simwright.results import ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.store import Store

DeciderFactory = Callable[[], Decider | None]


class ProtocolTool:
    """Runs protocol subtasks with the store, settings and (optionally) a decider."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        protocols: Mapping[str, Protocol],
        *,
        decider: DeciderFactory | None = None,
        observer: RunObserver | None = None,
        modules: Sequence[object] | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.protocols = protocols
        self.decider = decider
        self.observer = observer
        self.modules = modules

    def resolve(self, spec: SubtaskSpec) -> tuple[Protocol, BaseModel]:
        """The protocol and validated parameters of ``spec`` (raises a SimwrightError).

        Words go through the same resolver as ``simwright plan`` and ``run``, preflight
        and build stage included; explicit parameters are validated, preflighted and
        their inputs built too.
        """

        if spec.protocol is not None and spec.parameters:
            if spec.protocol not in self.protocols:
                raise ValidationError(
                    f"unknown protocol {spec.protocol!r}; known: {', '.join(self.protocols)}"
                )
            proto = self.protocols[spec.protocol]
            params = proto.validate(spec.parameters)
            preflight(proto, params, self.settings).require()
            proto.build_inputs(params, self.settings)
            return proto, params
        resolved = resolve(
            spec.instruction,
            self.protocols,
            self.modules,  # type: ignore[arg-type]
            settings=self.settings,
        )
        if spec.protocol is not None and resolved.protocol.name != spec.protocol:
            raise ValidationError(
                f"the instruction reads as protocol {resolved.protocol.name!r}, not "
                f"{spec.protocol!r}; give the parameters explicitly"
            )
        return resolved.protocol, resolved.params

    async def run(self, spec: SubtaskSpec, folder: Path) -> SubtaskReport:
        """Run the protocol of ``spec`` to its end; the subtask's report (its results
        table is written in ``folder``)."""
        try:
            proto, params = self.resolve(spec)
            checked = preflight(proto, params, self.settings).require()
        except SimwrightError as exc:
            return _failed(spec, f"cannot run the protocol: {exc}")
        runner = Runner(
            self.store,
            checked.run_settings(self.settings),
            decider=self.decider() if self.decider else None,
            observer=self.observer,
            hooks=completion_hooks(self.settings),
        )

        def start() -> RunOutcome:
            return runner.start(
                proto.graph,
                proto.first_step(params),
                protocol=proto.name,
                params=params,
                request=spec.instruction,
            )

        outcome = await anyio.to_thread.run_sync(start)
        return self.report(spec, outcome, folder)

    def report(self, spec: SubtaskSpec, outcome: RunOutcome, folder: Path) -> SubtaskReport:
        """The report of a finished protocol run (writes its results table in ``folder``)."""
        run_id = outcome.run_id
        artifacts = tuple(f"{run_id}/{a.path}" for a in self.store.artifacts(run_id))
        structures = tuple(
            {"file": f"{run_id}/steps/{s.seq:03d}-{s.name}/{entry.get('name', '')}", **entry}
            for s in self.store.steps(run_id)
            if s.structure_json
            for entry in json.loads(s.structure_json)
        )
        if outcome.status != "completed" or not isinstance(outcome.result, ProtocolResult):
            error = outcome.error or f"the protocol run ended as {outcome.status}"
            return _failed(spec, error, run_id, artifacts, structures)
        result = outcome.result
        table = write_results_table(folder / RESULTS_TABLE, run_id, result)
        source = str(table.resolve().relative_to(self.settings.runs_path.resolve()))
        outputs: dict[str, OutputValue] = {}
        for name, q in result.values.items():
            outputs[name] = OutputValue(value=q.value, unit=q.unit, source=source, quantity=name)
            if q.uncertainty is not None:
                key = f"{name}_uncertainty"
                outputs[key] = OutputValue(
                    value=q.uncertainty, unit=q.unit, source=source, quantity=key
                )
        return SubtaskReport(
            subtask_id=spec.id,
            executor="protocol",
            status="completed",
            outputs=outputs,
            missing=tuple(n for n in spec.required_outputs if n not in outputs),
            structures=structures,
            artifacts=artifacts,
            summary=result.summary,
            child_run_id=run_id,
            folders=(run_id, str(Path(source).parent)),
        )


RESULTS_TABLE = "results.h5"


def _unit(q: Quantity) -> str:
    return q.unit.strip() or "1"


def write_results_table(path: Path, run_id: str, result: ProtocolResult) -> Path:
    """The protocol's quantities as a one-row contract table (``<name>``, and
    ``<name>_uncertainty`` when known); return its path."""
    columns: list[Column] = []
    for name, q in result.values.items():
        origin = f"from {run_id}/{q.source}" if q.source else f"computed by run {run_id}"
        columns.append(Column(name, np.array([q.value], float), _unit(q), origin))
        if q.uncertainty is not None:
            columns.append(
                Column(f"{name}_uncertainty", np.array([q.uncertainty], float), _unit(q), origin)
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    table = Table(
        "results",
        tuple(columns),
        f"results of protocol run {run_id}",
        producer=run_id,
        attrs={"run_id": run_id},
    )
    write_table(path, table)
    return path


def _failed(
    spec: SubtaskSpec,
    error: str,
    run_id: str | None = None,
    artifacts: tuple[str, ...] = (),
    structures: tuple[dict[str, object], ...] = (),
) -> SubtaskReport:
    return SubtaskReport(
        subtask_id=spec.id,
        executor="protocol",
        status="failed",
        missing=tuple(spec.required_outputs),
        structures=structures,
        artifacts=artifacts,
        error=error,
        child_run_id=run_id,
        folders=(run_id,) if run_id else (),
    )
