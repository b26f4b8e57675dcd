"""Deterministic pieces of the agent layer: configuration, providers, tiers, verdicts,
ledger and caps, token counting, the fabrication guard, usage views, episodic memory."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from helpers.agents import block_network, tiers
from simwright.agents.errors import AgentConfigError, BudgetExceeded
from simwright.agents.execution.examples import Episode, KnowledgeMemory, similarity
from simwright.agents.replies import LiteratureValue, ReportedValue
from simwright.agents.review.critics import verdict_of
from simwright.agents.review.fabrication import (
    check_report,
    numbers_in_text,
)
from simwright.agents.review.quantities import named_quantities, quantity_value
from simwright.agents.setup.config import ModelRef, load_agent_settings
from simwright.agents.setup.providers import build_model
from simwright.agents.setup.tiers import tier_for_attempt
from simwright.agents.usage.caps import Caps, Price
from simwright.agents.usage.ledger import UsageEntry, UsageLedger
from simwright.agents.usage.tokens import ApproxCounter, default_counter
from simwright.agents.usage.view import usage_json, usage_lines
from simwright.contract import Column, Table, write_structure, write_table
from simwright.knowledge.memory.episodic import MemoryStore
from simwright.settings import Settings
from simwright.store import Store
from simwright.structure import Structure


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


# -- configuration ----------------------------------------------------------------------
def test_no_model_configured_explains_how(tmp_path: Path) -> None:
    with pytest.raises(AgentConfigError) as info:
        load_agent_settings({}, tmp_path)
    text = str(info.value)
    assert "SIMWRIGHT_MODEL" in text and "OPENAI_API_KEY" in text and "ollama" in text
    assert 'simwright run "<request>"' in text


def test_environment_gives_tiers_roles_critics_caps_and_keys(tmp_path: Path) -> None:
    env = {
        "SIMWRIGHT_MODEL": "ollama:qwen2.5:7b, openai:gpt-4o",
        "SIMWRIGHT_MODEL_EXECUTOR": "anthropic:claude-sonnet-4-5",
        "SIMWRIGHT_MODEL_CRITICS": "openai:gpt-4o-mini;gemini:gemini-2.5-flash,openai:gpt-4o",
        "SIMWRIGHT_MODEL_ATTEMPTS": "3",
        "SIMWRIGHT_AGENT_MAX_REQUESTS": "40",
        "OPENAI_API_KEY": "sk-test",
    }
    cfg = load_agent_settings(env, tmp_path)
    orch = cfg.role("orchestrator")
    assert [t.name for t in orch.tiers] == ["ollama:qwen2.5:7b", "openai:gpt-4o"]
    assert orch.tiers[0].model == "qwen2.5:7b" and orch.tiers[0].attempts == 3
    assert cfg.role("executor").tiers[0].provider == "anthropic"
    assert cfg.role("summarizer") == orch  # a role without its own models uses the orchestrator's
    assert [len(c.tiers) for c in cfg.critics] == [1, 2]
    assert cfg.caps.max_requests == 40 and cfg.key("openai") == "sk-test"
    assert "sk-test" not in repr(cfg)


def test_config_file_and_environment_precedence(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[agents]\nmodel = "vllm:Qwen/Qwen2.5-7B-Instruct"\nbase_url = "http://gpu:8000/v1"\n'
        'critic_turns = 3\ncritics = [["openai:gpt-4o"]]\n'
        '[agents.roles]\nselector = ["openai:gpt-4o-mini"]\n'
        '[agents.caps]\nmax_cost_usd = 2.5\n[agents.prices."openai:gpt-4o"]\n'
        "input_per_mtok = 2.5\noutput_per_mtok = 10.0\n"
    )
    cfg = load_agent_settings({"SIMWRIGHT_AGENT_MAX_COST_USD": "1.0"}, tmp_path)
    assert cfg.role("orchestrator").tiers[0].base_url == "http://gpu:8000/v1"
    assert cfg.role("selector").tiers[0].name == "openai:gpt-4o-mini"
    assert cfg.critic_turns == 3 and cfg.caps.max_cost_usd == 1.0
    assert cfg.prices["openai:gpt-4o"].output_per_mtok == 10.0


def test_invalid_configuration_is_refused_with_its_field(tmp_path: Path) -> None:
    with pytest.raises(AgentConfigError, match="max_requests"):
        load_agent_settings({"SIMWRIGHT_MODEL": "openai:x", "SIMWRIGHT_AGENT_MAX_REQUESTS": "0"})
    with pytest.raises(AgentConfigError, match="name"):
        load_agent_settings({"SIMWRIGHT_MODEL": "gpt-4o"})


def test_providers_build_models_without_network() -> None:
    cfg = load_agent_settings(
        {"SIMWRIGHT_MODEL": "openai-compatible:qwen", "SIMWRIGHT_MODEL_BASE_URL": "http://h:1/v1"}
    )
    model = build_model(cfg.role("orchestrator").tiers[0], cfg)
    assert (model.model_name, model.system) == ("qwen", "openai")
    assert build_model(ModelRef(name="ollama:llama3"), cfg).model_name == "llama3"
    with pytest.raises(AgentConfigError, match="ANTHROPIC_API_KEY"):
        build_model(ModelRef(name="anthropic:claude-sonnet-4-5"), cfg)
    with pytest.raises(AgentConfigError, match="unknown model provider"):
        build_model(ModelRef(name="acme:brain"), cfg)
    keyed = load_agent_settings(
        {"SIMWRIGHT_MODEL": "gemini:gemini-2.5-flash", "GEMINI_API_KEY": "g"}
    )
    gemini = build_model(keyed.role("orchestrator").tiers[0], keyed)
    assert gemini.model_name == "gemini-2.5-flash"


# -- tiers and verdicts ---------------------------------------------------------------------
def test_each_tier_gets_its_attempts_then_the_next() -> None:
    config = tiers("x:a", "x:b", attempts=2)
    names = [tier_for_attempt(config, n)[1].model for n in range(1, 7)]
    assert names == ["a", "a", "b", "b", "b", "b"]


@pytest.mark.parametrize(
    ("votes", "verdict"),
    [
        ([], "pass"),
        (["pass", "pass"], "pass"),
        (["pass", "concern"], "pass"),
        (["concern", "concern", "pass"], "revise"),
        (["pass", "reject", "pass"], "revise"),
        (["pass", "malicious", "reject"], "fail"),
    ],
)
def test_verdict_rule(votes: list[str], verdict: str) -> None:
    assert verdict_of(votes, 0.5) == verdict  # type: ignore[arg-type]


# -- ledger and caps ----------------------------------------------------------------------
def entry(role: str = "executor", tokens: int = 100) -> UsageEntry:
    return UsageEntry(role, "s1", "m", tokens, 10, tokens, 0.01)


def test_ledger_checks_every_cap_before_a_call() -> None:
    ledger = UsageLedger(Caps(max_requests=2, max_tokens=None, max_cost_usd=None))
    ledger.record(entry())
    ledger.check("m", 10)
    ledger.record(entry())
    with pytest.raises(BudgetExceeded, match="request cap"):
        ledger.check("m", 10)
    tokens = UsageLedger(Caps(max_requests=None, max_tokens=300))
    tokens.record(entry(tokens=200))
    with pytest.raises(BudgetExceeded, match="token cap"):
        tokens.check("m", 100)
    priced = UsageLedger(
        Caps(max_requests=None, max_tokens=None, max_cost_usd=0.02),
        {"m": Price(input_per_mtok=100, output_per_mtok=0)},
    )
    priced.record(entry())
    with pytest.raises(BudgetExceeded, match="cost cap"):
        priced.check("m", 200)
    assert set(priced.by(lambda e: e.role)) == {"executor"}


def test_token_counter_is_offline_wordpiece() -> None:
    counter = default_counter()
    assert "wordpiece" in counter.name
    assert counter.count("compute heat/flux with stress/atom") >= 6
    assert ApproxCounter().count("abcdefgh") == 2


# -- fabrication guard ----------------------------------------------------------------------
def test_numbers_in_text_skip_identifiers_paths_and_read_scientific_notation() -> None:
    found = numbers_in_text(
        "H2O at 298 K: D = 2.4×10^-9 m²/s (file steps/003-X/msd.h5, run 20260101-120000-abc123), "
        "range 3.5-4.0, B0=142.3"
    )
    assert [w.value for w in found] == pytest.approx([298, 2.4e-9, 3.5, 4.0, 142.3])


def test_guard_traces_values_to_named_quantities_of_tables_structures_and_json(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    write_table(
        run / "t.h5",
        Table("t", (Column("x", np.array([1.5, 2.25]), "Å"),), "test", attrs={"kappa": 0.123456}),
    )
    (run / "r.json").write_text(json.dumps({"a": {"b": [7.75]}, "flag": True}))
    cell = np.eye(3) * 3.0
    write_structure(
        run / "s.extxyz", Structure(("Cu",), np.zeros((1, 3)), cell, (True,) * 3), producer="t"
    )
    assert named_quantities(run / "r.json") == {"a.b.0": 7.75}
    assert named_quantities(run / "s.extxyz")["volume"] == pytest.approx(27.0)
    assert quantity_value(run / "t.h5", "x[1]") == 2.25
    good = [
        ReportedValue(name="kappa", value=0.12346, source="run/t.h5", quantity="kappa"),
        ReportedValue(name="V", value=27.0, source="run/s.extxyz", quantity="volume"),
        ReportedValue(name="x", value=2.25, source="run/t.h5", quantity="max(x)"),
    ]
    summary = "kappa is 0.1235, V = 27.0 Å³, x up to 2.25 at 300 K"
    assert check_report(summary, good, root=tmp_path, allowed=[run], known=[300.0]) == []
    bad = check_report(
        "kappa is 0.19, and 1.5 occurs in a file",
        [
            ReportedValue(name="y", value=7.75, source="../etc/r.json", quantity="a.b.0"),
            ReportedValue(name="z", value=3.0, source="run/r.json", quantity="a.b.0"),
            ReportedValue(name="w", value=0.13, source="run/t.h5", quantity="kappa"),
            ReportedValue(name="u", value=1.5, source="run/t.h5", quantity="nope"),
        ],
        root=tmp_path,
        allowed=[run],
    )
    assert "not an artifact" in bad[0] and "kappa is 0.123456" in bad[2]
    assert "no quantity 'nope'" in bad[3]
    assert any("'0.19'" in p for p in bad) and any("'1.5'" in p for p in bad)
    (run / "transcript.json").write_text(json.dumps({"said": 42.0}))  # what a model wrote
    said = [ReportedValue(name="w", value=42.0, source="run/transcript.json", quantity="said")]
    assert len(check_report("it is 42", said, root=tmp_path, allowed=[run])) == 2


def test_guard_precision_written_and_reference_markers(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_table(
        run / "r.h5",
        Table("r", (Column("d", np.array([2.4873]), "1e-5 cm^2/s"),), "results"),
    )
    d = [ReportedValue(name="D", value=2.4873, unit="1e-5 cm^2/s", source="run/r.h5", quantity="d")]
    ok = check_report("D = 2.49 ×10⁻⁵ cm²/s, i.e. 2.487", d, root=tmp_path, allowed=[run])
    assert ok == []
    assert check_report("D = 2.4", d, root=tmp_path, allowed=[run])  # not within 0.05
    two = [d[0].model_copy(update={"value": 2.49})]
    assert check_report("D = 2.49", two, root=tmp_path, allowed=[run]) == []
    ref = LiteratureValue(key="mills1973", value=2.30, unit="1e-5 cm^2/s", citation="Mills 1973")
    quoted = "D = 2.49 (experiment 2.30 ×10⁻⁵ cm²/s [ref:mills1973])"
    assert check_report(quoted, d, root=tmp_path, allowed=[run], references=[ref]) == []
    unmarked = check_report("experiment: 2.30", d, root=tmp_path, allowed=[run], references=[ref])
    assert len(unmarked) == 1 and "[ref:KEY]" in unmarked[0]
    wrong = check_report("2.40 [ref:mills1973]", d, root=tmp_path, allowed=[run], references=[ref])
    assert "holds 2.3" in wrong[0]
    assert "names no entry" in check_report("2.30 [ref:x]", d, root=tmp_path, allowed=[run])[0]
    as_result = [
        ReportedValue(name="D", value=2.30, unit="1e-5 cm^2/s", source="run/r.h5", quantity="d")
    ]
    assert check_report("D = 2.30", as_result, root=tmp_path, allowed=[run], references=[ref])


# -- usage view and memory ----------------------------------------------------------------
def test_usage_view_groups_by_role_subtask_and_model(settings: Settings, store: Store) -> None:
    from simwright.agents.usage.records import AgentRecorder

    rec = AgentRecorder.start(store, settings, "req", {})
    rec.usage(entry("orchestrator"))
    rec.usage(UsageEntry("executor", "s1", "m2", 50, 5, 60, 0.002, ok=False))
    data = usage_json(store, rec.run_id)
    assert data["total"]["requests"] == 2 and data["total"]["failed_requests"] == 1
    assert set(data["by_role"]) == {"orchestrator", "executor"} and set(data["by_model"]) == {
        "m",
        "m2",
    }
    lines = usage_lines(store, rec.run_id)
    assert lines[1].split()[:3] == ["total", "2", "req"]
    assert usage_lines(store, "nonexistent") == []


def test_memory_recalls_the_most_similar_success_of_the_same_executor(tmp_path: Path) -> None:
    memory = KnowledgeMemory(MemoryStore(tmp_path / "memory.db"))
    scripts = {"in.lammps": "run 1"}
    memory.remember(
        Episode("lammps", "heat flux of liquid argon with Green-Kubo", "success", scripts)
    )
    memory.remember(Episode("lammps", "heat flux of liquid argon, Green-Kubo, failed", "failure"))
    memory.remember(Episode("lammps", "melting of copper", "success"))
    found = memory.recall("lammps", "Green-Kubo heat flux of argon", 0.3)
    assert found is not None and found.episode.scripts == scripts
    assert memory.recall("ase", "Green-Kubo heat flux of argon", 0.3) is None
    assert memory.recall("lammps", "vacancy formation energy", 0.3) is None
    assert similarity("a b", "c d") == 0.0
