"""A run's record as a W3C PROV document (serialised as PROV-JSON).

Mapping (``docs/provenance.md``):

- the run, each step attempt, each engine call and each decision is a
  ``prov:Activity``; a step attempt ``wasStartedBy`` the run, an engine call and a
  decision ``wasStartedBy`` their step, and an attempt ``wasInformedBy`` the attempt
  before it;
- each recorded file is a ``prov:Entity`` (path relative to the run directory, kind,
  sha256, size, schema version, its state on disk now) that ``wasGeneratedBy`` its
  step and is ``used`` by the steps whose inputs name it;
- the protocol is a ``prov:Plan``; simwright (``prov:SoftwareAgent``) is associated
  with the run under that plan and acts on behalf of the user (``prov:Person``); each
  engine (name and version) is a software agent associated with its calls; each
  language model of the usage ledger is a software agent associated with the run, in
  its role; a decision is associated with whoever made it (simwright for rules, the
  user for ``--choose``, the agent layer's decider).
"""

from __future__ import annotations

import json
from typing import Any

from prov.constants import PROV
from prov.model import ProvActivity, ProvAgent, ProvDocument

from simwright.provenance.parties import (
    Party,
    decision_maker,
    engine_parties,
    model_parties,
    simwright_party,
    user_party,
)
from simwright.provenance.record import ArtifactEntry, RunRecord, iso, plain_parameters

TERMS = "urn:simwright:terms#"
"""The namespace of simwright's attribute names (prefix ``simwright``)."""


def run_namespace(run_id: str) -> str:
    """The namespace of one run's identifiers (prefix ``run``)."""
    return f"urn:simwright:run:{run_id}:"


class _Builder:
    """Adds one run's records to a document; keeps the agents it has made."""

    def __init__(self, record: RunRecord) -> None:
        self.record = record
        self.doc = ProvDocument()
        self.doc.add_namespace("simwright", TERMS)
        self.doc.add_namespace("run", run_namespace(record.run.id))
        self.agents: dict[str, ProvAgent] = {}

    def attrs(self, **values: Any) -> dict[Any, Any]:
        """``simwright:``-prefixed attributes; None values left out."""
        return {f"simwright:{k}": v for k, v in values.items() if v is not None}

    def agent(self, party: Party) -> ProvAgent:
        """The agent for ``party`` (made once)."""
        if party.key not in self.agents:
            kind = PROV["Person"] if party.kind == "user" else PROV["SoftwareAgent"]
            attributes: dict[Any, Any] = {"prov:type": kind, "prov:label": party.name}
            attributes.update(self.attrs(kind=party.kind, version=party.version or None))
            self.agents[party.key] = self.doc.agent(f"run:{party.key}", attributes)
        return self.agents[party.key]


def prov_document(record: RunRecord) -> ProvDocument:
    """The PROV document of one run's record."""
    b = _Builder(record)
    run = _run(b)
    steps = _steps(b, run)
    _artifacts(b, steps)
    _engine_calls(b, steps)
    _decisions(b, steps)
    _models(b, run)
    return b.doc


def _run(b: _Builder) -> ProvActivity:
    r = b.record.run
    finished = r.status not in {"running", "created"}
    run = b.doc.activity(
        f"run:run-{r.id}",
        iso(r.created_at),
        iso(r.updated_at) if finished else None,
        {
            "prov:label": f"run {r.id} of {r.protocol}",
            **b.attrs(
                protocol=r.protocol,
                request=r.request,
                parameters=json.dumps(plain_parameters(r.params_json), sort_keys=True),
                status=r.status,
                simwright_version=r.simwright_version,
                result=r.result_json,
                error=r.error,
                run_dir=r.workdir,
            ),
        },
    )
    plan = b.doc.entity(
        f"run:protocol-{r.protocol}",
        {"prov:type": PROV["Plan"], "prov:label": f"protocol {r.protocol}"},
    )
    me, user = b.agent(simwright_party(b.record)), b.agent(user_party())
    b.doc.wasAssociatedWith(run, me, plan)
    b.doc.wasAssociatedWith(run, user, other_attributes={"prov:role": "requester"})
    b.doc.actedOnBehalfOf(me, user, run)
    return run


def _steps(b: _Builder, run: ProvActivity) -> dict[int, ProvActivity]:
    made: dict[int, ProvActivity] = {}
    previous: ProvActivity | None = None
    me = b.agent(simwright_party(b.record))
    for s in b.record.steps:
        act = b.doc.activity(
            f"run:step-{s.id}",
            iso(s.started_at),
            iso(s.finished_at),
            {
                "prov:label": f"{s.seq:03d}-{s.name} attempt {s.attempt}",
                **b.attrs(
                    step=s.name,
                    seq=s.seq,
                    attempt=s.attempt,
                    status=s.status,
                    inputs_hash=s.inputs_hash,
                    wall_s=s.wall_s,
                    successor=s.successor,
                    decided_by=s.decided_by,
                    reason=s.reason,
                    error=s.error,
                ),
            },
        )
        b.doc.wasStartedBy(act, starter=run)
        b.doc.wasAssociatedWith(act, me)
        if previous is not None:
            b.doc.wasInformedBy(act, previous)
        made[s.id] = previous = act
    return made


def _artifacts(b: _Builder, steps: dict[int, ProvActivity]) -> None:
    for i, entry in enumerate(b.record.artifacts, 1):
        ent = b.doc.entity(f"run:artifact-{i}", _artifact_attrs(b, entry))
        producer = steps.get(entry.row.step_id)
        if producer is not None:
            b.doc.wasGeneratedBy(ent, producer)
        for user_id in entry.used_by:
            if user_id in steps:
                b.doc.used(steps[user_id], ent)


def _artifact_attrs(b: _Builder, entry: ArtifactEntry) -> dict[Any, Any]:
    a = entry.row
    return {
        "prov:label": a.path,
        **b.attrs(
            path=a.path,
            kind=a.kind,
            sha256=a.sha256,
            size=a.size,
            schema_version=a.schema_version,
            description=a.description or None,
            integrity=entry.state,
        ),
    }


def _engine_calls(b: _Builder, steps: dict[int, ProvActivity]) -> None:
    engines = engine_parties(b.record)
    for i, call in enumerate(b.record.engine_calls, 1):
        act = b.doc.activity(
            f"run:engine-call-{i}",
            other_attributes={
                "prov:label": f"{call.engine} call {i}",
                **b.attrs(
                    engine=call.engine,
                    command=call.command,
                    version=call.version,
                    exit_code=call.exit_code,
                    wall_s=call.wall_s,
                    **_job(call.extra_json),
                ),
            },
        )
        b.doc.wasAssociatedWith(act, b.agent(engines[(call.engine, call.version)]))
        if call.step_id in steps:
            b.doc.wasStartedBy(act, starter=steps[call.step_id])


def _job(extra_json: str) -> dict[str, str]:
    """Where a call ran when a scheduler ran it: executor, job id, scheduler states."""
    extra = json.loads(extra_json or "{}")
    keys = ("executor", "job_id", "job_states")
    return {k: str(extra[k]) for k in keys if extra.get("job_id") and k in extra}


def _decisions(b: _Builder, steps: dict[int, ProvActivity]) -> None:
    for i, d in enumerate(b.record.decisions, 1):
        act = b.doc.activity(
            f"run:decision-{i}",
            other_attributes={
                "prov:label": f"decision {d.point}",
                **b.attrs(
                    point=d.point,
                    options=d.options_json,
                    chosen=d.chosen,
                    decided_by=d.decided_by,
                    rationale=d.rationale,
                    inputs=d.inputs_json,
                ),
            },
        )
        b.doc.wasAssociatedWith(act, b.agent(decision_maker(d.decided_by)))
        if d.step_id in steps:
            b.doc.wasStartedBy(act, starter=steps[d.step_id])


def _models(b: _Builder, run: ProvActivity) -> None:
    models = model_parties(b.record)
    for model, party in models.items():
        rows = [u for u in b.record.usage if u.model == model]
        roles = sorted({u.role for u in rows})
        b.doc.wasAssociatedWith(
            run,
            b.agent(party),
            other_attributes={
                "prov:role": ",".join(roles),
                **b.attrs(
                    requests=sum(u.requests for u in rows),
                    input_tokens=sum(u.input_tokens for u in rows),
                    output_tokens=sum(u.output_tokens for u in rows),
                    cost_usd=sum(u.cost_usd for u in rows),
                ),
            },
        )


def prov_json(record: RunRecord) -> str:
    """The PROV-JSON text of one run's record."""
    return str(prov_document(record).serialize(format="json", indent=2))
