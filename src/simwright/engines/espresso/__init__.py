"""Quantum ESPRESSO pw.x: the typed input and its pure template, the output parser,
pseudopotential headers and library, the launcher and the contract files of a run.
"""
