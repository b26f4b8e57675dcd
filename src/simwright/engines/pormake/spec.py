"""What a PORMAKE build takes and gives, as plain values (the worker's JSON contract)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

INPUT_NAME = "pormake.json"
OUTPUT_NAME = "framework.json"
MAX_RMSD_A = 0.3
"""Largest RMSD (Å) of a node's connection points on its topology site that a build
accepts; PORMAKE's authors screen with 0.3 Å (Lee et al. 2021)."""


@dataclass(frozen=True)
class FrameworkSpec:
    """A framework to build: topology, one node block per node type (in PORMAKE's type
    order), and one linker block for every edge type (None: nodes bonded directly)."""

    topology: str
    nodes: tuple[str, ...]
    linker: str | None = None
    max_rmsd_a: float = MAX_RMSD_A

    def as_json(self) -> dict[str, object]:
        """The worker's input."""
        return {
            "topology": self.topology,
            "nodes": list(self.nodes),
            "linker": self.linker,
            "max_rmsd": self.max_rmsd_a,
        }


@dataclass(frozen=True)
class BuiltFramework:
    """A framework as PORMAKE built it: atoms in a periodic cell, and how well each
    node block fitted its site (RMSD of the connection points, Å)."""

    symbols: tuple[str, ...]
    positions_a: np.ndarray
    cell_a: np.ndarray
    node_rmsd_a: tuple[float, ...]
    coordination: tuple[int, ...]
    edge_types: int
