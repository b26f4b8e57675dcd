"""The :class:`Protocol` record and its discovery through entry points.

A package adds a protocol by exposing a :class:`Protocol` under the
``simwright.protocols`` entry-point group; in-tree protocols are registered the
same way in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from simwright.errors import SimwrightError, ValidationError
from simwright.plugins import load_plugin, load_plugins, plugin_names
from simwright.settings import Settings

if TYPE_CHECKING:  # kept out of the import: listing protocols must not load the graph
    from simwright.graph import Graph, Step
    from simwright.protocols.estimate import Estimate
    from simwright.protocols.inputs import BuiltInputs

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
    prepare: Callable[[Any, Settings], BuiltInputs] | None = None
    """The build stage: every input of a run (structure, force field, engine), built
    without running; None for a protocol that has none to check (plugins)."""
    defaulted: Callable[[str], frozenset[str]] | None = None
    """The keys ``parse_request`` filled with a default although the request touched
    them ("water" names the liquid, not the model: ``system`` = SPC/E is assumed), so a
    plan shows them as *assumed*, not *given*."""

    def given_keys(self, text: str, raw: Mapping[str, Any]) -> frozenset[str]:
        """The keys of ``raw`` (from ``parse_request(text)``) that the request stated."""
        assumed = self.defaulted(text) if self.defaulted is not None else frozenset()
        return frozenset(raw) - assumed

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

    def build_inputs(self, params: BaseModel, settings: Settings) -> BuiltInputs:
        """Build every input of a run of ``params`` without running it."""
        # lazy: the protocol catalogue reads this module without the build stage
        from simwright.protocols.inputs import BuiltInputs

        return BuiltInputs(()) if self.prepare is None else self.prepare(params, settings)

    def first_step(self, params: BaseModel) -> Step:
        """The entry step for ``params``."""
        return self.start(params)


def load_protocols() -> dict[str, Protocol]:
    """All registered protocols by name (a broken plugin is reported by name)."""
    found = load_plugins(PROTOCOL_GROUP, Protocol, what="protocol")
    return dict(sorted((proto.name, proto) for proto in found.values()))


class LazyProtocols(Mapping[str, "Protocol"]):
    """The registered protocols by name, each imported only when it is looked up.

    Names come from the entry points (no import); ``protocols["x"]`` imports that one
    protocol's module. Iterating the values imports them all, as :func:`load_protocols`.
    """

    def __init__(self) -> None:
        self._names = plugin_names(PROTOCOL_GROUP)
        self._loaded: dict[str, Protocol] = {}

    def __getitem__(self, name: str) -> Protocol:
        if name not in self._loaded:
            if name not in self._names:
                raise KeyError(name)  # an unknown name, as a dict
            proto = load_plugin(PROTOCOL_GROUP, name, Protocol, what="protocol")
            if proto is None or proto.name != name:
                raise SimwrightError(f"protocol plugin {name!r} is not a Protocol named {name!r}")
            self._loaded[name] = proto
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def get_protocol(name: str, protocols: Mapping[str, Protocol] | None = None) -> Protocol:
    """The protocol called ``name``; the error lists the known ones."""
    protocols = load_protocols() if protocols is None else protocols
    if name not in protocols:
        raise ValidationError(
            f"unknown protocol {name!r}; known protocols: {', '.join(protocols) or 'none'}"
        )
    return protocols[name]
