"""LAMMPS: typed segment specs and their pure input templates, data files, log parsers, the
launcher, the GCMC slit-pore template and (in :mod:`.safety`) the policy every script passes
before it runs.
"""
