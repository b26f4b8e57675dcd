"""The agent layer behind other layers' seams (graph decider, campaign reviewer, DFT
fixes), documentation search with selector and annotator, procedure extraction from an
article, and ``simwright ask`` without a model."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
import typer
from typer.testing import CliRunner

from helpers.agents import agent_settings, block_network, context, prompt_text
from simwright.agents.execution.docs_search import DocsTool
from simwright.agents.hooks import ModelDecider, ModelFixProposer, ModelReviewer, proposer_tiers
from simwright.agents.orchestration.article import ExtractionTarget, extract_module
from simwright.agents.scripted import ScriptedModel, call
from simwright.cli.ask import ask
from simwright.graph.decision import DecisionRequest
from simwright.knowledge.docs.retrieval import DocPage, Hit, RetrievalIndex
from simwright.knowledge.modules import load_directory


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


def test_model_decider_answers_only_with_an_offered_option() -> None:
    model = ScriptedModel(
        [call("choose", option="restart"), call("choose", option="extend", rationale="R² is low")],
        "scripted:orch",
    )
    ctx = context(agent_settings({"orchestrator": "scripted:orch"}), {"scripted:orch": model})
    choice = ModelDecider(ctx).decide(
        DecisionRequest("r1", "low_r2", ("extend", "accept"), {"r2": 0.93})
    )
    assert (choice.option, choice.decided_by, choice.rationale) == (
        "extend",
        "model:scripted:orch",
        "R² is low",
    )
    assert "choose one of extend, accept" in str(model.seen[1][-1])


def test_model_decider_called_from_a_worker_thread_uses_the_running_loop() -> None:
    from simwright.agents.hooks import model_decider

    model = ScriptedModel([call("choose", option="accept")], "scripted:orch")
    ctx = context(agent_settings({"orchestrator": "scripted:orch"}), {"scripted:orch": model})
    decider = model_decider(ctx)
    request = DecisionRequest("r1", "p", ("extend", "accept"))

    async def in_a_run() -> str:
        choice = await anyio.to_thread.run_sync(decider.decide, request)
        return choice.option

    assert anyio.run(in_a_run) == "accept"


def test_model_decider_without_a_valid_answer_gives_no_decision() -> None:
    model = ScriptedModel([call("choose", option="nope")] * 3, "scripted:orch")
    ctx = context(agent_settings({"orchestrator": "scripted:orch"}), {"scripted:orch": model})
    choice = ModelDecider(ctx).decide(DecisionRequest("r1", "p", ("a", "b")))
    assert choice.option == ""


def test_model_reviewer_returns_a_typed_campaign_decision() -> None:
    from simwright.campaign.review import ReviewDecision, ReviewRequest

    model = ScriptedModel(
        [
            call("decide", event_id="e1", action="extend", confidence=0.9, mood="good"),
            call(
                "decide",
                event_id="e1",
                action="extend",
                confidence=0.9,
                parameter_changes={"segment_steps": 2000},
            ),
        ],
        "scripted:orch",
    )
    ctx = context(agent_settings({"orchestrator": "scripted:orch"}), {"scripted:orch": model})
    request = ReviewRequest(
        {"event_id": "e1", "kind": "drift"},
        {"mean": 1.0},
        ("extend", "accept"),
        {"segment_steps": (100, 5000)},
        0.7,
    )
    decision = ModelReviewer(ctx).review(request)
    assert isinstance(decision, ReviewDecision) and decision.parameter_changes == {
        "segment_steps": 2000
    }
    assert '"allowed_actions": ["extend", "accept"]' in prompt_text(model.seen[0])


@pytest.mark.skipif(shutil.which("pw.x") is None, reason="quantum-espresso-data is needed")
def test_fix_proposer_validates_changes_against_the_knowledge_graph() -> None:
    from simwright.dft.handlers import Diagnosis
    from simwright.dft.proposers import FixRequest
    from simwright.dft.recommender import recommend
    from simwright.dft.request import DftRequest
    from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary

    if not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file():
        pytest.skip("quantum-espresso-data is needed")
    raw = {
        "structure": {"kind": "bulk", "name": "Si"},
        "functional": "lda",
        "kspacing_inv_a": 0.5,
        "ecutwfc_ry": 16.0,
    }
    template = recommend(
        DftRequest.model_validate(raw), PseudoLibrary((SYSTEM_PSEUDO_DIR,))
    ).template
    model = ScriptedModel(
        [
            call("propose_fix", changes={"electrons": {"mixing_betta": 0.3}}),
            call("propose_fix", changes={"electrons": {"mixing_beta": 0.3}}, rationale="damp"),
        ],
        "scripted:exec",
    )
    cfg = agent_settings({"orchestrator": "scripted:orch", "executor": "scripted:exec"})
    ctx = context(cfg, {"scripted:exec": model})
    (tier,) = proposer_tiers(ctx)
    assert isinstance(tier.proposer, ModelFixProposer) and tier.attempts == 1
    request = FixRequest(
        "", "convergence NOT achieved", Diagnosis("scf_unconverged", "no SCF"), (), template, 1
    )
    fix = tier.proposer(request)
    assert (
        fix is not None
        and fix.changes == {"electrons": {"mixing_beta": 0.3}}
        and fix.rationale == "damp"
    )
    assert "did you mean 'mixing_beta'" in str(model.seen[1][-1])


class PagesIndex:
    def __init__(self, pages: list[DocPage]) -> None:
        self.index = RetrievalIndex.build(pages, None)

    def search(self, engine: str, query: str, k: int = 5) -> list[Hit]:
        return self.index.search(query, k, "bm25")


def test_search_docs_selects_and_annotates_and_drops_what_is_not_there() -> None:
    pages = [
        DocPage(
            f"compute_{n}",
            f"compute {n} command",
            f"compute {n} computes the {n} of atoms for heat flux",
        )
        for n in ("heat_flux", "stress_atom", "ke_atom", "pe_atom", "temp")
    ]
    selector = ScriptedModel(
        [call("select_pages", pages=["compute_stress_atom", "made_up", "compute_heat_flux"])],
        "scripted:sel",
    )
    annotator = ScriptedModel(
        [
            call(
                "annotate",
                marks=[
                    {
                        "page": "compute_stress_atom",
                        "quote": "computes the stress_atom",
                        "why": "virial",
                    },
                    {"page": "compute_heat_flux", "quote": "never written there"},
                ],
            )
        ],
        "scripted:ann",
    )
    cfg = agent_settings(
        {"orchestrator": "scripted:orch", "selector": "scripted:sel", "annotator": "scripted:ann"}
    )
    ctx = context(cfg, {"scripted:sel": selector, "scripted:ann": annotator})
    text = anyio.run(
        DocsTool(ctx, PagesIndex(pages)).search, "lammps", "heat flux atoms", "s1", "heat flux"
    )
    assert text.index("[compute_stress_atom]") < text.index("[compute_heat_flux]")
    assert "made_up" not in text and "[compute_temp]" not in text
    assert ">> computes the stress_atom  (virial)" in text and "never written there" not in text


ARTICLE = "We computed the surface energy of Cu(111) slabs with EMT, 7 layers, 15 Å vacuum."


def test_article_procedure_becomes_a_validated_knowledge_module(tmp_path: Path) -> None:
    procedure = {
        "id": "surface_energy_slab",
        "title": "Surface energy of a metal slab",
        "domain": "interatomic_potentials",
        "keywords": ["surface energy", "slab"],
        "parameters": {
            "layers": {"type": "int", "description": "number of layers", "default": 7, "ge": 3}
        },
        "references": [
            {
                "key": "art",
                "citation": "A. Author, J. Surf. 1, 1 (2024)",
                "used_for": "the procedure",
            }
        ],
        "summary": "Surface energy from slab and bulk energies.",
        "sections": {
            "Preparation": "Build a 7-layer slab with 15 Å vacuum.",
            "Analysis": "γ = (E_slab − N E_bulk)/2A.",
        },
    }
    model = ScriptedModel(
        [
            call("save_module", **dict(procedure, protocol="no_such_protocol")),
            call("save_module", **procedure),
        ],
        "scripted:orch",
    )
    ctx = context(agent_settings({"orchestrator": "scripted:orch"}), {"scripted:orch": model})
    target = ExtractionTarget(tmp_path / "knowledge", frozenset({"lattice_constant"}))
    module = anyio.run(extract_module, ctx, ARTICLE, "surface energy of Cu(111)", target)
    assert "protocol 'no_such_protocol' does not exist" in str(model.seen[1][-1])
    (loaded,) = load_directory(tmp_path / "knowledge")
    assert loaded.id == module.id == "surface_energy_slab" and loaded.protocol is None
    assert loaded.parameters["layers"].default == 7
    assert "7-layer slab" in loaded.section("Preparation").text


def test_ask_without_a_model_exits_non_zero_and_explains(tmp_path: Path) -> None:
    app = typer.Typer()
    app.callback()(lambda: None)
    app.command("ask")(ask)
    cleared: dict[str, str | None] = {
        f"SIMWRIGHT_MODEL{suffix}": None
        for suffix in (
            "",
            "_ORCHESTRATOR",
            "_EXECUTOR",
            "_ANNOTATOR",
            "_SELECTOR",
            "_SUMMARIZER",
            "_CRITICS",
        )
    }
    runner = CliRunner()
    result = runner.invoke(
        app, ["ask", "lattice constant of Cu", "--home", str(tmp_path)], env=cleared
    )
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "export SIMWRIGHT_MODEL=" in text and 'simwright run "<request>"' in text
    as_json = runner.invoke(app, ["ask", "x", "--json", "--home", str(tmp_path)], env=cleared)
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["error_type"] == "AgentConfigError"


def test_model_reviewer_drives_a_campaign_review_through_its_validation(tmp_path: Path) -> None:
    from helpers.campaign import SYNTHETIC, campaign_file, read, rows, runner, spec_of
    from simwright.campaign import SyntheticEngine

    def decide(messages: list[Any], info: Any) -> Any:
        event = json.loads(prompt_text(messages))["event"]
        changes = {"segment_steps": 500}
        return call(
            "decide",
            event_id=event["event_id"],
            action="continue",
            confidence=0.8,
            parameter_changes=changes,
            rationale="still relaxing",
        )

    model = ScriptedModel(
        [call("decide", event_id="e", action="continue", confidence="high"), decide],
        "scripted:orch",
    )
    ctx = context(agent_settings({"orchestrator": "scripted:orch"}), {"scripted:orch": model})
    spec = spec_of(
        SYNTHETIC,
        systems=[{"name": "a"}],
        conditions=[{"name": "p50", "pressure_bar": 50.0}],
        continuation={"segment_steps": 1000, "max_local_steps": 3000},
        review={"extension_steps": 1000},
        segment={"parameters": {"relaxation_steps": 1.0e6}},
    )
    r = runner(tmp_path, SyntheticEngine(), ModelReviewer(ctx))
    campaign = r.create(spec)
    assert r.run(campaign).status == "needs_review"  # the repeated event waits for a human
    steps = [s for (s,) in rows(tmp_path, "select steps from campaign_segments order by id")]
    assert steps == [1000, 1000, 1000, 500, 500]
    first = rows(tmp_path, "select directory from campaign_events order by id")[0][0]
    validation = read(campaign_file(tmp_path, first) / "decision_validation.json")
    assert validation["valid"] and validation["reviewer"] == "model:scripted:orch"
    assert model.left == 0
