"""The build stage of the pw.x protocols: structure, pseudopotentials, the whole input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simwright.dft.recommender import recommend
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.errors import EngineError
from simwright.protocols.inputs import BuiltInputs
from simwright.settings import Settings


def dft_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """The structure, pseudopotentials and complete pw.x input of a DFT protocol."""
    dirs = (*default_pseudo_dirs(settings.home), *(Path(d) for d in params.pseudo_dirs))
    rec = recommend(params, PseudoLibrary(dirs))
    pw = PwLauncher.from_settings(settings)
    if not pw.available():
        raise EngineError(f"pw.x is needed and was not found ({pw.executable})")
    summary = rec.as_dict()
    pseudos = ", ".join(f"{e}: {f}" for e, f in (summary.get("pseudopotentials") or {}).items())
    return BuiltInputs(
        (
            f"structure: {summary['structure']} ({len(rec.structure.symbols)} atoms)",
            f"pseudopotentials: {pseudos}",
            f"k-points: {rec.template.kpoints.describe()}",
            f"input: pw.x, {len(rec.parameters)} parameters",
            f"engine: {pw.executable}",
        )
    )
