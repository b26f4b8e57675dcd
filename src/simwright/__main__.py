"""``python -m simwright`` runs the command line."""

from simwright.cli.entry import main

main()
