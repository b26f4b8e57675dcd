"""``simwright dft ...``: the pw.x knowledge graph and the recommender on the command line.

A Typer sub-app (``dft_app``) mounted by the main CLI::

    simwright dft params search smearing [--json]
    simwright dft params show degauss [--json]
    simwright dft recommend "Cu(111) slab with PBE" [--json]
    simwright dft validate pw.in|pw.in.yaml|DIR [--json]
    simwright dft pseudo generate Ga --functional pbe [--kind us|paw] [--home DIR] [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from simwright.cli.common import emit, strict_json
from simwright.errors import SimwrightError
from simwright.settings import load_settings

if TYPE_CHECKING:
    from simwright.dft.file_checks import FileReport

    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.request import DftRequest

dft_app = typer.Typer(
    help="DFT with Quantum ESPRESSO: pw.x parameters and recommendations.", no_args_is_help=True
)
params_app = typer.Typer(help="The pw.x parameter knowledge graph.", no_args_is_help=True)
dft_app.add_typer(params_app, name="params")
pseudo_app = typer.Typer(
    help="Pseudopotentials: generate missing ones with ld1.x.", no_args_is_help=True
)
dft_app.add_typer(pseudo_app, name="pseudo")

_out = Console(soft_wrap=True)
_err = Console(stderr=True)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def _emit(data: Any) -> None:
    emit(data)


def _fail(exc: SimwrightError, json_out: bool) -> typer.Exit:
    if json_out:
        _emit({"status": "error", "error": str(exc), "error_type": type(exc).__name__})
    else:
        _err.print(f"[red]error:[/] {escape(str(exc))}", markup=True, highlight=False)
    return typer.Exit(2)


@params_app.command("search")
def params_search(
    query: Annotated[str, typer.Argument(help="words to look for in names and descriptions")],
    limit: Annotated[int, typer.Option("--limit", "-n", help="at most this many hits")] = 20,
    json_out: JsonOpt = False,
) -> None:
    """Find pw.x variables and cards by name or description."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.knowledge_graph import load_knowledge_graph

    hits = load_knowledge_graph().search(query, limit=limit)
    if json_out:
        _emit({"query": query, "count": len(hits), "results": [h.as_dict() for h in hits]})
        return
    if not hits:
        _out.print(f"no pw.x variable matches {query!r}")
        raise typer.Exit(1)
    for h in hits:
        _out.print(h.summary(), markup=False, highlight=False)


@params_app.command("show")
def params_show(
    name: Annotated[str, typer.Argument(help="a variable or card, e.g. degauss, K_POINTS")],
    json_out: JsonOpt = False,
) -> None:
    """Show one variable: type, default, allowed values, what it needs and what activates it."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.knowledge_graph import load_knowledge_graph

    try:
        view = load_knowledge_graph().show(name)
    except SimwrightError as exc:
        raise _fail(exc, json_out) from exc
    if json_out:
        _emit(view.as_dict())
    else:
        _out.print(view.text(), markup=False, highlight=False)


@dft_app.command("recommend")
def recommend_cmd(
    request: Annotated[str, typer.Argument(help='e.g. "graphene", "Cu(111) slab with PBE"')],
    home: Annotated[Path | None, typer.Option("--home", help="simwright home")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Recommend a structure and a complete pw.x input for a request (nothing is run)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.recommender import recommend
    from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
    from simwright.engines.espresso.template import render

    try:
        settings = load_settings()
        root = home.expanduser().resolve() if home else settings.home
        params = dft_request(request)
        dirs = (*default_pseudo_dirs(root), *(Path(d) for d in params.pseudo_dirs))
        rec = recommend(params, PseudoLibrary(dirs))
    except SimwrightError as exc:
        raise _fail(exc, json_out) from exc
    if json_out:
        _emit({**rec.as_dict(), "input": render(rec.template)})
    else:
        _out.print(rec.text(), markup=False, highlight=False)
        _out.print("\n" + render(rec.template), markup=False, highlight=False)


def dft_request(request: str) -> DftRequest:
    """The DFT parameters of a request, through the same resolver as `simwright plan`;
    the words need not mention DFT ("graphene" alone is its SCF)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.request import DftRequest
    from simwright.errors import ParseError
    from simwright.knowledge.modules import load_modules
    from simwright.knowledge.planner.resolver import resolve
    from simwright.protocols import load_protocols

    protocols = {n: p for n, p in load_protocols().items() if n.startswith("dft_")}
    modules = [
        m.model_copy(update={"requires": []}) for m in load_modules() if m.protocol in protocols
    ]
    resolution = resolve(request, protocols, modules, default_module="dft_scf")
    if not isinstance(resolution.params, DftRequest):
        raise ParseError(f"{request!r} is not a DFT request")
    return resolution.params


@dft_app.command("validate")
def validate_cmd(
    path: Annotated[
        Path,
        typer.Argument(
            help="a pw.x input file, a YAML/JSON namelist mapping, or a directory of them"
        ),
    ],
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per file (JSON lines).")
    ] = False,
) -> None:
    """Check pw.x inputs against the knowledge graph (exit 1: errors; 2: unreadable input)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.file_checks import FileReport, check_file, input_files

    files = input_files(path) if path.exists() else []
    if not files:
        why = "does not exist" if not path.exists() else "holds no pw.x input (*.in, *.pwi, *.yaml)"
        reports = [FileReport(str(path), error=f"{path} {why}", error_type="ParseError")]
    else:
        reports = [check_file(f) for f in files]
    for r in reports:
        if json_out:
            line = json.dumps(strict_json(r.as_dict()), default=str, ensure_ascii=False)
            sys.stdout.write(line + "\n")
        else:
            _print_report(r, len(reports) > 1)
    if any(r.error is not None for r in reports):
        raise typer.Exit(2)
    if not all(r.ok for r in reports):
        raise typer.Exit(1)


def _print_report(report: FileReport, named: bool) -> None:
    prefix = f"{report.path}: " if named else ""
    if report.error is not None:
        _err.print(f"[red]error:[/] {escape(report.error)}", markup=True, highlight=False)
        return
    for p in report.problems:
        _out.print(f"{prefix}{p.severity}: {p.message}", markup=False, highlight=False)
    if not report.problems:
        _out.print(f"{prefix}no problems found", markup=False, highlight=False)


@pseudo_app.command("generate")
def pseudo_generate_cmd(
    element: Annotated[str, typer.Argument(help="chemical symbol, e.g. Ga")],
    functional: Annotated[str, typer.Option("--functional", "-f", help="pbe or lda")] = "pbe",
    kind: Annotated[str, typer.Option("--kind", help="us (ultrasoft) or paw")] = "us",
    home: Annotated[Path | None, typer.Option("--home", help="simwright home")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Generate a pseudopotential with ld1.x from simwright's recipe, test it (ld1.x's
    transferability and ghost tests) and install it in <home>/pseudo with its provenance."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.dft.pseudo_generation import generate_pseudopotential
    from simwright.errors import ValidationError

    try:
        if kind not in ("us", "paw"):
            raise ValidationError(f"--kind must be us or paw, not {kind!r}")
        root = home.expanduser().resolve() if home else load_settings().home
        made = generate_pseudopotential(
            element, functional, root / "pseudo", kind="paw" if kind == "paw" else "us"
        )
    except SimwrightError as exc:
        raise _fail(exc, json_out) from exc
    if json_out:
        _emit({"status": "ok", "file": str(made.path), "provenance": made.record})
    else:
        _out.print(made.summary(), markup=False, highlight=False)
