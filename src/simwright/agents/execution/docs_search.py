"""``search_docs``: retrieval (BM25 + dense), a selector model, an annotator model.

The documentation seam is :class:`DocSearch` (the knowledge layer's
:class:`~simwright.knowledge.docs.library.DocLibrary` fits it; tests pass a small
index). The selector picks at most three of the top candidates; its pick is
validated against the candidates (unknown pages are dropped; nothing left means
the top three). The annotator quotes the passages that matter; a quote that is not
in its page is dropped. Without those roles' models working, the top hits are
returned as they are — retrieval never depends on a model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import anyio
from pydantic_ai import Agent, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.errors import TiersExhausted
from simwright.agents.replies import Annotation, Mark, Selection
from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.tiers import call_tiered
from simwright.knowledge.docs.retrieval import Hit, RetrievalError

CANDIDATES = 8
SELECTED = 3


class DocSearch(Protocol):
    """Searches an engine's documentation."""

    def search(self, engine: str, query: str, k: int = 5) -> list[Hit]:
        """The ``k`` best pages of ``engine``'s documentation for ``query``."""
        ...


class NoDocs:
    """A documentation seam with nothing installed."""

    def search(self, engine: str, query: str, k: int = 5) -> list[Hit]:
        """Always refuses."""
        raise RetrievalError(f"no documentation is installed for {engine}")


def _pages_text(hits: Sequence[Hit]) -> str:
    return "\n\n".join(f"[{h.page}] {h.title}\n{h.passage}" for h in hits)


class DocsTool:
    """Retrieval, selection and annotation for one run."""

    def __init__(self, ctx: AgentContext, docs: DocSearch) -> None:
        self.ctx = ctx
        self.docs = docs
        self._select: Agent[None, Selection] = Agent(
            output_type=ToolOutput(Selection, name="select_pages"),
            instructions=prompts.SELECTOR,
            retries=2,
        )
        self._annotate: Agent[None, Annotation] = Agent(
            output_type=ToolOutput(Annotation, name="annotate"),
            instructions=prompts.ANNOTATOR,
            retries=2,
        )

    async def search(self, engine: str, query: str, subtask: str, instruction: str) -> str:
        """The text ``search_docs`` returns: selected pages with marked passages."""
        try:
            hits = await anyio.to_thread.run_sync(
                lambda: self.docs.search(engine, query, CANDIDATES)
            )
        except RetrievalError as exc:
            return f"documentation search unavailable: {exc}"
        if not hits:
            return f"no page of the {engine} documentation matches {query!r}"
        chosen = await self._selected(hits, query, subtask, instruction)
        marks = await self._marks(chosen, subtask, instruction)
        return _render(chosen, marks)

    async def _selected(
        self, hits: Sequence[Hit], query: str, subtask: str, instruction: str
    ) -> list[Hit]:
        if len(hits) <= SELECTED:
            return list(hits)
        prompt = f"Subtask: {instruction}\nQuery: {query}\nCandidates:\n{_pages_text(hits)}"

        async def ask(model: Model) -> Selection:
            return (await self._select.run(prompt, model=model)).output

        try:
            config = self.ctx.settings.role("selector")
            pick = await call_tiered(
                self.ctx, config, role="selector", subtask=subtask, what="page selection", call=ask
            )
        except TiersExhausted:
            return list(hits[:SELECTED])
        by_name = {h.page: h for h in hits}
        chosen = [by_name[p] for p in dict.fromkeys(pick.pages) if p in by_name][:SELECTED]
        return chosen or list(hits[:SELECTED])

    async def _marks(self, hits: Sequence[Hit], subtask: str, instruction: str) -> list[Mark]:
        prompt = f"Subtask: {instruction}\nPages:\n{_pages_text(hits)}"

        async def ask(model: Model) -> Annotation:
            return (await self._annotate.run(prompt, model=model)).output

        try:
            config = self.ctx.settings.role("annotator")
            annotation = await call_tiered(
                self.ctx, config, role="annotator", subtask=subtask, what="annotation", call=ask
            )
        except TiersExhausted:
            return []
        passages = {h.page: h.passage for h in hits}
        return [m for m in annotation.marks if m.quote in passages.get(m.page, "")]


def _render(hits: Sequence[Hit], marks: Sequence[Mark]) -> str:
    parts = []
    for h in hits:
        lines = [f"[{h.page}] {h.title}", h.passage]
        lines += [
            f"  >> {m.quote}" + (f"  ({m.why})" if m.why else "") for m in marks if m.page == h.page
        ]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
