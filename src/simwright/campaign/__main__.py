"""``python -m simwright.campaign`` runs the campaign commands alone."""

from simwright.cli.campaign import main

main()
