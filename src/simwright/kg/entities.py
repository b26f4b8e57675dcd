"""What a descriptor says a run is about, as plain values (no RDF library needed).

A descriptor (:mod:`simwright.kg.descriptors`) returns :class:`Entity` values: a kind
(``MOF``, ``Topology``, ``BuildingBlock``, ``Molecule``, ``Conformer`` or any new
one), a stable key within that kind (a content hash, an InChIKey, a database name),
a label, literal attributes, and links to other entities. The run's measured values
are attached to the entities marked ``subject``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

AttributeValue = str | int | float | bool


@dataclass(frozen=True)
class Link:
    """A relation from an entity to another one: ``predicate`` (a vocabulary term such
    as ``topology``, ``node``, ``linker``, ``conformerOf``) and the target's kind and key."""

    predicate: str
    kind: str
    key: str


@dataclass(frozen=True)
class Entity:
    """A thing a run is about, with a stable identity ``(kind, key)``."""

    kind: str
    key: str
    label: str
    attributes: Mapping[str, AttributeValue] = field(default_factory=dict)
    links: tuple[Link, ...] = ()
    subject: bool = False
    """True when the run's values describe this entity (the MOF, the molecule)."""


def content_key(*parts: str) -> str:
    """A stable key from text parts: the first 32 hex digits of their sha256."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]
