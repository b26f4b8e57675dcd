"""What a topology's ``.cgd`` file says without PORMAKE: its node types in PORMAKE's
order with their connectivity, and its space group."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simwright.engines.pormake.catalogue import (
    connection_points,
    describe_block,
    resolve_block,
    resolve_topology,
)
from simwright.errors import ValidationError


@dataclass(frozen=True)
class Net:
    """A topology: name, space group and the connectivity of each node type."""

    name: str
    group: str
    coordination: tuple[int, ...]
    edges: int


def read_net(name: str, database: Path) -> Net:
    """The net ``name`` of PORMAKE's database (refused by name when unknown)."""
    resolved = resolve_topology(name, database)
    text = (database / "topologies" / f"{resolved}.cgd").read_text(encoding="utf-8")
    group, cns, edges = "", [], 0
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "GROUP":
            group = words[1]
        elif words[0] == "NODE":
            cns.append(int(words[2]))
        elif words[0] == "EDGE":
            edges += 1
    return Net(resolved, group, tuple(cns), edges)


def order_blocks(
    net: Net, nodes: tuple[str, ...], linker: str | None, database: Path
) -> tuple[tuple[str, ...], str | None]:
    """The node blocks as PORMAKE ids in the order of the net's node types (matched by
    connectivity, so "BTC and Cu paddlewheel" and the reverse both fit tbo), and the
    linker's id. Refuses a wrong number of node blocks, a connectivity the net does not
    have, and a linker that is not 2-connected, naming what would fit."""
    wanted = ", ".join(f"{c}-c" for c in net.coordination)
    if len(nodes) != len(net.coordination):
        raise ValidationError(
            f"topology {net.name} has {len(net.coordination)} node type(s) ({wanted}); "
            f"{len(nodes)} node block(s) given ({', '.join(nodes) or 'none'})"
        )
    left = [resolve_block(n, database) for n in nodes]
    ordered = []
    for i, cn in enumerate(net.coordination):
        match = next((b for b in left if connection_points(b, database) == cn), None)
        if match is None:
            given = "; ".join(describe_block(b, database) for b in left)
            raise ValidationError(
                f"node type {i + 1} of {net.name} is {cn}-connected (the net has {wanted}); "
                f"no given block has {cn} connection points: {given}"
            )
        left.remove(match)
        ordered.append(match)
    linker_id = None
    if linker is not None:
        linker_id = resolve_block(linker, database)
        if connection_points(linker_id, database) != 2:
            raise ValidationError(
                f"a linker joins two nodes: {describe_block(linker_id, database)} is not 2-c"
            )
    return tuple(ordered), linker_id
