"""The :class:`Protocol` record and its discovery through entry points.

A package adds a protocol by exposing a :class:`Protocol` under the
``simwright.protocols`` entry-point group; in-tree protocols are registered the
same way in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from simwright.errors import ValidationError
from simwright.graph import Graph, Step
from simwright.plugins import load_plugins
from simwright.settings import Settings

if TYPE_CHECKING:
    from simwright.protocols.estimate import Estimate

PROTOCOL_GROUP = "simwright.protocols"


@dataclass(frozen=True)
class Protocol:
    """An expert procedure: a graph, its typed parameters and how requests map to it.

    ``parse_request`` turns a free-text request into raw parameters, or returns
    None when the request is not for this protocol; it must never guess a value
    silently (raise :class:`~simwright.errors.ParseError` instead).

    What the preflight (:func:`simwright.protocols.preflight.preflight`) needs:
    ``engines`` the executables the graph runs (``lmp``, ``packmol``, ``pw.x``);
    ``check(params, settings)`` refuses what only the installation can judge (a
    calculator name against its registry and allow-list); ``estimate(params,
    settings)`` sizes the run (steps, atoms, output, core-hours).
    """

    name: str
    title: str
    summary: str
    graph: Graph
    parameters: type[BaseModel]
    start: Callable[[Any], Step]
    examples: tuple[str, ...]
    parse_request: Callable[[str], dict[str, Any] | None]
    engines: tuple[str, ...] = ()
    check: Callable[[Any, Settings], None] | None = None
    estimate: Callable[[Any, Settings], Estimate] | None = None

    def validate(self, raw: Mapping[str, Any]) -> BaseModel:
        """Typed parameters from raw values; refuses impossible values with clear messages."""
        try:
            return self.parameters.model_validate(dict(raw))
        except PydanticValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'parameters'}: {e['msg']}"
                for e in exc.errors()
            )
            raise ValidationError(f"invalid parameters for {self.name}: {problems}") from exc

    def first_step(self, params: BaseModel) -> Step:
        """The entry step for ``params``."""
        return self.start(params)


def load_protocols() -> dict[str, Protocol]:
    """All registered protocols by name (a broken plugin is reported by name)."""
    found = load_plugins(PROTOCOL_GROUP, Protocol, what="protocol")
    return dict(sorted((proto.name, proto) for proto in found.values()))


def get_protocol(name: str, protocols: Mapping[str, Protocol] | None = None) -> Protocol:
    """The protocol called ``name``; the error lists the known ones."""
    protocols = load_protocols() if protocols is None else protocols
    if name not in protocols:
        raise ValidationError(
            f"unknown protocol {name!r}; known protocols: {', '.join(protocols) or 'none'}"
        )
    return protocols[name]
