"""SPARQL over the knowledge graph, as a table of plain values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simwright.errors import ValidationError
from simwright.kg.vocabulary import PROV, RDFS, SW, XSD

if TYPE_CHECKING:
    from rdflib import Graph

NAMESPACES = {"sw": SW, "prov": PROV, "rdfs": RDFS, "xsd": XSD}
"""Prefixes every query may use without declaring them."""


@dataclass(frozen=True)
class QueryTable:
    """The answer of a SELECT (column names and rows) or of an ASK (one row, ``ask``)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def as_dicts(self) -> list[dict[str, Any]]:
        """Rows as dictionaries by column name (JSON output)."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def _plain(term: Any) -> Any:
    if term is None:
        return None
    to_python = getattr(term, "toPython", None)
    value = to_python() if to_python is not None else term
    return value if isinstance(value, bool | int | float) else str(value)


def run_query(g: Graph, sparql: str) -> QueryTable:
    """Answer a SELECT or ASK query; anything else, or a malformed query, is refused."""
    # lazy: rdflib is the optional extra [kg]
    from pyparsing import ParseException

    try:
        result = g.query(sparql, initNs=NAMESPACES)
    except ParseException as exc:
        raise ValidationError(f"not a valid SPARQL query: {exc}") from exc
    except Exception as exc:  # rdflib raises plain exceptions for unknown prefixes etc.
        raise ValidationError(f"the query failed: {exc}") from exc
    if result.type == "ASK":
        return QueryTable(("ask",), ((bool(result.askAnswer),),))
    if result.type != "SELECT":
        raise ValidationError(f"only SELECT and ASK queries are answered, not {result.type}")
    columns = tuple(str(v) for v in (result.vars or ()))
    rows = tuple(
        tuple(_plain(row[i]) for i in range(len(columns)))  # type: ignore[index]
        for row in result
    )
    return QueryTable(columns, rows)
