"""Zeo++ adapter (through the ``pyzeo`` bindings): pore geometry of a periodic framework.

Zeo++ (Willems et al., Microporous Mesoporous Mater. 149, 134 (2012)) decomposes the
void space of a crystal by a radical Voronoi tessellation of its atoms (Zeo++'s own
radii): the largest included sphere (Di), the largest free sphere that can travel
through the crystal (Df) and, by Monte Carlo sampling, the probe-accessible surface
area and volume. A call runs in a child process (:mod:`.worker`) in the step's
folder: the library prints its progress to the console's file descriptor.
"""

from __future__ import annotations

from simwright.engines.zeo.launcher import ENGINE

__all__ = ["ENGINE"]
