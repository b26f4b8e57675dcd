"""A run's facts and entities as RDF triples (rdflib, extra ``[kg]``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import PROV, XSD

from simwright.kg.entities import Entity
from simwright.kg.runs import RunFacts
from simwright.kg.vocabulary import identifier, term


def _sw(name: str) -> URIRef:
    return URIRef(term(name))


def literal(value: Any) -> Literal:
    """A typed literal: booleans, integers and floats keep their type; lists and
    mappings become JSON text."""
    if isinstance(value, bool):
        return Literal(value)
    if isinstance(value, int):
        return Literal(value, datatype=XSD.integer)
    if isinstance(value, float):
        return Literal(value, datatype=XSD.double)
    if isinstance(value, list | dict):
        return Literal(json.dumps(value, sort_keys=True, ensure_ascii=False))
    return Literal("" if value is None else str(value))


def entity_iri(kind: str, key: str) -> URIRef:
    """The identifier of an entity."""
    return URIRef(identifier(kind, key))


def add_entity(g: Graph, e: Entity) -> URIRef:
    """The entity's type, label, attributes and links."""
    node = entity_iri(e.kind, e.key)
    g.add((node, RDF.type, _sw(e.kind)))
    g.add((node, RDFS.label, Literal(e.label)))
    g.add((node, _sw("key"), Literal(e.key)))
    for name, value in e.attributes.items():
        g.add((node, _sw(name), literal(value)))
    for link in e.links:
        g.add((node, _sw(link.predicate), entity_iri(link.kind, link.key)))
    return node


def add_run(g: Graph, facts: RunFacts, entities: Sequence[Entity]) -> URIRef:
    """Every triple of one run: the run, its protocol, parameters, files, values and
    the entities it is about (values are attached to the subject entities)."""
    run = URIRef(identifier("run", facts.run_id))
    protocol = URIRef(identifier("protocol", facts.protocol))
    g.add((run, RDF.type, _sw("Run")))
    g.add((run, RDF.type, PROV.Activity))
    g.add((run, _sw("runId"), Literal(facts.run_id)))
    g.add((run, _sw("protocol"), protocol))
    g.add((run, _sw("request"), Literal(facts.request)))
    g.add((run, _sw("status"), Literal(facts.status)))
    g.add((run, _sw("summary"), Literal(facts.summary)))
    g.add((run, _sw("simwrightVersion"), Literal(facts.version)))
    g.add((run, PROV.startedAtTime, Literal(facts.created_at, datatype=XSD.dateTime)))
    g.add((protocol, RDF.type, _sw("Protocol")))
    g.add((protocol, RDFS.label, Literal(facts.protocol)))
    for name, value in sorted(facts.parameters.items()):
        node = URIRef(identifier("run", facts.run_id, "parameter", name))
        g.add((run, _sw("parameter"), node))
        g.add((node, RDF.type, _sw("Parameter")))
        g.add((node, _sw("name"), Literal(name)))
        g.add((node, _sw("value"), literal(value)))
    files = {}
    for f in facts.files:
        node = URIRef(identifier("file", f.sha256))
        files[f.path] = node
        g.add((node, RDF.type, _sw("File")))
        g.add((node, RDF.type, PROV.Entity))
        g.add((node, _sw("sha256"), Literal(f.sha256)))
        g.add((node, _sw("size"), Literal(f.size, datatype=XSD.integer)))
        g.add((node, _sw("kind"), Literal(f.kind)))
        g.add((node, _sw("path"), Literal(f"{facts.run_id}/{f.path}")))
        g.add((node, PROV.wasGeneratedBy, run))
    subjects = []
    for e in entities:
        node = add_entity(g, e)
        g.add((run, _sw("involves"), node))
        if e.subject:
            g.add((run, _sw("about"), node))
            subjects.append(node)
    for name, v in sorted(facts.values.items()):
        node = URIRef(identifier("run", facts.run_id, "value", name))
        g.add((run, _sw("result"), node))
        g.add((node, RDF.type, _sw("Measurement")))
        g.add((node, _sw("quantity"), Literal(name)))
        g.add((node, _sw("value"), Literal(v.value, datatype=XSD.double)))
        g.add((node, _sw("unit"), Literal(v.unit)))
        g.add((node, PROV.wasGeneratedBy, run))
        if v.uncertainty is not None:
            g.add((node, _sw("uncertainty"), Literal(v.uncertainty, datatype=XSD.double)))
        if v.source in files:
            g.add((node, _sw("source"), files[v.source]))
        for subject in subjects:
            g.add((node, _sw("of"), subject))
    return run
