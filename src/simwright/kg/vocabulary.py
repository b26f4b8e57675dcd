"""Names of the knowledge graph: the vocabulary's terms and the stable identifiers.

Terms live in ``https://simwright.org/ns#`` (prefix ``sw:``); things have identifiers
``https://simwright.org/id/<kind>/<key>``: a run by its run id, a file by its sha256,
a value by run and name, a protocol by name, an entity by its descriptor's key (a
recipe's or file's content hash, a topology's or building block's database name, an
InChIKey). The same thing ingested from two runs is one node. PROV-O
(``prov:``) types runs as activities and files as entities.
"""

from __future__ import annotations

from urllib.parse import quote

SW = "https://simwright.org/ns#"
ID = "https://simwright.org/id/"
PROV = "http://www.w3.org/ns/prov#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"

PREFIXES = f"PREFIX sw: <{SW}>\nPREFIX prov: <{PROV}>\nPREFIX rdfs: <{RDFS}>\nPREFIX xsd: <{XSD}>\n"
"""The prefixes every query gets in front of it (``sw:``, ``prov:``, ``rdfs:``, ``xsd:``)."""


def term(name: str) -> str:
    """The IRI of a vocabulary term (``sw:largestIncludedSphere``...)."""
    return SW + name


def identifier(kind: str, *keys: str) -> str:
    """The IRI of a thing: ``ID/<kind>/<key>[/<key>...]``, each part percent-encoded."""
    return ID + "/".join([quote(kind.lower(), safe=""), *(quote(k, safe="") for k in keys)])
