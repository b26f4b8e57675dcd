"""From an article's text to a new knowledge module file, validated before it is written.

The orchestrator model extracts the procedure as a typed
:class:`ExtractedProcedure`; it is rendered as a module (YAML front matter plus
the five sections) and parsed by :func:`~simwright.knowledge.modules.parse_module`
— the same validation every shipped module passes. A module that does not parse,
names an unknown protocol or would overwrite an existing file goes back to the
model as a retry prompt. The file is written to the knowledge folder given.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field
from pydantic_ai import Agent, ModelRetry, RunContext, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.tiers import call_tiered
from simwright.errors import ParseError
from simwright.knowledge.modules import KnowledgeModule, parse_module
from simwright.knowledge.schema import Domain, ParameterSpec, ReferenceEntry

SECTIONS = ("Preparation", "Equilibration", "Production", "Analysis", "Reporting")
ARTICLE_CHARS = 60_000


class ExtractedProcedure(BaseModel):
    """A procedure extracted from an article, in the shape of a knowledge module."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)
    title: str = Field(min_length=5, max_length=200)
    domain: Domain
    protocol: str | None = None
    keywords: list[str] = Field(min_length=1, max_length=20)
    parameters: dict[str, ParameterSpec] = Field(default_factory=dict)
    references: list[ReferenceEntry] = Field(min_length=1, max_length=10)
    summary: str = Field(min_length=10, max_length=3000)
    sections: dict[
        Literal["Preparation", "Equilibration", "Production", "Analysis", "Reporting"], str
    ]


def render_module(p: ExtractedProcedure) -> str:
    """The module file text of ``p``."""
    front = {
        "id": p.id,
        "title": p.title,
        "domain": p.domain,
        "protocol": p.protocol,
        "keywords": p.keywords,
        "parameters": {n: s.model_dump(exclude_defaults=True) for n, s in p.parameters.items()},
        "references": [r.model_dump(exclude_none=True) for r in p.references],
    }
    if p.protocol is None:
        front["pending"] = "extracted from an article; no executable protocol yet"
    body = [f"# {p.title}", "", p.summary, ""]
    sections: dict[str, str] = {str(k): v for k, v in p.sections.items()}
    for name in SECTIONS:
        body += [f"## {name}", "", sections.get(name, "Not described in the article."), ""]
    text = yaml.safe_dump(front, sort_keys=False, allow_unicode=True)
    return f"---\n{text}---\n\n" + "\n".join(body)


@dataclass(frozen=True)
class ExtractionTarget:
    """Where the module goes and which protocols it may name."""

    folder: Path
    protocols: Collection[str]


def _check(ctx: RunContext[ExtractionTarget], p: ExtractedProcedure) -> ExtractedProcedure:
    target = ctx.deps
    if p.protocol is not None and p.protocol not in target.protocols:
        raise ModelRetry(
            f"protocol {p.protocol!r} does not exist; use null or one of {sorted(target.protocols)}"
        )
    if (target.folder / f"{p.id}.md").exists():
        raise ModelRetry(f"a module {p.id!r} exists already; choose another id")
    try:
        parse_module(render_module(p), f"{p.id}.md")
    except ParseError as exc:
        raise ModelRetry(f"the module does not validate: {exc}") from exc
    return p


async def extract_module(
    ctx: AgentContext, article: str, request: str, target: ExtractionTarget
) -> KnowledgeModule:
    """Extract the article's procedure into ``target.folder/<id>.md`` and load it."""
    agent: Agent[ExtractionTarget, ExtractedProcedure] = Agent(
        deps_type=ExtractionTarget,
        output_type=ToolOutput(ExtractedProcedure, name="save_module"),
        instructions=prompts.EXTRACTOR,
        retries=2,
    )
    agent.output_validator(_check)
    prompt = f"Request: {request}\n\nArticle:\n{article[:ARTICLE_CHARS]}"

    async def ask(model: Model) -> ExtractedProcedure:
        return (await agent.run(prompt, deps=target, model=model)).output

    procedure = await call_tiered(
        ctx,
        ctx.settings.role("orchestrator"),
        role="orchestrator",
        subtask="",
        what="extract_module",
        call=ask,
    )
    target.folder.mkdir(parents=True, exist_ok=True)
    path = target.folder / f"{procedure.id}.md"
    text = render_module(procedure)
    path.write_text(text, encoding="utf-8")
    ctx.note(
        "module_extracted", f"knowledge module {procedure.id} written to {path}", path=str(path)
    )
    return parse_module(text, str(path))
