"""The command line: every Typer command and Rich view of simwright lives here; the domain
packages import neither Typer nor Rich.
"""
