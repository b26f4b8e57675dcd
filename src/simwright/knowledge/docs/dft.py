"""The pw.x parameter knowledge graph (:mod:`simwright.dft.knowledge_graph`) as a doc source.

The graph lives in another part of simwright that may be absent from an installation;
it is imported only when this source is used, and :func:`pwx_available` says whether
it can be. Each pw.x variable or card becomes a page named after it, described by the
graph's one-line description, with its namelist, type, default and allowed values as
its "syntax".
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from simwright.knowledge.docs.retrieval import DocPage, RetrievalError
from simwright.knowledge.docs.source import text_fingerprint

GRAPH_MODULE = "simwright.dft.knowledge_graph"
READER_VERSION = "pwx-1"


def pwx_available() -> bool:
    """Whether the pw.x knowledge graph can be imported."""
    try:
        return importlib.util.find_spec(GRAPH_MODULE) is not None
    except ImportError:
        return False


def _graph() -> Any:
    try:
        module = importlib.import_module(GRAPH_MODULE)
        return module.load_knowledge_graph()
    except (ImportError, AttributeError) as exc:
        raise RetrievalError(f"the pw.x knowledge graph is not available: {exc}") from exc


def parameter_page(param: Any) -> DocPage:
    """A page for one :class:`~simwright.dft.knowledge_graph.Parameter`."""
    where = f"&{param.namelist.upper()}" if param.kind == "variable" else "card"
    facts = [f"{param.name} ({where}, {param.type})"]
    if default := param.default_text():
        facts.append(f"default: {default}")
    if param.allowed:
        facts.append("allowed: " + ", ".join(str(a) for a in param.allowed))
    title = f"{param.name} ({where})"
    return DocPage(param.name, title, str(param.description), "\n".join(facts), GRAPH_MODULE)


@dataclass(frozen=True)
class PwxParameters:
    """Every variable and card of the pw.x knowledge graph."""

    name: str = "pwx"

    def _parameters(self) -> list[Any]:
        return [p for p in _graph().everything() if getattr(p, "status", "") != "rejected"]

    def fingerprint(self) -> str:
        """Changes with the graph's version or any parameter's facts."""
        graph = _graph()
        facts = sorted(repr(p) for p in graph.everything())
        return text_fingerprint(READER_VERSION, str(graph.version), *facts)

    def pages(self) -> list[DocPage]:
        """A page per documented or undocumented parameter."""
        return [parameter_page(p) for p in self._parameters()]
