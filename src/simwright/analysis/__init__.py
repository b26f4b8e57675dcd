"""Analysis of simulation output: diffusion, Green–Kubo, density and convergence statistics.

Every module here is pure: functions take numpy arrays (in simwright's canonical units,
named in the argument names) and return frozen dataclasses. Reading files is kept at the
edge, in :mod:`simwright.analysis.trajectory_io`. freud and MDAnalysis stay behind these
functions; callers never see their objects.
"""
