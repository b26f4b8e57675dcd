"""PORMAKE adapter: reticular frameworks (MOFs) from a topology and building blocks.

PORMAKE (Lee et al., ACS Appl. Mater. Interfaces 13, 23647 (2021)) ships 2404
topologies (RCSR nets) and 867 building blocks offline. Names are checked against
its database folder without importing the package (:mod:`.catalogue`); a build runs
in a child process (:mod:`.worker`) in the step's folder, because importing PORMAKE
opens a log file in the current directory and prints to the console.
"""

from __future__ import annotations

from simwright.engines.pormake.launcher import ENGINE

__all__ = ["ENGINE"]
