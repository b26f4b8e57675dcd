"""``simwright campaign ...``: validate, plan, run, status, resume, review, approve.

A Typer sub-app (``campaign_app``) mounted by the main CLI; also runnable alone
as ``python -m simwright.campaign``. Exit codes: 0 completed (or paused by a
limit), 1 failed, 2 input refused, 3 waiting for review, 130 interrupted.
The command line configures no reviewer: events wait for ``approve``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from simwright.cli.common import (
    HomeOpt,
    JsonOpt,
    emit,
    err,
    handled,
    open_store,
    out,
    settings_for,
)
from simwright.cli.signals import interrupt_on_signals

if TYPE_CHECKING:
    from simwright.campaign.runner import CampaignRunner
    from simwright.campaign.spec import CampaignSpec
    from simwright.settings import Settings

campaign_app = typer.Typer(
    help="Campaigns: systems × an ordered path of conditions, advanced by rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
F = TypeVar("F", bound=Callable[..., Any])
EXIT = {"completed": 0, "paused": 0, "failed": 1, "needs_review": 3, "interrupted": 130}

SpecArg = Annotated[Path, typer.Argument(help="A campaign spec (YAML).")]
CampaignArg = Annotated[str, typer.Argument(help="Campaign id (or a unique prefix).")]
MaxSegments = Annotated[
    int | None, typer.Option("--max-segments", help="Stop after this many segments.")
]
MaxStates = Annotated[
    int | None, typer.Option("--max-states", help="Stop after this many states are archived.")
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        min=1,
        help="Systems advanced side by side (the states of one system stay in order).",
    ),
]
ReportOpt = Annotated[
    bool, typer.Option("--report/--no-report", help="Write report/ with plots after running.")
]


def _load(path: Path, settings: Settings) -> CampaignSpec:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api.campaigns import parse_campaign_spec
    from simwright.campaign.spec_load import read_spec_data

    return parse_campaign_spec(read_spec_data(path), str(path), settings)


def _runner(settings: Settings, engine: str, report: bool, jobs: int = 1) -> CampaignRunner:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.campaign.report import write_report
    from simwright.campaign.runner import CampaignRunner
    from simwright.campaign.segment_engines import make_engine
    from simwright.cli.campaign_views import ProgressObserver

    if jobs > 1 and settings.threads == 0:  # share the cores out among the engines
        settings = dataclasses.replace(settings, threads=max(1, settings.cores() // jobs))
    return CampaignRunner(
        open_store(settings),
        make_engine(engine, settings),
        root=settings.campaigns_path,
        observer=ProgressObserver(err),
        report=write_report if report else None,
        jobs=jobs,
    )


def _finish(runner: CampaignRunner, campaign_id: str, json_out: bool) -> None:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.campaign.report import campaign_json
    from simwright.cli.campaign_views import print_status

    data = campaign_json(runner.cstore, campaign_id)
    if json_out:
        emit(data)
    else:
        print_status(out, data)
    raise typer.Exit(EXIT.get(data["status"], 1))


@campaign_app.command("validate")
@handled
def validate(spec: SpecArg, json_out: JsonOpt = False, home: HomeOpt = None) -> None:
    """Check a campaign spec: schema, consistency and the engine's own checks."""
    loaded = _load(spec, settings_for(home))
    summary = {
        "status": "valid",
        "spec": str(spec),
        "name": loaded.name,
        "engine": loaded.segment.engine,
        "systems": [s.name for s in loaded.systems],
        "conditions": [c.name for c in loaded.conditions],
        "states": len(loaded.systems) * len(loaded.conditions),
        "spec_sha256": loaded.sha256(),
    }
    if json_out:
        emit(summary)
    else:
        out.print(
            f"[green]valid[/] {spec}: {summary['states']} states "
            f"({len(loaded.systems)} systems × {len(loaded.conditions)} conditions), "
            f"engine {loaded.segment.engine}"
        )


@campaign_app.command("plan")
@handled
def plan_cmd(spec: SpecArg, json_out: JsonOpt = False, home: HomeOpt = None) -> None:
    """Show the states in execution order with their segment and step budgets."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.campaign.plan import plan
    from simwright.campaign.segment_engines import make_engine
    from simwright.cli.campaign_views import print_plan

    settings = settings_for(home)
    loaded = _load(spec, settings)
    data = plan(loaded, make_engine(loaded.segment.engine, settings))
    if json_out:
        emit(data)
    else:
        print_plan(out, data)


@campaign_app.command("run")
@handled
def run(
    spec: SpecArg,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
    max_segments: MaxSegments = None,
    max_states: MaxStates = None,
    report: ReportOpt = True,
    jobs: JobsOpt = 1,
) -> None:
    """Create a campaign from a spec and run it until nothing can run."""
    settings = settings_for(home)
    loaded = _load(spec, settings)
    runner = _runner(settings, loaded.segment.engine, report, jobs)
    campaign_id = runner.create(loaded, spec.read_text(encoding="utf-8"))
    err.print(f"campaign {campaign_id}", highlight=False)
    interrupt_on_signals()  # SIGTERM and SIGHUP stop it like Ctrl-C: marked interrupted
    runner.run(campaign_id, max_segments=max_segments, max_states=max_states)
    _finish(runner, campaign_id, json_out)


@campaign_app.command("resume")
@handled
def resume(
    campaign: CampaignArg,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
    max_segments: MaxSegments = None,
    max_states: MaxStates = None,
    report: ReportOpt = True,
    jobs: JobsOpt = 1,
) -> None:
    """Continue a campaign (killed, paused or approved) from its committed records."""
    settings = settings_for(home)
    engine = _campaign_engine(settings, campaign)
    runner = _runner(settings, engine, report, jobs)
    interrupt_on_signals()
    outcome = runner.run(campaign, max_segments=max_segments, max_states=max_states)
    _finish(runner, outcome.campaign_id, json_out)


def _campaign_engine(settings: Settings, campaign: str) -> str:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.campaign.repository import CampaignStore

    return CampaignStore(open_store(settings)).campaign(campaign).engine


@campaign_app.command("status")
@handled
def status(campaign: CampaignArg, json_out: JsonOpt = False, home: HomeOpt = None) -> None:
    """Show a campaign's states (cycles, local steps, accepted values) and open events."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.campaign.report import campaign_json
    from simwright.campaign.repository import CampaignStore
    from simwright.cli.campaign_views import print_status

    data = campaign_json(CampaignStore(open_store(settings_for(home))), campaign)
    if json_out:
        emit(data)
    else:
        print_status(out, data)


@campaign_app.command("review")
@handled
def review(
    campaign: CampaignArg,
    event: Annotated[str | None, typer.Argument(help="An event id or number.")] = None,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """List the events waiting for review, or show one event with its evidence."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.campaign.events import EVENT_FILE, EVIDENCE_FILE, read_json
    from simwright.campaign.report import event_json
    from simwright.campaign.repository import CampaignStore
    from simwright.campaign.runner import resolve_event
    from simwright.cli.campaign_views import print_event, print_events

    cstore = CampaignStore(open_store(settings_for(home)))
    row = cstore.campaign(campaign)
    if event is None:
        events = [event_json(e) for e in cstore.events(row.id, status="open")]
        if json_out:
            emit({"campaign_id": row.id, "open_events": events})
        else:
            print_events(out, events)
        return
    found = resolve_event(cstore, row.id, event)
    directory = Path(found.directory)
    data = {
        "event": read_json(directory / EVENT_FILE),
        "evidence": read_json(directory / EVIDENCE_FILE),
        "status": found.status,
    }
    if json_out:
        emit(data)
    else:
        print_event(out, data)


@campaign_app.command("approve")
@handled
def approve(
    campaign: CampaignArg,
    event: Annotated[str, typer.Argument(help="The event id or number to decide.")],
    action: Annotated[
        str, typer.Option(help="continue, accept, retry, stop, rebuild or acknowledge.")
    ],
    segment_steps: Annotated[
        int | None, typer.Option(help="Length of the next segment (local steps).")
    ] = None,
    rationale: Annotated[str, typer.Option(help="Why (kept with the decision).")] = "",
    reviewer: Annotated[str, typer.Option(help="Who decides.")] = "human",
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Record a human decision on an event; `resume` then continues the campaign."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api.campaigns import human_decision
    from simwright.campaign.runner import resolve_event
    from simwright.campaign.status import CampaignError

    settings = settings_for(home)
    runner = _runner(settings, _campaign_engine(settings, campaign), report=False)
    row = runner.cstore.campaign(campaign)
    found = resolve_event(runner.cstore, row.id, event)
    decision = human_decision(found.id, action, segment_steps=segment_steps, rationale=rationale)
    validation = runner.approve(row.id, found.id, decision, reviewer)
    if json_out:
        emit(validation.as_dict())
        raise typer.Exit(0 if validation.valid else 2)
    if not validation.valid:
        raise CampaignError("decision refused: " + "; ".join(validation.problems))
    out.print(f"[green]{validation.outcome}[/]; run `simwright campaign resume {row.id}`")


def main() -> None:
    """Run the campaign commands alone (``python -m simwright.campaign``)."""
    campaign_app()
