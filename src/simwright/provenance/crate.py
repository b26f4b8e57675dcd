"""A run's record as an RO-Crate: a folder (or zip) with ``ro-crate-metadata.json``.

Mapping (``docs/provenance.md``): the run is a ``CreateAction`` whose ``instrument`` is
the protocol, simwright and the engines, whose ``agent`` is the user, whose ``object``
is the request and parameters (``PropertyValue``) and whose ``result`` is every file
it recorded; each step attempt is a ``CreateAction`` too (``object``: the files its
inputs name, ``result``: the files it recorded, ``instrument``: the engines it
called); each engine call an ``Action`` of its step; each decision a
``ChooseAction`` (``actionOption``, ``result``: the option chosen, ``agent``: who
chose). A file that is intact is copied under its path relative to the run
directory with its ``sha256`` and ``contentSize`` (or, without copying, referenced by
its ``file://`` address with the same properties); a missing or changed one is not
copied: it is described by a contextual entity with the recorded sha256 and
``creativeWorkStatus`` ``missing`` or ``changed``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rocrate.model.contextentity import ContextEntity
from rocrate.rocrate import ROCrate

from simwright.provenance.parties import (
    Party,
    decision_maker,
    engine_parties,
    model_parties,
    simwright_party,
    user_party,
)
from simwright.provenance.record import ArtifactEntry, RunRecord, iso, plain_parameters
from simwright.store.reading import EngineCallFields


class _Crate:
    """Adds one run's records to a crate; keeps the entities it has made."""

    def __init__(self, record: RunRecord, copy_files: bool) -> None:
        self.record = record
        self.copy_files = copy_files
        self.crate = ROCrate(gen_preview=False)
        self.parties: dict[str, ContextEntity] = {}

    def entity(self, ident: str, props: dict[str, Any]) -> ContextEntity:
        """A contextual entity; None values left out."""
        clean = {k: v for k, v in props.items() if v is not None}
        return self.crate.add(ContextEntity(self.crate, ident, properties=clean))

    def party(self, p: Party) -> ContextEntity:
        """The Person or SoftwareApplication for ``p`` (made once)."""
        if p.key not in self.parties:
            kind = "Person" if p.kind == "user" else "SoftwareApplication"
            props = {"@type": kind, "name": p.name, "softwareVersion": p.version or None}
            if p.kind == "model":
                props["description"] = "language model named in the run's usage ledger"
            self.parties[p.key] = self.entity(f"#{p.key}", props)
        return self.parties[p.key]


def build_crate(record: RunRecord, copy_files: bool = True) -> ROCrate:
    """The crate of one run's record: intact files copied from the run directory, or
    (``copy_files=False``) referenced by their ``file://`` address with their sha256."""
    c = _Crate(record, copy_files)
    r = record.run
    root = c.crate.root_dataset
    root["name"] = f"simwright run {r.id}"
    root["description"] = f"{r.protocol}: {r.request}".strip()
    files = {id(e): _file(c, e) for e in record.artifacts}
    steps = _steps(c, record, files)
    run = c.crate.add_action(
        [_protocol(c), c.party(simwright_party(record))]
        + [c.party(p) for p in engine_parties(record).values()]
        + [c.party(p) for p in model_parties(record).values()],
        identifier=f"#run-{r.id}",
        object=_inputs(c),
        result=list(files.values()),
        properties={
            "@type": "CreateAction",
            "name": f"run {r.id} of {r.protocol}",
            "startTime": iso(r.created_at),
            "endTime": iso(r.updated_at),
            "actionStatus": _status(r.status),
            "description": f"simwright status: {r.status}",
        },
    )
    run["agent"] = c.party(user_party())
    run["hasPart"] = steps
    if r.error:
        run["error"] = r.error
    root["mentions"] = [run]
    return c.crate


def _status(status: str) -> str:
    """The schema.org ActionStatusType of a simwright status."""
    if status == "completed":
        return "http://schema.org/CompletedActionStatus"
    if status in {"failed", "interrupted", "killed"}:
        return "http://schema.org/FailedActionStatus"
    return "http://schema.org/ActiveActionStatus"


def _protocol(c: _Crate) -> ContextEntity:
    r = c.record.run
    return c.entity(
        f"#protocol-{r.protocol}",
        {"@type": "HowTo", "name": r.protocol, "description": f"simwright protocol {r.protocol}"},
    )


def _inputs(c: _Crate) -> list[ContextEntity]:
    r = c.record.run
    request = {"@type": "PropertyValue", "name": "request", "value": r.request}
    values = [c.entity("#request", request)]
    for name, value in plain_parameters(r.params_json).items():
        text = value if isinstance(value, str) else json.dumps(value)
        values.append(
            c.entity(f"#parameter-{name}", {"@type": "PropertyValue", "name": name, "value": text})
        )
    return values


def _file(c: _Crate, entry: ArtifactEntry) -> ContextEntity:
    a = entry.row
    props: dict[str, Any] = {
        "name": Path(a.path).name,
        "sha256": a.sha256,
        "contentSize": str(a.size),
        "additionalType": a.kind,
        "version": a.schema_version or None,
        "description": a.description or None,
        "creativeWorkStatus": entry.state,
    }
    if entry.state == "ok" and c.copy_files:
        clean = {k: v for k, v in props.items() if v is not None}
        return c.crate.add_file(c.record.run_dir / a.path, dest_path=a.path, properties=clean)
    if entry.state == "ok":  # a data entity by reference: listed in the root's hasPart
        props["@type"] = "File"
        ref = c.entity((c.record.run_dir / a.path).resolve().as_uri(), props)
        c.crate.root_dataset.append_to("hasPart", ref)
        return ref
    props["@type"] = "CreativeWork"
    props["description"] = f"recorded file {a.path} is {entry.state}: not included"
    return c.entity(f"#{entry.state}-file-{a.path}", props)


def _steps(c: _Crate, record: RunRecord, files: dict[int, ContextEntity]) -> list[ContextEntity]:
    engines = engine_parties(record)
    actions: list[ContextEntity] = []
    for s in record.steps:
        made = [files[id(e)] for e in record.artifacts if e.row.step_id == s.id]
        used = [files[id(e)] for e in record.artifacts if s.id in e.used_by]
        calls = [ec for ec in record.engine_calls if ec.step_id == s.id]
        step = c.entity(
            f"#step-{s.id}",
            {
                "@type": "CreateAction",
                "name": f"{s.seq:03d}-{s.name} attempt {s.attempt}",
                "startTime": iso(s.started_at),
                "endTime": iso(s.finished_at),
                "actionStatus": _status(s.status),
                "description": _step_text(s.status, s.successor, s.decided_by, s.inputs_hash),
                "error": s.error,
            },
        )
        step["instrument"] = [c.party(engines[(ec.engine, ec.version)]) for ec in calls]
        step["object"] = used
        step["result"] = made
        step["agent"] = c.party(simwright_party(record))
        parts = [_call(c, step, i, ec, engines) for i, ec in enumerate(calls, 1)]
        step["hasPart"] = parts + _choices(c, s.id)
        actions.append(step)
    return actions


def _step_text(status: str, successor: str | None, decided_by: str | None, digest: str) -> str:
    then = f"; next {successor} (decided by {decided_by or 'simwright'})" if successor else ""
    return f"status {status}{then}; inputs sha256 {digest}"


def _call(
    c: _Crate,
    step: ContextEntity,
    n: int,
    call: EngineCallFields,
    engines: dict[tuple[str, str], Party],
) -> ContextEntity:
    return c.entity(
        f"{step.id}-call-{n}",
        {
            "@type": "Action",
            "name": f"{call.engine} call",
            "instrument": {"@id": c.party(engines[(call.engine, call.version)]).id},
            "description": f"{call.command} (exit code {call.exit_code}, {call.wall_s:.3f} s)",
            "actionStatus": _status("completed" if call.exit_code == 0 else "failed"),
        },
    )


def _choices(c: _Crate, step_id: int) -> list[ContextEntity]:
    made = []
    for i, d in enumerate(x for x in c.record.decisions if x.step_id == step_id):
        options = json.loads(d.options_json) if d.options_json.startswith("[") else d.options_json
        made.append(
            c.entity(
                f"#step-{step_id}-decision-{i + 1}",
                {
                    "@type": "ChooseAction",
                    "name": d.point,
                    "actionOption": options,
                    "result": d.chosen,
                    "agent": {"@id": c.party(decision_maker(d.decided_by)).id},
                    "description": d.rationale or None,
                },
            )
        )
    return made


def write_crate(record: RunRecord, output: Path, copy_files: bool = True) -> Path:
    """Write the crate of ``record`` to ``output`` (a folder, or a zip when it ends in .zip)."""
    crate = build_crate(record, copy_files)
    if output.suffix == ".zip":
        return Path(crate.write_zip(output))
    crate.write(output)
    return output
