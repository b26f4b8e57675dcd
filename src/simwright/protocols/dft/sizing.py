"""The preflight estimate of the pw.x protocols: the recommender's input, rendered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simwright.dft.recommender import recommend
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.engines.espresso.template import render
from simwright.protocols.estimate import Estimate, scf_estimate
from simwright.settings import Settings


def dft_estimate(params: Any, settings: Settings) -> Estimate:
    """pw.x calls on the recommended structure: one, or one per volume of an EOS scan.

    Runs the recommender and renders its input (no pw.x), so a request that cannot
    become a valid input (no pseudopotential, an override of a variable the template
    manages such as ``nat`` or ``ibrav``...) is refused here.
    """
    rec = _recommend(params, settings)
    calls = int(getattr(params, "n_points", 1))
    return scf_estimate(len(rec.structure), calls, params.calculation)


def _recommend(params: Any, settings: Settings) -> Any:

    dirs = (*default_pseudo_dirs(settings.home), *(Path(d) for d in params.pseudo_dirs))
    rec = recommend(params, PseudoLibrary(dirs))
    render(rec.template)  # refuses overrides of the variables the template manages
    return rec
