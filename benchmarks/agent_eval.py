"""Agent evaluation: a task set run N times, scored by deterministic rubric checks.

Each task (``benchmarks/agent_tasks/*.yaml``) is either a whole request for the
orchestrator (``mode: orchestrator``) or one subtask for an executor
(``mode: executor``). A run passes when every rubric check passes: run status,
reported values within a range, regular expressions the final script must match or
must not match. Over n runs with c passes the script reports

    pass@k = 1 - C(n-c, k) / C(n, k)   (at least one of k runs passes)
    pass^k = C(c, k) / C(n, k)         (all k runs pass)

and, per task, the mean model requests and prompt tokens (measured offline with the
WordPiece tokenizer, approximate for other vendors' tokenizers).

    python benchmarks/agent_eval.py --runs 5 --k 1 3        # with SIMWRIGHT_MODEL set
    python benchmarks/agent_eval.py --scripted              # scripted models, no network
    python benchmarks/agent_eval.py --scripted --path both  # also over real HTTP

``--path wire`` replays the same scripts through the scripted model server of
``tests/helpers/llm_server.py`` on 127.0.0.1: the orchestrator speaks the OpenAI
chat-completions wire format, the executor the Anthropic messages format, the critic an
OpenAI-compatible server, all through the production provider clients. Each task
reports requests, the provider-reported input/output tokens (the test server's stand-in
counts, about four characters a token), the measured prompt tokens and the wall time.

Without a configured model (and without ``--scripted``) it exits with code 2 and
says how to configure one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any

import anyio
import yaml
from pydantic_ai.messages import ModelResponse
from pydantic_ai.models.function import AgentInfo

from simwright.agents.assemble import build_orchestrator, default_adapters
from simwright.agents.errors import AgentConfigError
from simwright.agents.execution.docs_search import DocsTool, NoDocs
from simwright.agents.execution.examples import NoMemory
from simwright.agents.execution.executor import Executor
from simwright.agents.replies import SubtaskSpec
from simwright.agents.review.critics import Committee
from simwright.agents.scripted import ScriptedModel, ScriptedModels, call, last_tool_return
from simwright.agents.setup.bundle import AgentContext, ModelFactory
from simwright.agents.setup.config import AgentSettings, ModelRef, RoleConfig, load_agent_settings
from simwright.agents.usage.records import AgentRecorder
from simwright.settings import Settings
from simwright.store import Store

TASKS = Path(__file__).parent / "agent_tasks"
SCRIPT_SUFFIXES = (".lammps", ".in", ".yaml", ".yml", ".inp")


@dataclass
class RunResult:
    """One run of one task: its status, values, final script, usage."""

    status: str
    values: dict[str, float]
    script: str
    requests: int
    prompt_tokens: int
    error: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    wall_s: float = 0.0
    failures: list[str] = field(default_factory=list)


# -- rubric -----------------------------------------------------------------------------
def score(task: Mapping[str, Any], result: RunResult) -> list[str]:
    """The rubric checks ``result`` fails (empty: the run passes)."""
    failed = []
    for item in task["rubric"]:
        check = item["check"]
        if check == "status" and result.status != item["equals"]:
            failed.append(f"status {result.status} ({result.error[:200]})")
        elif check in ("answer_value", "output_range"):
            value = result.values.get(item["name"])
            if value is None or not item["min"] <= value <= item["max"]:
                failed.append(f"{item['name']} = {value} not in [{item['min']}, {item['max']}]")
        elif check == "max_requests" and result.requests > item["value"]:
            failed.append(f"{result.requests} requests > {item['value']}")
        elif check == "script_matches" and not re.search(item["pattern"], result.script, re.M):
            failed.append(f"script lacks /{item['pattern']}/")
        elif check == "script_lacks" and re.search(item["pattern"], result.script, re.M):
            failed.append(f"script has /{item['pattern']}/")
    return failed


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k runs drawn from n passes."""
    return 1.0 if n - c < k else 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that all k runs drawn from n pass."""
    return comb(c, k) / comb(n, k) if k <= n else 0.0


# -- running a task ------------------------------------------------------------------------
def _final_script(folder: Path) -> str:
    scripts = [
        p
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in SCRIPT_SUFFIXES and p.name != "transcript.json"
    ]
    return max(scripts, key=lambda p: p.stat().st_mtime_ns).read_text() if scripts else ""


def run_orchestrator(
    task: Mapping[str, Any], cfg: AgentSettings, factory: ModelFactory, home: Path
) -> RunResult:
    settings = Settings(home=home, threads=1)
    store = Store.at(home / "simwright.db")
    outcome = build_orchestrator(cfg, settings, store, factory=factory).run(task["request"])
    values = {v.name: v.value for v in outcome.answer.values} if outcome.answer else {}
    usage = outcome.usage
    script = _final_script(outcome.run_dir)
    store.close()
    return RunResult(
        outcome.status,
        values,
        script,
        usage.requests,
        usage.prompt_tokens,
        outcome.error or "",
        usage.input_tokens,
        usage.output_tokens,
    )


def run_executor(
    task: Mapping[str, Any], cfg: AgentSettings, factory: ModelFactory, home: Path
) -> RunResult:
    settings = Settings(home=home, threads=1)
    store = Store.at(home / "simwright.db")
    rec = AgentRecorder.start(store, settings, task["instruction"], {"task": task["id"]})
    ctx = AgentContext.create(cfg, factory, sink=rec.usage, notes=rec.note)
    adapter = default_adapters(cfg, settings)[task["executor"]]
    executor = Executor(
        ctx,
        adapter,
        committee=Committee(ctx),
        docs=DocsTool(ctx, NoDocs()),
        memory=NoMemory(),
        root=settings.runs_path,
        recorder=rec,
    )
    spec = SubtaskSpec(
        id=task["id"],
        instruction=task["instruction"],
        executor=task["executor"],
        required_outputs=task.get("required_outputs", []),
    )
    folder = rec.run_dir / "subtasks" / spec.id
    report, _ = anyio.run(executor.execute, spec, [], folder)
    totals = ctx.ledger.totals()
    values = {k: v.value for k, v in report.outputs.items()}
    store.close()
    return RunResult(
        report.status,
        values,
        _final_script(folder),
        totals.requests,
        totals.prompt_tokens,
        report.error,
        totals.input_tokens,
        totals.output_tokens,
    )


# -- scripted replies (the deterministic replay) -------------------------------------------
# A reply reads the conversation in process (pydantic-ai messages) or on the wire (the
# test server's request), so the same script serves both paths.
Conversation = Any


def _tool_text(conv: Conversation, tool: str) -> str:
    if isinstance(conv, list):
        return last_tool_return(conv, tool)
    return str(conv.last_tool_result(tool))


def _all_text(conv: Conversation) -> str:
    if isinstance(conv, list):
        return "\n".join(str(getattr(p, "content", "")) for m in conv for p in m.parts)
    return str(conv.text())


def _result_json(messages: Conversation) -> dict[str, Any]:
    text = _tool_text(messages, "run")
    return json.loads(text.split("result.json: ", 1)[1].split("; final")[0])


def _finish_a0(messages: Conversation, info: AgentInfo | None = None) -> ModelResponse:
    prompt = _all_text(messages)
    match = re.search(
        r"output lattice_constant = ([-0-9.eE+]+) \S* \(source (\S+); quantity ([^)]+)\)", prompt
    )
    assert match, prompt
    a0 = float(match.group(1))
    value = {
        "name": "a0",
        "value": a0,
        "unit": "Å",
        "source": match.group(2),
        "quantity": match.group(3),
    }
    answer = {"summary": f"EMT gives a0 = {a0:.4f} Å for fcc Cu.", "values": [value]}
    return call("finish", answer=answer)


def _temperature(messages: Conversation, info: AgentInfo | None = None) -> ModelResponse:
    match = re.search(r"last row: (\{.*?\})", _tool_text(messages, "run"))
    assert match is not None
    row = json.loads(match.group(1))
    out = {"final_temperature": {"value": row["temperature"], "unit": "K", "source": "thermo.h5"}}
    return call("complete_task", outputs=out)


def _v0(messages: Conversation, info: AgentInfo | None = None) -> ModelResponse:
    out = {"v0": {"value": _result_json(messages)["v0_a3"], "unit": "Å^3", "source": "result.json"}}
    return call("complete_task", outputs=out)


LJ = (
    "units metal\natom_style atomic\nlattice fcc 5.26\nregion box block 0 3 0 3 0 3\n"
    "create_box 1 box\ncreate_atoms 1 box\nmass 1 39.948\npair_style lj/cut 8.5\n"
    "pair_coeff 1 1 0.0104 3.405\nvelocity all create 80.0 4928459 loop geom\nfix 1 all nve\n"
    "compute ke all ke/atom\ncompute pe all pe/atom\ncompute s all stress/atom NULL {what}\n"
    "compute flux all heat/flux ke pe s\n"
    "thermo_style custom step temp pe c_flux[1] c_flux[2] c_flux[3]\nthermo 20\nrun 100\n"
)


def _vote(messages: Conversation, info: AgentInfo | None = None) -> ModelResponse:
    prompt = _all_text(messages)
    last = prompt.rsplit("[call write_script]", 1)[-1]
    if "stress/atom NULL ke" in last:
        return call("vote", vote="reject", reasons=["heat/flux lacks the virial stress"])
    return call("vote", vote="pass")


def scripted(task_id: str) -> dict[str, ScriptedModel]:
    """The scripted models of one task's deterministic replay."""
    if task_id == "lattice_constant_protocol":
        plan = {
            "id": "a0",
            "instruction": "lattice constant of fcc Cu with EMT",
            "executor": "protocol",
            "protocol": "lattice_constant",
            "parameters": {"element": "Cu", "lattice": "fcc"},
        }
        return {
            "scripted:orch": ScriptedModel(
                [call("outline_plan", subtasks=[plan]), _finish_a0], "scripted:orch"
            )
        }
    if task_id == "lj_heat_flux":
        ex = [
            call("write_script", name="in.lammps", content=LJ.format(what="ke")),
            call("run", name="in.lammps"),
            call("write_script", name="in.lammps", content=LJ.format(what="virial")),
            call("run", name="in.lammps"),
            _temperature,
        ]
        feedback = call(
            "give_feedback", feedback="Use compute stress/atom NULL virial for heat/flux."
        )
        return {
            "scripted:exec": ScriptedModel(ex, "scripted:exec"),
            "scripted:critic": ScriptedModel([_vote, _vote], "scripted:critic"),
            "scripted:orch": ScriptedModel([feedback], "scripted:orch"),
        }
    if task_id == "cu_eos_ase":
        spec = (
            "task: eos_scan\nstructure: {kind: bulk, element: Cu, lattice: fcc, a_a: 3.6}\n"
            "calculator: emt\nn_points: 7\n"
        )
        ex = [
            call("write_script", name="eos.yaml", content=spec),
            call("run", name="eos.yaml"),
            _v0,
        ]
        return {
            "scripted:exec": ScriptedModel(ex, "scripted:exec"),
            "scripted:critic": ScriptedModel([call("vote", vote="pass")], "scripted:critic"),
        }
    raise KeyError(task_id)


def scripted_settings() -> AgentSettings:
    one = lambda name: RoleConfig(tiers=(ModelRef(name=name, attempts=1),))  # noqa: E731
    return AgentSettings(
        roles={"orchestrator": one("scripted:orch"), "executor": one("scripted:exec")},
        critics=(one("scripted:critic"),),
    )


WIRE_NAMES = {
    "scripted:orch": "openai:orch",
    "scripted:exec": "anthropic:exec",
    "scripted:critic": "openai-compatible:critic",
}
"""Each scripted role on the wire: OpenAI, Anthropic, an OpenAI-compatible server."""


def wire_settings(openai_url: str, anthropic_url: str) -> AgentSettings:
    """The scripted roles as real providers at the test server."""

    def one(name: str) -> RoleConfig:
        url = anthropic_url if name.startswith("anthropic:") else openai_url
        return RoleConfig(tiers=(ModelRef(name=name, base_url=url, attempts=1),))

    return AgentSettings(
        roles={
            "orchestrator": one(WIRE_NAMES["scripted:orch"]),
            "executor": one(WIRE_NAMES["scripted:exec"]),
        },
        critics=(one(WIRE_NAMES["scripted:critic"]),),
        api_keys={"openai": "sk-test", "anthropic": "sk-ant-test"},
    )


def evaluate_wire(tasks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The scripted replay of each task through the test server over real HTTP."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    # lazy: the test server is a test helper, on the path only for this path
    from helpers.llm_server import serving

    rows = []
    for task in tasks:
        scripts = {
            WIRE_NAMES[k].split(":", 1)[1]: m.script for k, m in scripted(task["id"]).items()
        }
        with serving(scripts) as server:
            cfg = wire_settings(server.openai_url, server.anthropic_url)

            def make(task_id: str, cfg: AgentSettings = cfg) -> tuple[AgentSettings, ModelFactory]:
                # lazy: the providers' clients load only for a configured path
                from simwright.agents.setup.providers import build_model

                return cfg, lambda ref: build_model(ref, cfg)

            (row,) = evaluate([task], 1, [1], make)
            row["http_requests"] = len(server.log)
        rows.append(row)
    return rows


# -- main ------------------------------------------------------------------------------------
def load_tasks(folder: Path, only: Sequence[str]) -> list[dict[str, Any]]:
    tasks = [yaml.safe_load(p.read_text()) for p in sorted(folder.glob("*.yaml"))]
    return [t for t in tasks if not only or t["id"] in only]


def evaluate(
    tasks: Sequence[Mapping[str, Any]],
    runs: int,
    ks: Sequence[int],
    make: Callable[[str], tuple[AgentSettings, ModelFactory]],
) -> list[dict[str, Any]]:
    rows = []
    for task in tasks:
        results = []
        for _ in range(runs):
            cfg, factory = make(task["id"])
            with tempfile.TemporaryDirectory(prefix="simwright-agent-eval-") as tmp:
                runner = run_orchestrator if task["mode"] == "orchestrator" else run_executor
                start = time.perf_counter()
                result = runner(task, cfg, factory, Path(tmp) / "home")
                result.wall_s = time.perf_counter() - start
            result.failures = score(task, result)
            results.append(result)
        c = sum(not r.failures for r in results)
        rows.append(
            {
                "task": task["id"],
                "runs": runs,
                "passed": c,
                **{f"pass@{k}": round(pass_at_k(runs, c, k), 3) for k in ks},
                **{f"pass^{k}": round(pass_hat_k(runs, c, k), 3) for k in ks},
                "requests": sum(r.requests for r in results) / runs,
                "prompt_tokens": sum(r.prompt_tokens for r in results) / runs,
                "input_tokens": sum(r.input_tokens for r in results) / runs,
                "output_tokens": sum(r.output_tokens for r in results) / runs,
                "wall_s": round(sum(r.wall_s for r in results) / runs, 2),
                "failures": [r.failures for r in results if r.failures],
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--k", type=int, nargs="+", default=[1])
    parser.add_argument(
        "--scripted", action="store_true", help="replay scripted models (no model needed)"
    )
    parser.add_argument(
        "--path",
        choices=["inprocess", "wire", "both"],
        default="inprocess",
        help="with --scripted: in process, over real HTTP (the test server), or both",
    )
    parser.add_argument("--task", action="append", default=[], help="run only this task id")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    tasks = load_tasks(TASKS, args.task)
    if args.scripted:

        def make(task_id: str) -> tuple[AgentSettings, ModelFactory]:
            return scripted_settings(), ScriptedModels(scripted(task_id))

        runs, ks = 1, [1]
    else:
        try:
            cfg = load_agent_settings(
                os.environ, Path(os.environ.get("SIMWRIGHT_HOME", "~/.simwright")).expanduser()
            )
        except AgentConfigError as exc:
            print(
                f"agent_eval: {exc}\n"
                "Or replay the scripted models: python benchmarks/agent_eval.py --scripted",
                file=sys.stderr,
            )
            return 2

        def make(task_id: str) -> tuple[AgentSettings, ModelFactory]:
            from simwright.agents.setup.providers import build_model

            return cfg, lambda ref: build_model(ref, cfg)

        runs, ks = args.runs, args.k
    rows = []
    if not args.scripted or args.path in ("inprocess", "both"):
        rows += [{"path": "in-process", **r} for r in evaluate(tasks, runs, ks, make)]
    if args.scripted and args.path in ("wire", "both"):
        rows += [{"path": "http", **r} for r in evaluate_wire(tasks)]
    header = [
        "path",
        "task",
        "runs",
        "passed",
        *[f"pass@{k}" for k in ks],
        *[f"pass^{k}" for k in ks],
        "requests",
        "input_tokens",
        "output_tokens",
        "prompt_tokens",
        "wall_s",
    ]
    print(" | ".join(header))
    for row in rows:
        print(" | ".join(str(row[h]) for h in header))
        for failure in row["failures"]:
            print(f"    failed: {'; '.join(failure)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
