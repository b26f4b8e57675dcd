"""The knowledge tools: search engine documentation, list and read knowledge modules.

``docs_search`` uses the project's documentation retrieval
(:class:`~simwright.knowledge.docs.library.DocLibrary`: BM25, embeddings and links
fused) over the engines' documentation installed with ``simwright docs install``;
``knowledge`` lists, searches (BM25) and shows the expert knowledge modules that bind
a procedure to its protocol.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from simwright.knowledge.docs.library import DocLibrary, DocsNotInstalled
from simwright.knowledge.docs.retrieval import Mode
from simwright.knowledge.modules import KnowledgeModule, get_module, load_modules
from simwright.knowledge.planner.lexical import BM25, tokens

MAX_HITS = 20
"""The most hits one search returns."""


class DocHit(BaseModel):
    """A documentation page that answers the query (and its rank by words and by
    embeddings, None where that ranking did not list it)."""

    model_config = ConfigDict(frozen=True)

    page: str
    title: str
    score: float
    passage: str
    source: str
    bm25_rank: int | None = None
    dense_rank: int | None = None


class DocHits(BaseModel):
    """The pages of an engine's documentation ranked for a query."""

    model_config = ConfigDict(frozen=True)

    engine: str
    query: str
    mode: str
    hits: list[DocHit]


class ModuleBrief(BaseModel):
    """A knowledge module in a list: its id, title and the protocol that runs it."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    domain: str
    protocol: str | None
    score: float | None = Field(default=None, description="BM25 score for a search")


class ModuleText(BaseModel):
    """A knowledge module: its parameters and its guidance (or one section)."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    protocol: str | None
    parameters: dict[str, Any]
    sections: list[str]
    section: str | None
    text: str


class Knowledge(BaseModel):
    """The answer of ``knowledge``: a list of modules, or one module."""

    model_config = ConfigDict(frozen=True)

    modules: list[ModuleBrief] = Field(default_factory=list)
    module: ModuleText | None = None


class KnowledgeTools:
    """Documentation search and knowledge modules of one home."""

    def __init__(self, docs_dir: Path, library: DocLibrary | None = None) -> None:
        self.library = library or DocLibrary(docs_dir)

    def docs_search(
        self, query: str, engine: str = "lammps", k: int = 5, mode: Mode = "hybrid"
    ) -> DocHits:
        """The ``k`` best pages of ``engine``'s installed documentation for ``query``."""
        if self.library.manifest(engine) is None:
            raise DocsNotInstalled(
                f"the {engine} documentation is not indexed on this machine: run "
                f"`simwright docs install {engine}` (add --words-only to skip the embedding "
                f"model); engines: {', '.join(self.library.engines())}"
            )
        hits = self.library.search(engine, query, min(k, MAX_HITS), mode)
        return DocHits(
            engine=engine,
            query=query,
            mode=mode,
            hits=[
                DocHit(
                    page=h.page, title=h.title, score=h.score, passage=h.passage, source=h.source
                )
                for h in hits
            ],
        )

    def knowledge(
        self, module_id: str | None = None, section: str | None = None, query: str | None = None
    ) -> Knowledge:
        """One module (``module_id``, optionally one ``section``), the modules ranked for
        ``query``, or all of them."""
        modules = load_modules()
        if module_id:
            return Knowledge(module=module_text(get_module(module_id, modules), section))
        if query:
            scores = BM25.from_texts([m.index_text() for m in modules]).scores(tokens(query))
            ranked = sorted(zip(modules, scores, strict=True), key=lambda x: (-x[1], x[0].id))
            return Knowledge(modules=[brief(m, round(s, 4)) for m, s in ranked[:MAX_HITS] if s > 0])
        return Knowledge(modules=[brief(m, None) for m in modules])


def brief(module: KnowledgeModule, score: float | None) -> ModuleBrief:
    """A module as a list shows it."""
    return ModuleBrief(
        id=module.id,
        title=module.title,
        domain=str(module.domain),
        protocol=module.protocol,
        score=score,
    )


def module_text(module: KnowledgeModule, section: str | None) -> ModuleText:
    """A module's parameters and text (one section of it with ``section``)."""
    front = module.model_dump(mode="json", exclude={"body", "sections"})
    text = module.section(section).render() if section else module.sections.render()
    return ModuleText(
        id=module.id,
        title=module.title,
        protocol=module.protocol,
        parameters=front.get("parameters", {}),
        sections=module.sections.paths(),
        section=section,
        text=text,
    )
