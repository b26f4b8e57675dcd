"""The pw.x parameter knowledge graph: every namelist variable and card of pw.x 6.7.

Nodes are namelists, cards, variables and physical conditions; edges say where a
variable belongs (``in``), what it needs to act (``requires``), and which
variables a condition switches on (``activates``). Facts (names, types,
defaults, allowed values) are those of pw.x 6.7; the one-line descriptions are
simwright's own. The graph answers :meth:`KnowledgeGraph.search`,
:meth:`KnowledgeGraph.show`, :meth:`KnowledgeGraph.activated` and, through
:mod:`simwright.dft.validation`, checks an input before it runs.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

import networkx as nx

from simwright import yamlio
from simwright.dft.kg_rules import ACTIVATIONS, CONDITIONS, NAMELIST_NEEDS, REQUIREMENTS, Activation
from simwright.errors import ValidationError

Value = bool | int | float | str
ParamType = Literal["int", "float", "bool", "str", "any"]
Status = Literal["documented", "undocumented", "rejected"]

_INDEXED = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*$")


def split_name(name: str) -> tuple[str, str | None]:
    """``'starting_magnetization(1)'`` -> ``('starting_magnetization', '1')``."""
    m = _INDEXED.match(name)
    if m is None:
        return name.strip(), None
    return m.group(1), m.group(2)


@dataclass(frozen=True)
class Parameter:
    """One node: a namelist variable (or a card) with its facts and description."""

    name: str
    kind: Literal["variable", "card"]
    namelist: str
    type: ParamType
    description: str
    default: Value | None = None
    default_note: str = ""
    allowed: tuple[Value, ...] = ()
    range: tuple[float | None, float | None] | None = None
    indexed: str | None = None
    required: bool = False
    status: Status = "documented"
    strict: bool = False
    """True when pw.x 6.7 stops on a value outside ``allowed`` or ``range``.

    Otherwise pw.x runs with it (falls back to a default, clamps it, or just uses it)
    and the validator only warns.
    """

    def summary(self) -> str:
        """``namelist.name (type): description``."""
        where = f"&{self.namelist.upper()}" if self.kind == "variable" else "card"
        return f"{self.name} [{where}, {self.type}]: {self.description}"

    def default_text(self) -> str:
        """The default as text ('' when there is none)."""
        if self.default_note:
            return self.default_note
        return "" if self.default is None else repr(self.default)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "name": self.name,
            "kind": self.kind,
            "namelist": self.namelist,
            "type": self.type,
            "default": self.default,
            "default_note": self.default_note,
            "allowed": list(self.allowed),
            "range": list(self.range) if self.range else None,
            "indexed": self.indexed,
            "required": self.required,
            "status": self.status,
            "strict": self.strict,
            "description": self.description,
        }


@dataclass(frozen=True)
class ParameterView:
    """What :meth:`KnowledgeGraph.show` tells about one variable: facts and edges."""

    parameter: Parameter
    requires: tuple[str, ...] = ()
    required_by: tuple[str, ...] = ()
    activated_by: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            **self.parameter.as_dict(),
            "requires": list(self.requires),
            "required_by": list(self.required_by),
            "activated_by": list(self.activated_by),
        }

    def text(self) -> str:
        """A few lines for people and agents."""
        p = self.parameter
        lines = [p.summary()]
        if p.default_text():
            lines.append(f"  default: {p.default_text()}")
        if p.allowed:
            lines.append(f"  allowed: {', '.join(str(a) for a in p.allowed)}")
        if p.range:
            lines.append(
                f"  range: {p.range[0]} .. {p.range[1] if p.range[1] is not None else '∞'}"
            )
        if p.indexed:
            lines.append(f"  indexed: {p.name}(i), i = 1..{p.indexed}")
        if p.status != "documented":
            lines.append(f"  status: {p.status}")
        for label, items in (
            ("requires", self.requires),
            ("required by", self.required_by),
            ("activated by", self.activated_by),
        ):
            if items:
                lines.append(f"  {label}: {', '.join(items)}")
        return "\n".join(lines)


@dataclass
class KnowledgeGraph:
    """The graph and an index of its variables by lower-case name."""

    version: str
    parameters: dict[str, Parameter]
    """Namelist variables by lower-case name."""
    cards: dict[str, Parameter]
    """Cards by upper-case name."""
    later: dict[str, str]
    """Lower-case names accepted only by later pw.x versions -> their namelist."""
    graph: Any = field(default=None)

    def __post_init__(self) -> None:
        if self.graph is None:
            self.graph = _build_graph(self)

    # -- look-up --------------------------------------------------------------
    def lookup(self, name: str) -> Parameter | None:
        """The variable or card called ``name`` (case-insensitive, index ignored)."""
        base, _ = split_name(name)
        if base.isupper() and base in self.cards:
            return self.cards[base]
        return self.parameters.get(base.lower()) or self.cards.get(base.upper())

    def everything(self) -> list[Parameter]:
        """All variables and cards."""
        return [*self.parameters.values(), *self.cards.values()]

    def variables(self, namelist: str | None = None) -> list[Parameter]:
        """Variables (of one namelist), documented and undocumented."""
        return [p for p in self.parameters.values() if namelist is None or p.namelist == namelist]

    def closest(self, name: str, n: int = 3, cutoff: float = 0.6) -> list[Parameter]:
        """Documented variables whose names are closest to ``name`` (difflib)."""
        base, _ = split_name(name)
        names = [p.name.lower() for p in self.parameters.values() if p.status == "documented"]
        found = difflib.get_close_matches(base.lower(), names, n=n, cutoff=cutoff)
        return [self.parameters[f] for f in found]

    def show(self, name: str) -> ParameterView:
        """Facts and edges of one variable; :class:`ValidationError` suggests names."""
        p = self.lookup(name)
        if p is None:
            hint = ", ".join(c.name for c in self.closest(name)) or "none close"
            raise ValidationError(f"pw.x 6.7 has no variable or card {name!r} (closest: {hint})")
        node = _node(p)
        requires = sorted(
            {
                self.graph.nodes[t]["label"]
                for _, t, d in self.graph.out_edges(node, data=True)
                if d["kind"] == "requires"
            }
        )
        required_by = sorted(
            {
                self.graph.nodes[s]["label"]
                for s, _, d in self.graph.in_edges(node, data=True)
                if d["kind"] == "requires"
            }
        )
        activated_by = sorted(
            {
                self.graph.nodes[s]["label"]
                for s, _, d in self.graph.in_edges(node, data=True)
                if d["kind"] == "activates"
            }
        )
        return ParameterView(p, tuple(requires), tuple(required_by), tuple(activated_by))

    def search(self, query: str, limit: int = 20) -> list[Parameter]:
        """Variables and cards matching ``query`` by name or description, best first."""
        q = query.strip().lower()
        if not q:
            return []
        tokens = [t for t in re.split(r"[^a-z0-9_]+", q) if t and t not in _STOP_WORDS]
        scored: list[tuple[float, str, Parameter]] = []
        for p in self.everything():
            score = _score(p, q, tokens)
            if score > 0:
                scored.append((-score, p.name.lower(), p))
        scored.sort(key=lambda item: (item[0], len(item[1]), item[1]))
        return [p for _, _, p in scored[:limit]]

    def activated(self, conditions: Iterable[str]) -> list[Activation]:
        """What the given conditions switch on (unknown condition names are refused)."""
        wanted = list(dict.fromkeys(conditions))
        unknown = [c for c in wanted if c not in CONDITIONS]
        if unknown:
            raise ValidationError(
                f"unknown condition(s) {', '.join(unknown)}; known: {', '.join(CONDITIONS)}"
            )
        return [a for c in wanted for a in ACTIVATIONS if a.condition == c]

    def later_version(self, name: str) -> str | None:
        """The namelist of a variable that only later pw.x versions accept."""
        return self.later.get(split_name(name)[0].lower())


_STOP_WORDS = frozenset(
    {"a", "an", "and", "at", "der", "for", "in", "of", "on", "or", "the", "to", "with"}
)


def _score(p: Parameter, q: str, tokens: list[str]) -> float:
    name = p.name.lower()
    desc = p.description.lower()
    score = 0.0
    qn = re.sub(r"[\s\-]+", "_", q)
    if name == qn:
        score += 100
    elif qn in name:
        score += 40
    if q in desc:
        score += 15
    for t in tokens:
        if t in name.split("_") or t == name:
            score += 10
        elif t in name:
            score += 5
        if re.search(rf"\b{re.escape(t)}\b", desc):
            score += 3
    if p.status != "documented":
        score *= 0.2
    return score


def _node(p: Parameter) -> str:
    return f"{p.kind}:{p.name.lower()}"


def _build_graph(kg: KnowledgeGraph) -> Any:
    g = nx.MultiDiGraph()
    for nl in ("control", "system", "electrons", "ions", "cell"):
        g.add_node(f"namelist:{nl}", label=f"&{nl.upper()}", kind="namelist")
    for p in kg.everything():
        g.add_node(_node(p), label=p.name, kind=p.kind, status=p.status)
        parent = f"namelist:{p.namelist}" if p.kind == "variable" else "cards"
        if parent == "cards":
            g.add_node("cards", label="cards", kind="group")
        g.add_edge(_node(p), parent, kind="in")
    for r in REQUIREMENTS:
        src, dst = kg.lookup(r.source), kg.lookup(r.target)
        if src is None or dst is None:
            raise ValidationError(
                f"knowledge graph edge names an unknown variable: {r.source}->{r.target}"
            )
        g.add_edge(_node(src), _node(dst), kind="requires", expect=r.expect)
    calc = kg.lookup("calculation")
    assert calc is not None
    for nl, calcs in NAMELIST_NEEDS.items():
        g.add_edge(
            f"namelist:{nl}", _node(calc), kind="requires", expect=" or ".join(sorted(calcs))
        )
    for name, text in CONDITIONS.items():
        g.add_node(f"condition:{name}", label=name, kind="condition", description=text)
    for a in ACTIVATIONS:
        target = kg.lookup(a.name)
        if a.structural or target is None:
            node = f"advice:{a.namelist}.{a.name}"
            g.add_node(node, label=f"{a.namelist}.{a.name}", kind="advice")
        else:
            node = _node(target)
        g.add_edge(
            f"condition:{a.condition}", node, kind="activates", value=a.value, reason=a.reason
        )
        if a.namelist in ("ions", "cell"):
            g.add_edge(f"condition:{a.condition}", f"namelist:{a.namelist}", kind="activates")
    return g


def _parameter(name: str, data: Mapping[str, Any]) -> Parameter:
    rng = data.get("range")
    return Parameter(
        name=name,
        kind="variable",
        namelist=str(data["namelist"]),
        type=data["type"],
        description=str(data["description"]),
        default=data.get("default"),
        default_note=str(data.get("default_note") or ""),
        allowed=tuple(data.get("allowed") or ()),
        range=(rng[0], rng[1]) if rng else None,
        indexed=data.get("indexed"),
        required=bool(data.get("required", False)),
        status="rejected" if data.get("rejected_by_binary") else "documented",
        strict=bool(data.get("strict", False)),
    )


def _undocumented(name: str, namelist: str) -> Parameter:
    return Parameter(
        name=name,
        kind="variable",
        namelist=namelist,
        type="any",
        description=(
            "read by the 6.7 namelist shared with cp.x but not documented for pw.x "
            "(cp.x-only, experimental or internal); pw.x accepts it"
        ),
        status="undocumented",
    )


def _card(name: str, data: Mapping[str, Any]) -> Parameter:
    return Parameter(
        name=name,
        kind="card",
        namelist="card",
        type="str",
        description=str(data["description"]),
        allowed=tuple(data.get("options") or ()),
        required=bool(data.get("required", False)),
    )


@functools.cache
def load_knowledge_graph() -> KnowledgeGraph:
    """The knowledge graph of pw.x 6.7, built once from the packaged data."""
    text = resources.files("simwright.dft").joinpath("data/pw_parameters.yaml").read_text()
    data = yamlio.safe_load(text)
    params: dict[str, Parameter] = {}
    for name, entry in data["parameters"].items():
        params[name.lower()] = _parameter(name, entry)
    for namelist, names in data["undocumented"].items():
        for name in names:
            params.setdefault(name.lower(), _undocumented(name, namelist))
    cards = {name.upper(): _card(name, entry) for name, entry in data["cards"].items()}
    later = {n.lower(): nl for nl, names in data["introduced_later"].items() for n in names}
    return KnowledgeGraph(str(data["version"]), params, cards, later)
