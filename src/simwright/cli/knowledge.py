"""Command-line commands for knowledge modules and request planning.

``knowledge_app`` (``list``, ``show``, ``search``) is mounted as ``simwright knowledge``;
``plan`` is registered as ``simwright plan``. Like the rest of the CLI, these are thin:
heavy imports happen inside the commands, so ``simwright --help`` stays fast, and
simwright's errors become a message (or ``{"status": "error", ...}`` with ``--json``)
and exit code 2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from simwright.cli.common import JsonOpt, emit, handled
from simwright.settings import load_settings

if TYPE_CHECKING:
    from simwright.knowledge.modules import KnowledgeModule
    from simwright.knowledge.planner.resolver import Resolution

F = TypeVar("F", bound=Callable[..., Any])

knowledge_app = typer.Typer(
    help="Expert knowledge modules: list, show and search them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DirsOpt = Annotated[
    list[Path] | None,
    typer.Option("--knowledge-dir", help="Extra folder of knowledge modules (*.md); repeatable."),
]


def _print(text: str) -> None:
    Console(soft_wrap=True).print(text, markup=False, highlight=False)


def _modules(dirs: Sequence[Path] | None) -> list[KnowledgeModule]:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.modules import load_modules

    home = load_settings().home
    # parsed front matter is cached only in an existing home: a read-only command creates none
    cache_dir = home / "cache" if home.is_dir() else None
    return load_modules(dirs or (), cache_dir=cache_dir)


@knowledge_app.command("list")
@handled
def list_modules(json_out: JsonOpt = False, knowledge_dir: DirsOpt = None) -> None:
    """List the knowledge modules and the protocol that executes each."""
    modules = _modules(knowledge_dir)
    rows = [
        {
            "id": m.id,
            "title": m.title,
            "domain": m.domain,
            "protocol": m.protocol,
            "pending": m.pending,
        }
        for m in modules
    ]
    if json_out:
        emit({"modules": rows})
        return
    for r in rows:
        runs = r["protocol"] or "no protocol yet"
        _print(f"{r['id']:<44} {runs:<22} {r['title']}")


@knowledge_app.command("show")
@handled
def show_module(
    module_id: Annotated[str, typer.Argument(help="Module id (see `simwright knowledge list`).")],
    section: Annotated[
        str | None, typer.Option(help="Only this section, e.g. 'Production/Thermostat'.")
    ] = None,
    json_out: JsonOpt = False,
    knowledge_dir: DirsOpt = None,
) -> None:
    """Show a module: its parameters and its guidance (or one section of it)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.modules import get_module

    module = get_module(module_id, _modules(knowledge_dir))
    text = module.section(section).render() if section else module.sections.render()
    if json_out:
        front = module.model_dump(mode="json", exclude={"body", "sections"})
        emit({**front, "section": section, "text": text, "sections": module.sections.paths()})
        return
    if section is None:
        _print(_parameter_lines(module))
    _print(text)


def _parameter_lines(module: KnowledgeModule) -> str:
    runs = module.protocol or f"none yet ({module.pending})"
    lines = [f"{module.id}: {module.title}", f"protocol: {runs}", "parameters:"]
    for name, spec in module.parameters.items():
        default = spec.default if spec.default_by is None else f"by {next(iter(spec.default_by))}"
        unit = f" [{spec.unit}]" if spec.unit else ""
        need = "required" if spec.required else f"default {default}"
        lines.append(f"  {name}{unit}: {spec.type}, {need}: {spec.description}")
    return "\n".join(lines) + "\n"


@knowledge_app.command("search")
@handled
def search_modules(
    query: Annotated[str, typer.Argument(help="Words to look for.")],
    limit: Annotated[int, typer.Option(help="How many modules to list.")] = 5,
    json_out: JsonOpt = False,
    knowledge_dir: DirsOpt = None,
) -> None:
    """Rank the modules for a query (BM25 over title, keywords and body)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.planner.lexical import BM25, tokens

    modules = _modules(knowledge_dir)
    scores = BM25.from_texts([m.index_text() for m in modules]).scores(tokens(query))
    ranked = sorted(zip(modules, scores, strict=True), key=lambda x: (-x[1], x[0].id))
    hits = [
        {"module": m.id, "title": m.title, "protocol": m.protocol, "score": round(s, 4)}
        for m, s in ranked[:limit]
        if s > 0
    ]
    if json_out:
        emit({"query": query, "results": hits})
        return
    if not hits:
        _print("no module matches")
    for h in hits:
        _print(f"{h['score']:8.3f}  {h['module']:<44} {h['title']}")


def _preflight_lines(checked: Mapping[str, Any]) -> list[str]:
    """The estimate (with its basis) and any refusal, as plan output lines."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.protocols.estimate import human_bytes

    lines = []
    est = checked.get("estimate")
    if est:
        steps = f", {est['md_steps']:,} MD steps" if est["md_steps"] else ""
        scf = f", {est['scf_cycles']} SCF cycles" if est["scf_cycles"] else ""
        lines.append(
            f"estimate: {est['atoms']:,} atoms{steps}{scf}, ~{human_bytes(est['output_bytes'])} "
            f"output, ~{est['core_hours']:.3g} core-hours"
        )
        lines += [f"  {b}" for b in est["basis"]]
    lines += [f"would be refused: {p}" for p in checked.get("problems", [])]
    return lines


@handled
def plan(
    request: Annotated[str, typer.Argument(help="A request in words, or a spec file.")],
    json_out: JsonOpt = False,
    knowledge_dir: DirsOpt = None,
) -> None:
    """Show how a request is understood, without running anything.

    Prints the protocol, module and parameters (given or assumed), how each stated
    choice is honoured, the preflight's estimate (steps, atoms, output, core-hours) and
    the inputs a run would build (structure, force field, engines). Exits 0 only when
    `simwright run` would pass its preflight and build every input."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.planner.resolver import resolve
    from simwright.protocols.registry import LazyProtocols

    protocols = LazyProtocols()  # only the planned protocol is imported
    result = resolve(request, protocols, _modules(knowledge_dir), settings=load_settings())
    if json_out:
        emit(result.to_json())
        return
    _print("\n".join(_plan_lines(result)))


def _plan_lines(result: Resolution) -> list[str]:
    data = result.to_json()
    where = f"module {data['module']}" if data["module"] else result.source
    lines = [f"protocol: {result.protocol.name}   ({where})"]
    texts = result.plan.parameters if result.plan is not None else {}
    for name, p in data["parameters"].items():
        unit = f" {p['unit']}" if p["unit"] else ""
        said = texts[name].text if name in texts else None
        origin = f"given: {said!r}" if p["source"] == "given" and said else p["source"]
        lines.append(f"  {name:<20} {p['value']}{unit}   ({origin})")
    lines += [f"stated: {u.text!r} -> {u.how}" for u in result.phrases]
    lines += [f"warning: {w}" for w in result.warnings]
    lines += [f"builds: {line}" for line in result.inputs]
    if result.preflight is not None:
        lines += _preflight_lines(result.preflight.as_dict())
    if data.get("alternatives"):
        others = ", ".join(f"{a['module']} ({a['score']})" for a in data["alternatives"])
        lines.append(f"also matched, less well: {others}")
    return lines
