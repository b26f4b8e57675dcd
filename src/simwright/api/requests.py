"""Requests of the API: words or a spec, resolved through the one request path.

A request in words goes to :func:`simwright.knowledge.planner.resolver.resolve` exactly
as ``simwright plan``/``run`` send it; a spec (protocol + parameters) is validated by
its protocol. Both then pass the preflight and the build stage
(:func:`~simwright.knowledge.planner.resolver.prepare`) before a run may exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from simwright.errors import ValidationError
from simwright.knowledge.planner.resolver import Resolution, prepare, resolve
from simwright.knowledge.requests import spec_from_data
from simwright.protocols.registry import LazyProtocols, Protocol
from simwright.settings import Settings


class Spec(BaseModel):
    """The exact alternative to words: a protocol and its parameters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    protocol: str = Field(min_length=1, max_length=128, description="A registered protocol.")
    parameters: dict[str, Any] = Field(
        default_factory=dict, description="The protocol's parameters."
    )
    request: str = Field(default="", max_length=2000, description="A label kept with the run.")


Request = str | Spec
"""What :func:`plan` accepts: a request in words (or a spec file's path), or a :class:`Spec`."""

_FILE_SUFFIXES = (".yaml", ".yml")


def plan(
    request: Request,
    settings: Settings | None,
    protocols: Mapping[str, Protocol] | None = None,
    *,
    files: bool = True,
) -> Resolution:
    """Resolve ``request``; with ``settings``, also the preflight and the build stage.

    ``files=False`` (the service) refuses words that name a spec file: a remote client
    must not make simwright read a file of the server; it sends the spec itself.
    """
    protos = LazyProtocols() if protocols is None else protocols
    if isinstance(request, Spec):
        spec = spec_from_data(
            request.model_dump(), protos, "the spec", default_request=request.protocol
        )
        resolution = Resolution(
            spec.request,
            spec.protocol,
            spec.params,
            source="spec",
            given=frozenset(spec.params.model_fields_set),
        )
        return resolution if settings is None else prepare(resolution, settings)
    if not files and request.strip().endswith(_FILE_SUFFIXES):
        raise ValidationError(
            "a request that names a spec file is refused here: send the spec itself "
            "(protocol and parameters)"
        )
    if not request.strip():
        raise ValidationError("the request is empty: say what to compute, or send a spec")
    return resolve(request, protos, settings=settings)
