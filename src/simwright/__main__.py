"""``python -m simwright`` runs the command line."""

from simwright.cli import main

main()
