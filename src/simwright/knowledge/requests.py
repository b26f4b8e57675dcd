"""From a request (free text or a YAML spec file) to a protocol and typed parameters.

Free text goes to the knowledge planner (:func:`simwright.knowledge.planner.plan.plan`):
it picks the knowledge module, hence the protocol, and reads the parameters with
their units; the protocol then validates the values the request gave (its defaults
fill the rest). A request no module matches falls back to the ``parse_request`` of
the protocols that no module describes (plugins without a knowledge module);
exactly one must claim it. A spec file is the exact alternative::

    protocol: lattice_constant
    parameters:
      element: Cu
      lattice: fcc
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from simwright import yamlio
from simwright.errors import ParseError
from simwright.protocols.registry import Protocol, get_protocol
from simwright.textio import read_utf8


@dataclass(frozen=True)
class ResolvedRequest:
    """A protocol with validated parameters, and where they came from."""

    protocol: Protocol
    params: BaseModel
    request: str


def looks_like_spec_file(text: str) -> bool:
    """True when ``text`` names an existing YAML file."""
    return text.endswith((".yaml", ".yml")) and Path(text).is_file()


def load_spec(path: Path, protocols: Mapping[str, Protocol]) -> ResolvedRequest:
    """Read a YAML spec file (``protocol`` and ``parameters``)."""
    try:
        data = yamlio.safe_load(read_utf8(path, "spec file"))
    except Exception as exc:
        if not yamlio.is_yaml_error(exc):
            raise
        raise ParseError(f"{path}: invalid YAML: {exc}") from exc
    return spec_from_data(data, protocols, str(path), default_request=path.name)


def spec_from_data(
    data: Any, protocols: Mapping[str, Protocol], where: str, *, default_request: str = "spec"
) -> ResolvedRequest:
    """A spec already read (``protocol``, ``parameters``, optional ``request``), validated;
    ``where`` names it in messages (a file, or "the spec")."""
    if not isinstance(data, dict) or "protocol" not in data:
        raise ParseError(f"{where}: a spec needs a 'protocol' key and a 'parameters' mapping")
    unknown = set(data) - {"protocol", "parameters", "request"}
    if unknown:
        raise ParseError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    raw = data.get("parameters") or {}
    if not isinstance(raw, dict):
        raise ParseError(f"{where}: 'parameters' must be a mapping")
    proto = get_protocol(str(data["protocol"]), protocols)
    return ResolvedRequest(proto, proto.validate(raw), str(data.get("request") or default_request))


def claim(text: str, protocols: Mapping[str, Protocol]) -> tuple[Protocol, dict[str, Any]]:
    """The one protocol whose own ``parse_request`` claims ``text``, with its raw values."""
    claims: list[tuple[Protocol, dict[str, Any]]] = []
    for proto in protocols.values():
        raw = proto.parse_request(text)
        if raw is not None:
            claims.append((proto, raw))
    if not claims:
        raise ParseError(not_understood(text, protocols))
    if len(claims) > 1:
        names = ", ".join(p.name for p, _ in claims)
        raise ParseError(
            f"the request {text!r} is ambiguous: it fits {names}; "
            "be more specific or write a spec file"
        )
    return claims[0]


def not_understood(text: str, protocols: Mapping[str, Protocol]) -> str:
    """The message for a request no protocol claims: short, with what simwright can run."""
    examples = "; ".join(f'"{p.examples[0]}"' for p in list(protocols.values())[:3] if p.examples)
    return (
        f"simwright did not understand the request {text!r}: no protocol matches it.\n"
        f"It can run: {', '.join(protocols) or 'nothing (no protocol installed)'} "
        f"(e.g. {examples}).\n"
        "`simwright protocols` shows each with examples, `simwright knowledge list` what "
        "simwright knows; a spec file (protocol + parameters) is the exact alternative: "
        "`simwright run spec.yaml`."
    )
