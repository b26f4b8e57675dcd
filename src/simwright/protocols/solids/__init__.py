"""Solid-state protocols with any energy engine (ASE calculators, LAMMPS potentials, MLIPs).

:mod:`.engine` turns a request's words into the energy engine a protocol uses; the
protocols compose the shared steps of :mod:`simwright.steps`.
"""
