"""A typed execution graph: nodes are step classes, edges come from annotations."""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from simwright.errors import GraphError
from simwright.graph.step import Done, Step

DONE = "Done"
"""The name of the terminal node in edges and diagrams."""


def _is_done(tp: Any) -> bool:
    return tp is Done or typing.get_origin(tp) is Done


def _union_members(tp: Any) -> tuple[Any, ...]:
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return typing.get_args(tp)
    return (tp,)


def declared_successors(step_cls: type[Step]) -> tuple[type[Step] | type[Done[Any]], ...]:
    """The successor types named by ``step_cls.run``'s return annotation.

    Raises :class:`GraphError` naming the step and the offending name when the
    annotation is missing, cannot be resolved, or names something that is neither
    a :class:`Step` subclass nor :class:`Done`.
    """
    run = step_cls.__dict__.get("run")
    if run is None:
        raise GraphError(f"step {step_cls.__name__} does not define run(ctx)")
    module = sys.modules.get(step_cls.__module__)
    globalns = dict(vars(module)) if module else {}
    try:
        hints = typing.get_type_hints(run, globalns=globalns, localns={step_cls.__name__: step_cls})
    except NameError as exc:
        raise GraphError(
            f"step {step_cls.__name__}: its run() annotation names an unknown successor ({exc})"
        ) from exc
    if "return" not in hints:
        raise GraphError(f"step {step_cls.__name__}: run() has no return annotation")
    out: list[Any] = []
    for member in _union_members(hints["return"]):
        if _is_done(member):
            out.append(Done)
        elif isinstance(member, type) and issubclass(member, Step):
            out.append(member)
        else:
            raise GraphError(
                f"step {step_cls.__name__}: successor {member!r} is neither a Step nor Done"
            )
    return tuple(out)


@dataclass(frozen=True)
class Graph:
    """Step classes and the edges between them, validated when built.

    Build with :meth:`Graph.build`; the first step listed is the entry point.
    """

    name: str
    steps: tuple[type[Step], ...]
    edges: dict[str, tuple[str, ...]]

    @classmethod
    def build(cls, name: str, steps: Iterable[type[Step]]) -> Graph:
        """Validate ``steps`` and their declared edges into a graph.

        Every step must be a frozen dataclass deriving from :class:`Step`, every
        successor it declares must be in ``steps`` (or be ``Done``), and every step
        except the first must be reachable from the first.
        """
        steps = tuple(steps)
        if not steps:
            raise GraphError(f"graph {name!r} has no steps")
        names = {}
        for s in steps:
            _check_step_class(s)
            if s.label() in names:
                raise GraphError(f"graph {name!r}: two steps are named {s.label()!r}")
            names[s.label()] = s
        edges: dict[str, tuple[str, ...]] = {}
        for s in steps:
            succ = declared_successors(s)
            for target in succ:
                if target is not Done and target not in steps:
                    raise GraphError(
                        f"graph {name!r}: step {s.label()} declares successor "
                        f"{target.__name__}, which is not registered in the graph"
                    )
            edges[s.label()] = tuple(DONE if t is Done else t.__name__ for t in succ)
        graph = cls(name=name, steps=steps, edges=edges)
        graph._check_reachable()
        return graph

    @property
    def entry(self) -> type[Step]:
        """The first step."""
        return self.steps[0]

    def allows(self, source: type[Step], result: object) -> bool:
        """True if ``source`` declared the type of ``result`` as a successor."""
        allowed = self.edges.get(source.label(), ())
        if isinstance(result, Done):
            return DONE in allowed
        return (
            isinstance(result, Step)
            and type(result).label() in allowed
            and (type(result) in self.steps)
        )

    def _check_reachable(self) -> None:
        seen = {self.entry.label()}
        todo = [self.entry.label()]
        while todo:
            for nxt in self.edges.get(todo.pop(), ()):
                if nxt != DONE and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        unreachable = [s.label() for s in self.steps if s.label() not in seen]
        if unreachable:
            raise GraphError(
                f"graph {self.name!r}: steps not reachable from {self.entry.label()}: "
                + ", ".join(unreachable)
            )
        if not any(DONE in v for v in self.edges.values()):
            raise GraphError(f"graph {self.name!r}: no step can reach Done")

    def mermaid(self) -> str:
        """The graph as a Mermaid ``stateDiagram-v2``."""
        lines = ["stateDiagram-v2", f"    [*] --> {self.entry.label()}"]
        for s in self.steps:
            lines.append(f"    {s.label()} : {s.label()} — {s.describe()}")
        for src, targets in self.edges.items():
            for t in targets:
                lines.append(f"    {src} --> {'[*]' if t == DONE else t}")
        return "\n".join(lines)


def _check_step_class(s: Any) -> None:
    if not (isinstance(s, type) and issubclass(s, Step)):
        raise GraphError(f"{s!r} is not a Step subclass")
    if s is Step:
        raise GraphError("the Step base class cannot be a node")
    params = s.__dict__.get("__dataclass_params__")
    if not dataclasses.is_dataclass(s) or params is None or not params.frozen:
        raise GraphError(f"step {s.__name__} must be a frozen dataclass (@dataclass(frozen=True))")
