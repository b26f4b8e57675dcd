"""``python -m simwright.campaign`` runs the campaign commands alone."""

from simwright.campaign.cli import main

main()
