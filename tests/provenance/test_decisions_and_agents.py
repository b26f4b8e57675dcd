"""Decisions and agents in an export: a run stopped for review and answered with
``--choose`` (the user), and a model named in the usage ledger."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prov.model import ProvActivity, ProvAgent, ProvAssociation, ProvDocument
from rocrate.rocrate import ROCrate

from simwright.graph import Done, FixedChoice, Graph, RunContext, Runner, Step
from simwright.provenance.export import export_run
from simwright.provenance.formats import ExportFormat
from simwright.settings import Settings
from simwright.store import Store
from simwright.store.models_agents import AgentUsageRow


@dataclass(frozen=True)
class Judge(Step):
    """A decision point with two options."""

    def run(self, ctx: RunContext) -> Keep | Redo:
        offered = {"keep": Keep(), "redo": Redo()}
        return ctx.decide("keep_or_redo", offered, {"r2": 0.9})  # type: ignore[return-value]


@dataclass(frozen=True)
class Keep(Step):
    """Keep."""

    def run(self, ctx: RunContext) -> Done[str]:
        return Done("kept")


@dataclass(frozen=True)
class Redo(Step):
    """Redo."""

    def run(self, ctx: RunContext) -> Done[str]:
        return Done("redone")


JUDGE = Graph.build("judge", [Judge, Keep, Redo])


def _attr(record: Any, name: str) -> Any:
    values = [v for k, v in record.attributes if k.localpart == name]
    return values[0] if values else None


def _answered_run(store: Store, settings: Settings) -> str:
    out = Runner(store, settings).start(JUDGE, Judge(), protocol="judge")
    assert out.status == "needs_review"
    done = Runner(store, settings, decider=FixedChoice("redo")).resume(JUDGE, out.run_id)
    assert done.status == "completed"
    with store.transaction() as s:
        s.add(
            AgentUsageRow(
                run_id=out.run_id,
                role="critic",
                model="test:scripted",
                input_tokens=120,
                output_tokens=30,
            )
        )
    return out.run_id


def test_decisions_and_their_makers_in_prov(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    run_id = _answered_run(store, settings)
    summary = export_run(store, run_id, ExportFormat.PROV_JSON, tmp_path / "p.json")
    assert summary.ok
    doc = ProvDocument.deserialize(source=str(tmp_path / "p.json"), format="json")
    decisions = [a for a in doc.get_records(ProvActivity) if _attr(a, "point")]
    stored = store.decisions(run_id)
    assert len(decisions) == len(stored) == 2
    assert [_attr(d, "decided_by") for d in decisions] == [d.decided_by for d in stored]
    assert _attr(decisions[-1], "chosen") == "redo"
    agents = {str(a.identifier.localpart): a for a in doc.get_records(ProvAgent)}
    assert _attr(agents["model-1"], "kind") == "model"
    assert str(agents["model-1"].label) == "test:scripted"
    made_by = {}
    for assoc in doc.get_records(ProvAssociation):
        (activity,) = assoc.get_attribute("prov:activity")
        (agent,) = assoc.get_attribute("prov:agent")
        if activity.localpart.startswith("decision"):
            made_by[activity.localpart] = agent.localpart
    assert made_by == {"decision-1": "simwright", "decision-2": "user"}


def test_decisions_as_choose_actions_in_the_crate(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    run_id = _answered_run(store, settings)
    export_run(store, run_id, ExportFormat.RO_CRATE, tmp_path / "crate")
    crate = ROCrate(tmp_path / "crate")
    chosen = [
        (e["name"], e.get("result"), e["agent"].id) for e in crate.get_by_type("ChooseAction")
    ]
    assert chosen == [("keep_or_redo", None, "#simwright"), ("keep_or_redo", "redo", "#user")]
    run = crate.dereference(f"#run-{run_id}")
    assert run is not None
    assert any(i.get("name") == "test:scripted" for i in run["instrument"])
    steps = [e for e in crate.get_entities() if e.type == "CreateAction" and e.id != run.id]
    assert [s["name"] for s in steps] == [
        f"{s.seq:03d}-{s.name} attempt {s.attempt}" for s in store.steps(run_id)
    ]
