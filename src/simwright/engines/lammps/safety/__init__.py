"""The LAMMPS safety policy: a reader of scripts as LAMMPS reads them, variable expansion, per-
command rules, file-path confinement, and the dry run.
"""
