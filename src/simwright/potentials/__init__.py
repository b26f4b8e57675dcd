"""Interatomic potentials as cited data: the LAMMPS potential files and their provenance.

:mod:`~simwright.potentials.catalogue` reads the files (style, elements, citation),
:mod:`~simwright.potentials.published` records values from a few potentials' own
papers and experiment, :mod:`~simwright.potentials.selection` chooses one by element
and name, refusing unknown names by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.lazy import lazy_exports

if TYPE_CHECKING:
    from simwright.potentials.catalogue import (
        NO_CITATION,
        Catalogue,
        Potential,
        read_catalogue,
        read_potential,
    )
    from simwright.potentials.published import (
        EXPERIMENT,
        PUBLISHED,
        PublishedValues,
        experiment_references,
        published_for,
    )
    from simwright.potentials.selection import PotentialNotFound, select_potential

_WHERE = {
    "Catalogue": "catalogue",
    "EXPERIMENT": "published",
    "experiment_references": "published",
    "NO_CITATION": "catalogue",
    "Potential": "catalogue",
    "PotentialNotFound": "selection",
    "PUBLISHED": "published",
    "published_for": "published",
    "PublishedValues": "published",
    "read_catalogue": "catalogue",
    "read_potential": "catalogue",
    "select_potential": "selection",
}

__all__ = [
    "EXPERIMENT",
    "NO_CITATION",
    "PUBLISHED",
    "Catalogue",
    "Potential",
    "PotentialNotFound",
    "PublishedValues",
    "experiment_references",
    "published_for",
    "read_catalogue",
    "read_potential",
    "select_potential",
]

__getattr__ = lazy_exports(__name__, _WHERE)
