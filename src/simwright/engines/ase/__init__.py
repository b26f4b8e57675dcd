"""ASE as an engine: in-process calculators (EMT, Lennard-Jones, machine-learned potentials)
for energies, relaxations and molecular dynamics.
"""
