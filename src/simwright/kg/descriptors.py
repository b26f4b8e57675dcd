"""The per-protocol hook that says what a run is about (and the generic molecule one).

A protocol package registers a :class:`Descriptor` under the entry-point group
``simwright.kg_descriptors`` (the entry point's name is free; ``protocol`` says which
runs it describes)::

    [project.entry-points."simwright.kg_descriptors"]
    mof_pores = "simwright.protocols.mofs.descriptor:DESCRIPTOR"

``describe(facts)`` receives the run's :class:`~simwright.kg.runs.RunFacts` and returns
:class:`~simwright.kg.entities.Entity` values. Runs of every protocol also pass
through :func:`simwright.kg.molecules.molecules`, so a protocol whose parameters name
molecules (by ``smiles``/``inchi``/``inchikey``, or by nested molecule inputs as the
molecular quantum-chemistry protocols do) gets ``Molecule`` entities, and for a run
about one molecule each ``.xyz``/``.extxyz`` structure file a ``Conformer`` entity
linked to it, with no code of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from simwright.kg.entities import Entity
from simwright.kg.molecules import molecules
from simwright.kg.runs import RunFacts
from simwright.plugins import load_plugins

DESCRIPTOR_GROUP = "simwright.kg_descriptors"


@dataclass(frozen=True)
class Descriptor:
    """What the runs of ``protocol`` are about, as entities."""

    protocol: str
    describe: Callable[[RunFacts], tuple[Entity, ...]]


def load_descriptors() -> dict[str, Descriptor]:
    """The registered descriptors by protocol name (a broken plugin raises by name)."""
    found = load_plugins(DESCRIPTOR_GROUP, Descriptor, what="knowledge-graph descriptor")
    return {d.protocol: d for d in found.values()}


def describe(facts: RunFacts, descriptors: Mapping[str, Descriptor]) -> tuple[Entity, ...]:
    """Every entity of a run: its protocol's descriptor, then the generic molecule one."""
    own = descriptors.get(facts.protocol)
    found = own.describe(facts) if own is not None else ()
    return (*found, *molecules(facts))
