"""Liquid-state protocols run by LAMMPS: self-diffusion, thermal conductivity, density,
structure, viscosity and ionic conductivity of the liquids in :mod:`.systems`.
"""
