"""A protocol's step graph laid out for an inline SVG, with the run's path on it.

Nodes are the graph's step classes plus the terminal ``Done``; edges are the graph's
``edges``. The layout is layered, top to bottom: a step's layer is its distance (in
edges) from the entry step; within a layer, steps are ordered by the mean position of
their predecessors in the layers above (ties: the order the graph lists them). An edge
to the same or an earlier layer (a loop back) is routed around the right-hand side.
The template writes the ``<svg>``; this module only computes positions and marks which
steps ran and which edges the run took (each step's recorded ``successor``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

DONE = "Done"
"""The terminal node (as in the graph's edges and the steps' recorded successors)."""

NODE_H = 40
LAYER_GAP = 34
NODE_GAP = 18
PAD = 12
LOOP_MARGIN = 36
CHAR_W = 7.2
"""Approximate width of one character of the node labels (13 px sans-serif), in px."""


@dataclass(frozen=True)
class Node:
    """A step (or ``Done``) at its place: top-left corner, size, status and whether it ran."""

    name: str
    x: float
    y: float
    width: float
    height: float
    status: str
    executed: bool
    terminal: bool = False

    @property
    def cx(self) -> float:
        """The horizontal centre."""
        return self.x + self.width / 2


@dataclass(frozen=True)
class Edge:
    """An edge drawn as an SVG path; ``taken`` when the run went along it."""

    source: str
    target: str
    path: str
    taken: bool
    back: bool


@dataclass(frozen=True)
class StepGraphView:
    """The laid-out graph: the box, nodes, edges and a description in words."""

    width: float
    height: float
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    description: str


def back_edges(names: Sequence[str], edges: Mapping[str, Sequence[str]]) -> set[tuple[str, str]]:
    """The edges that close a loop: in a depth-first walk from the first step, those
    leading back to a step still being walked (a step to itself included)."""
    back: set[tuple[str, str]] = set()
    walking: set[str] = set()
    done: set[str] = set()
    stack: list[tuple[str, int]] = [(names[0], 0)]
    walking.add(names[0])
    while stack:
        node, i = stack.pop()
        targets = edges.get(node, ())
        if i == len(targets):
            walking.discard(node)
            done.add(node)
            continue
        stack.append((node, i + 1))
        target = targets[i]
        if target in walking:
            back.add((node, target))
        elif target not in done:
            walking.add(target)
            stack.append((target, 0))
    return back


def layer_of(
    names: Sequence[str], edges: Mapping[str, Sequence[str]], back: set[tuple[str, str]]
) -> dict[str, int]:
    """Each node's layer: the longest path to it from the first step, loops (``back``
    edges) left out, so every other edge points down."""
    nodes = [*names, DONE]
    forward = {s: [t for t in edges.get(s, ()) if (s, t) not in back] for s in names}
    incoming = {n: 0 for n in nodes}
    for targets in forward.values():
        for t in targets:
            incoming[t] += 1
    layer = dict.fromkeys(nodes, 0)
    ready = [n for n in nodes if incoming[n] == 0]
    while ready:
        source = ready.pop(0)
        for t in forward.get(source, ()):
            layer[t] = max(layer[t], layer[source] + 1)
            incoming[t] -= 1
            if incoming[t] == 0:
                ready.append(t)
    return layer


def ordered_layers(
    names: Sequence[str], edges: Mapping[str, Sequence[str]], layer: Mapping[str, int]
) -> list[list[str]]:
    """Nodes by layer, each layer ordered by its predecessors' mean position above."""
    rank = {n: i for i, n in enumerate([*names, DONE])}
    rows: list[list[str]] = [[] for _ in range(max(layer.values()) + 1)]
    for name in sorted(layer, key=rank.__getitem__):
        rows[layer[name]].append(name)
    position: dict[str, float] = {}
    for row in rows:
        row.sort(key=lambda n: (_barycentre(n, edges, layer, position), rank[n]))
        position.update({n: float(i) for i, n in enumerate(row)})
    return [row for row in rows if row]


def _barycentre(
    name: str,
    edges: Mapping[str, Sequence[str]],
    layer: Mapping[str, int],
    position: Mapping[str, float],
) -> float:
    above = [
        position[s]
        for s, targets in edges.items()
        if name in targets and s in position and layer[s] < layer[name]
    ]
    return sum(above) / len(above) if above else 0.0


def layout(
    names: Sequence[str],
    edges: Mapping[str, Sequence[str]],
    statuses: Mapping[str, str],
    taken: set[tuple[str, str]],
) -> StepGraphView:
    """Lay out the graph of steps ``names`` (the first is the entry) with ``edges``;
    ``statuses`` are the run's latest status of each step that ran, ``taken`` the
    (step, successor) pairs the run recorded."""
    back = back_edges(names, edges)
    layer = layer_of(names, edges, back)
    rows = ordered_layers(names, edges, layer)
    width = max(CHAR_W * len(n) for n in layer) + 2 * PAD
    widest = max(len(row) for row in rows)
    inner = widest * width + (widest - 1) * NODE_GAP
    reached = any(t == DONE for _, t in taken)
    pairs = [(s, t) for s in names for t in edges.get(s, ())]
    skips = any((s, t) not in back and layer[t] - layer[s] > 1 for s, t in pairs)
    margin_left, margin_right = LOOP_MARGIN * skips, LOOP_MARGIN * bool(back)
    nodes: dict[str, Node] = {}
    for i, row in enumerate(rows):
        left = PAD + margin_left + (inner - (len(row) * width + (len(row) - 1) * NODE_GAP)) / 2
        for j, name in enumerate(row):
            terminal = name == DONE
            status = ("completed" if reached else "not reached") if terminal else None
            nodes[name] = Node(
                name=name,
                x=round(left + j * (width + NODE_GAP), 1),
                y=PAD + i * (NODE_H + LAYER_GAP),
                width=round(width, 1),
                height=NODE_H,
                status=status or statuses.get(name, "not started"),
                executed=reached if terminal else name in statuses,
                terminal=terminal,
            )
    right = PAD + margin_left + inner
    drawn = [
        _edge(nodes[s], nodes[t], (s, t) in taken, (s, t) in back, right, layer[t] - layer[s])
        for s, t in pairs
    ]
    ran = [n for n in names if n in statuses]
    description = f"{len(names)} steps in {len(rows)} layers, from {names[0]} to Done. " + (
        f"Steps run: {', '.join(ran)}." if ran else "No step has run yet."
    )
    return StepGraphView(
        width=round(right + margin_right + PAD, 1),
        height=PAD * 2 + len(rows) * NODE_H + (len(rows) - 1) * LAYER_GAP,
        nodes=tuple(nodes[n] for row in rows for n in row),
        edges=tuple(drawn),
        description=description,
    )


def _edge(a: Node, b: Node, taken: bool, back: bool, right: float, span: int) -> Edge:
    ay, by = a.y + a.height / 2, b.y + b.height / 2
    if back:  # out of a's right side, round the right margin, into b's right side
        x = right + LOOP_MARGIN * 0.8
        if a is b:
            ay, by = a.y + a.height * 0.3, a.y + a.height * 0.7
        path = f"M{a.x + a.width},{ay} C{x},{ay} {x},{by} {b.x + b.width},{by}"
    elif span > 1:  # out of a's left side, round the left margin, into b's left side
        x = max(PAD, a.x - LOOP_MARGIN * (0.5 + 0.15 * span))
        path = f"M{a.x},{ay} C{x},{ay} {x},{by} {b.x},{by}"
    else:
        y1, y2 = a.y + a.height, b.y
        mid = (y1 + y2) / 2
        path = f"M{a.cx:.1f},{y1} C{a.cx:.1f},{mid} {b.cx:.1f},{mid} {b.cx:.1f},{y2}"
    return Edge(a.name, b.name, path, taken, back)
