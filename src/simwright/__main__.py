"""``python -m simwright`` runs the command line."""

from simwright.cli.main import main

main()
