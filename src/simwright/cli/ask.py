"""``simwright ask "<request>"``: the orchestrator from the command line.

Registered in ``simwright/cli/main.py`` with ``app.command("ask")(ask)``. The environment
and the configuration file are read here, at the edge, into ``AgentSettings``.
Exit codes: 0 answered, 1 the run failed or hit a cap, 2 refused before any work
(no model configured, invalid configuration, a run that cannot be resumed), 3 the
request needs clarification or the run waits for a person (``--review-plan``, a held
Fail verdict). ``simwright ask --resume RUN`` (or ``simwright resume RUN``) continues a
killed or failed agent run from its records; ``simwright ask --continue RUN "feedback"``
starts a new turn of a run with a person's feedback; ``simwright ask --approve RUN``
approves a held plan or verdict.
"""

from __future__ import annotations

import getpass
import importlib.util
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from simwright.cli.common import HomeOpt, JsonOpt, emit, err, handled, open_store, out, settings_for
from simwright.errors import ValidationError

if TYPE_CHECKING:
    from simwright.agents.orchestration.orchestrator import AgentOutcome, Orchestrator
    from simwright.store import Store

EXIT = {
    "completed": 0,
    "failed": 1,
    "budget_exceeded": 1,
    "needs_clarification": 3,
    "needs_review": 3,
}


@handled
def ask(
    request: Annotated[str | None, typer.Argument(help="What to compute, in words.")] = None,
    article: Annotated[
        Path | None,
        typer.Option(help="A paper (text or markdown) whose procedure becomes a knowledge module."),
    ] = None,
    interactive: Annotated[
        bool,
        typer.Option("--interactive/--no-interactive", help="Ask clarifying questions on stdin."),
    ] = True,
    resume: Annotated[
        str | None, typer.Option(help="Continue this killed or failed agent run instead.")
    ] = None,
    continue_run: Annotated[
        str | None,
        typer.Option(
            "--continue",
            help="A new turn of this agent run: the request argument is your feedback.",
        ),
    ] = None,
    approve: Annotated[
        str | None, typer.Option(help="Approve the held plan or verdict of this run, go on.")
    ] = None,
    review_plan: Annotated[
        bool, typer.Option("--review-plan", help="Hold the plan for your approval (exit 3).")
    ] = False,
    author: Annotated[
        str | None, typer.Option(help="Who gives the feedback or approval (default: $USER).")
    ] = None,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Answer a request with the agents (needs a model: see SIMWRIGHT_MODEL)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.textio import require_utf8

    chosen = [o for o in (resume, continue_run, approve) if o is not None]
    if len(chosen) > 1:
        raise ValidationError("give only one of --resume, --continue and --approve")
    if resume is not None:
        resume_agent(resume, interactive=interactive, json_out=json_out, home=home)
    if approve is not None and request:
        raise ValidationError(
            "--approve takes no request; to change the plan: "
            f'simwright ask --continue {approve} "..."'
        )
    if approve is not None or continue_run is not None:
        if continue_run is not None and not (request or "").strip():
            raise ValidationError(
                f'give your feedback: simwright ask --continue {continue_run} "..."'
            )
        if continue_run is not None:
            require_utf8(request or "", "the feedback")
        feedback = request if continue_run is not None else None
        _turn(continue_run or approve or "", feedback, author, json_out=json_out, home=home)
    if not request:
        raise ValidationError("give a request, or --resume RUN to continue an agent run")
    require_utf8(request, "the request")
    store, orchestrator = _orchestrator(interactive, home)
    text = article.read_text(encoding="utf-8", errors="replace") if article else None
    outcome = orchestrator.run(request, text, review_plan=review_plan)
    _print(store, outcome, json_out)
    raise typer.Exit(EXIT.get(outcome.status, 1))


def _turn(
    run_id: str, feedback: str | None, author: str | None, *, json_out: bool, home: Path | None
) -> None:
    """Feedback (a new turn) or an approval of ``run_id``; exits."""
    store, orchestrator = _orchestrator(False, home)
    who = author or getpass.getuser()
    full_id = store.get_run(run_id).id
    if feedback is not None:
        outcome = orchestrator.refine(full_id, feedback, who)
    else:
        outcome = orchestrator.approve(full_id, who)
    _print(store, outcome, json_out)
    raise typer.Exit(EXIT.get(outcome.status, 1))


def resume_agent(
    run_id: str, *, interactive: bool = True, json_out: bool = False, home: Path | None = None
) -> None:
    """Continue the agent run ``run_id`` (completed subtasks are not run again); exits."""
    store, orchestrator = _orchestrator(interactive, home)
    outcome = orchestrator.resume(store.get_run(run_id).id)
    _print(store, outcome, json_out)
    raise typer.Exit(EXIT.get(outcome.status, 1))


def _orchestrator(interactive: bool, home: Path | None) -> tuple[Store, Orchestrator]:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.agents.errors import AgentConfigError

    settings = settings_for(home)
    if importlib.util.find_spec("pydantic_ai") is None:
        raise AgentConfigError("the agents need pydantic-ai: pip install 'simwright[agents]'")
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.agents.assemble import build_orchestrator
    from simwright.agents.orchestration.clarify import NoClarifier, PromptClarifier
    from simwright.agents.setup.config import load_agent_settings

    agent = load_agent_settings(os.environ, settings.home)
    store = open_store(settings)
    clarifier = (
        PromptClarifier(lambda q: str(typer.prompt(q, default="", show_default=False)))
        if interactive and sys.stdin.isatty()
        else NoClarifier()
    )
    return store, build_orchestrator(agent, settings, store, clarifier=clarifier)


def _print(store: Store, outcome: AgentOutcome, json_out: bool) -> None:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.agents.usage.view import usage_json, usage_lines_from_json

    usage = usage_json(store, outcome.run_id)
    if json_out:
        data: dict[str, Any] = outcome.as_dict()
        data["usage"] = usage
        emit(data)
        return
    color = "green" if outcome.status == "completed" else "red"
    out.print(f"run [bold]{outcome.run_id}[/]: [{color}]{outcome.status}[/]")
    if outcome.answer is not None:
        out.print(outcome.answer.summary, markup=False, highlight=False)
        for v in outcome.answer.values:
            out.print(
                f"  {v.name} = {v.value:g} {v.unit}  ({v.source})", markup=False, highlight=False
            )
    if outcome.status == "needs_review":
        _print_held(store, outcome.run_id)
    elif outcome.error:
        err.print(f"[red]error:[/] {escape(str(outcome.error))}", highlight=False)
    for line in usage_lines_from_json(usage):
        out.print(line, markup=False, highlight=False)
    out.print(f"details: simwright show {outcome.run_id}")


def _print_held(store: Store, run_id: str) -> None:
    """What the run waits for, and the commands that let it go on."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    import json

    from simwright.agents.orchestration.approval import plan_text

    held = [e for e in store.events(run_id) if e.kind == "held_for_review"][-1]
    payload = json.loads(held.payload_json or "{}")
    out.print(f"[yellow]{escape(held.message)}[/]")
    if payload.get("reason") == "plan":
        out.print(plan_text(payload), markup=False, highlight=False)
    out.print(
        f"approve: simwright ask --approve {run_id}\n"
        f'or change it: simwright ask --continue {run_id} "change ..."',
        markup=False,
        highlight=False,
    )
