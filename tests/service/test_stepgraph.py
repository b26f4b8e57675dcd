"""The step graph's layered layout (``dashboard/stepgraph.py``) on small graphs: layers by
the longest path from the entry, a loop's closing edge routed round the right, the run's
path marked."""

from __future__ import annotations

from simwright.service.dashboard.stepgraph import DONE, back_edges, layer_of, layout

BRANCHING = {"Judge": ("Keep", "Redo"), "Keep": (DONE,), "Redo": (DONE,)}
LOOPING = {"Build": ("Scan",), "Scan": ("Fit",), "Fit": ("Scan", DONE)}
SKIPPING = {"Build": ("Relax", "Scan"), "Relax": ("Scan",), "Scan": ("Scan", DONE)}


def test_layers_follow_the_longest_path_from_the_entry() -> None:
    assert layer_of(["Judge", "Keep", "Redo"], BRANCHING, set()) == {
        "Judge": 0,
        "Keep": 1,
        "Redo": 1,
        DONE: 2,
    }
    view = layout(["Judge", "Keep", "Redo"], BRANCHING, {}, set())
    at = {n.name: n for n in view.nodes}
    assert at["Judge"].y < at["Keep"].y == at["Redo"].y < at[DONE].y
    assert at["Keep"].x < at["Redo"].x  # the order the graph lists them
    assert all(n.x + n.width <= view.width and n.y + n.height <= view.height for n in view.nodes)
    assert not any(n.executed for n in view.nodes) and at["Keep"].status == "not started"
    assert "No step has run yet" in view.description
    names = ["Build", "Relax", "Scan"]
    assert back_edges(names, SKIPPING) == {("Scan", "Scan")}  # a step repeating itself
    assert layer_of(names, SKIPPING, {("Scan", "Scan")}) == {
        "Build": 0,
        "Relax": 1,
        "Scan": 2,  # below Relax, though Build reaches it directly
        DONE: 3,
    }


def test_the_path_taken_is_marked_and_loops_go_round_the_right() -> None:
    statuses = {"Build": "completed", "Scan": "completed", "Fit": "running"}
    taken = {("Build", "Scan"), ("Scan", "Fit"), ("Fit", "Scan")}
    view = layout(["Build", "Scan", "Fit"], LOOPING, statuses, taken)
    edges = {(e.source, e.target): e for e in view.edges}
    assert set(edges) == {("Build", "Scan"), ("Scan", "Fit"), ("Fit", "Scan"), ("Fit", DONE)}
    assert edges["Fit", "Scan"].back and edges["Fit", "Scan"].taken
    assert not edges["Fit", DONE].taken and not edges["Scan", "Fit"].back
    at = {n.name: n for n in view.nodes}
    assert [at[n].executed for n in ("Build", "Scan", "Fit", DONE)] == [True, True, True, False]
    assert (at["Fit"].status, at[DONE].status) == ("running", "not reached")
    assert "Steps run: Build, Scan, Fit." in view.description
