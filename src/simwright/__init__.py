"""simwright: expert-level automation of atomistic simulation.

Expert procedures are typed graphs of steps run by real engines (ASE, LAMMPS,
PACKMOL, pw.x); every step, file, engine call and decision is recorded in a
provenance store so that results can be audited and interrupted runs resumed.
"""

__version__ = "0.1.0"
