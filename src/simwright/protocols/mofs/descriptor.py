"""What a ``mof_pores`` run is about, for the knowledge graph: the MOF, its topology,
node and linker building blocks.

A built MOF is keyed and labelled by its recipe (topology and PORMAKE ids, so "Zn4O"
and "N16" name one MOF: ``pcu-N16+E14``), a MOF read from a file by the sha256 of the
CIF as given (label ``CIF <first 12 hex digits>``); a name the run gave ("MOF-5") is an
``sw:name`` of it, so the label never depends on which run came first. Names are
resolved with PORMAKE's database when it is installed, else kept as stated.
"""

from __future__ import annotations

from simwright.engines.pormake.catalogue import (
    ALIASES,
    composition,
    connection_points,
    database_dir,
)
from simwright.errors import ValidationError
from simwright.kg.descriptors import Descriptor
from simwright.kg.entities import Entity, Link, content_key
from simwright.kg.runs import RunFacts
from simwright.protocols.mofs.topology import order_blocks, read_net


def _block(block: str, role: str) -> Entity:
    database = database_dir()
    common = next((a for a in ALIASES if a.block == block), None)
    attributes: dict[str, str | int] = {"role": role}
    if database is not None and (database / "bbs" / f"{block}.xyz").is_file():
        counts = composition(block, database)
        attributes["connectivity"] = connection_points(block, database)
        attributes["formula"] = "".join(f"{el}{n}" for el, n in sorted(counts.items()) if el != "X")
    if common is not None:
        attributes["commonName"] = common.name
    return Entity("BuildingBlock", block, common.name if common else block, attributes)


def _resolved(
    topology: str, nodes: tuple[str, ...], linker: str | None
) -> tuple[str, str, tuple[str, ...], str | None]:
    database = database_dir()
    if database is None:
        return topology, "", nodes, linker
    try:
        net = read_net(topology, database)
        ordered, linker_id = order_blocks(net, nodes, linker, database)
    except ValidationError:
        return topology, "", nodes, linker
    return net.name, net.group, ordered, linker_id


def recipe_key(topology: str, nodes: tuple[str, ...], linker: str | None) -> str:
    """The key of a built MOF: its net and PORMAKE ids (resolved names)."""
    return content_key("pormake", topology, *nodes, linker or "")


def describe_mof(facts: RunFacts) -> tuple[Entity, ...]:
    """The MOF (subject of the run's values) and, for a build, its net and blocks."""
    p = facts.parameters
    name = str(p.get("name") or "")
    if p.get("topology"):
        nodes = tuple(str(n) for n in p.get("nodes") or ())
        linker = str(p["linker"]) if p.get("linker") else None
        topology, group, nodes, linker = _resolved(str(p["topology"]), nodes, linker)
        blocks = [_block(b, "node") for b in nodes]
        links = [Link("topology", "Topology", topology)]
        links += [Link("node", "BuildingBlock", b) for b in nodes]
        if linker:
            blocks.append(_block(linker, "linker"))
            links.append(Link("linker", "BuildingBlock", linker))
        recipe = "+".join((*nodes, *((linker,) if linker else ())))
        attributes = {"source": "PORMAKE", "recipe": f"{topology}:{recipe}"}
        if name:
            attributes["name"] = name
        mof = Entity(
            "MOF",
            recipe_key(topology, nodes, linker),
            f"{topology}-{recipe}",
            attributes,
            tuple(links),
            subject=True,
        )
        net_attributes = {"spaceGroup": group} if group else {}
        return (mof, Entity("Topology", topology, topology, net_attributes), *blocks)
    cif = next((f for f in facts.files if f.kind == "cif" and f.path.endswith("input.cif")), None)
    source = str(p.get("cif") or "")
    key = cif.sha256 if cif is not None else content_key("cif", source)
    attributes = {"source": "CIF", "file": source}
    if name:
        attributes["name"] = name
    return (Entity("MOF", key, f"CIF {key[:12]}", attributes, subject=True),)


DESCRIPTOR = Descriptor("mof_pores", describe_mof)
