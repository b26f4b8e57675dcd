"""Actions shared by the DFT post-processing protocols (``dft_bands``, ``dft_dos``).

An SCF run that keeps pw.x's saved data, non-self-consistent runs started from it
(both inside the error-recovery machine), the QE tools on their data, and the
standard band path of a cell.

The path is ASE's (:meth:`ase.cell.Cell.bandpath`, the Setyawan–Curtarolo special
points of the Bravais lattice, found by ASE for the cell pw.x runs on — the
primitive cell the recommender builds — and expressed in that cell's reciprocal
coordinates), so no cell is standardised or rotated.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from ase.cell import Cell

from simwright.dft.recommender import recommend
from simwright.dft.request import DftRequest
from simwright.engines.espresso.postproc import Tool, ToolRun, run_tool
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.engines.espresso.pw import PwRun
from simwright.engines.espresso.template import KPoints, PwInput, Value, render
from simwright.errors import EngineError
from simwright.graph import RunContext
from simwright.protocols.dft.common import record_recovery, require_success, run_with_recovery
from simwright.protocols.estimate import Estimate, scf_estimate
from simwright.results import ArtifactRef
from simwright.settings import Settings
from simwright.structure import Structure


class PropertyRequest(DftRequest):
    """A DFT request of a post-processing or energy-difference protocol; ``formula``,
    ``lattice`` and ``facet`` read its structure the way its request was read (the
    flat form of the knowledge modules)."""

    @property
    def formula(self) -> str:
        """The material (element, formula or prototype name)."""
        return self.structure.name

    @property
    def lattice(self) -> str | None:
        """The lattice named in the request, if any."""
        return self.structure.lattice

    @property
    def facet(self) -> str | None:
        """The surface's Miller index, if any."""
        return self.structure.facet

    @property
    def a_a(self) -> float | None:
        """The lattice constant the request states (Å), if any."""
        return self.structure.a_a


def scf_kept(
    ctx: RunContext, params: DftRequest, template: PwInput, valence: float, name: str = "scf"
) -> PwRun:
    """The SCF run (recovery machine) whose saved data stays in its attempt folder."""
    outcome = run_with_recovery(
        ctx, params, template, valence, ctx.workdir / name, keep_scratch=True
    )
    record_recovery(ctx, outcome, f"recovery-{name}.json")
    return require_success(outcome)


def n_bands(valence: float, *, extra: int) -> int:
    """Bands of a non-self-consistent run: the filled ones, 20 % more, plus ``extra``."""
    filled = math.ceil(valence / 2)
    return max(filled + extra, math.ceil(1.2 * filled) + extra)


def nscf_input(
    scf: PwInput,
    calculation: str,
    kpoints: KPoints,
    nbnd: int,
    system: dict[str, Value | None] | None = None,
) -> PwInput:
    """The SCF input turned into an ``nscf``/``bands`` run on ``kpoints`` with ``nbnd``."""
    changes: dict[str, dict[str, Value | None]] = {
        "control": {"calculation": calculation, "tprnfor": None, "tstress": None},
        "system": {"nbnd": nbnd, **(system or {})},
    }
    return replace(scf.with_values(changes), kpoints=kpoints)


def nscf_kept(
    ctx: RunContext,
    params: DftRequest,
    inp: PwInput,
    valence: float,
    scf: PwRun,
    name: str,
) -> PwRun:
    """A non-self-consistent run from the SCF's saved data (recovery machine, data kept)."""
    outcome = run_with_recovery(
        ctx, params, inp, valence, ctx.workdir / name, keep_scratch=True, seed=scf.workdir
    )
    record_recovery(ctx, outcome, f"recovery-{name}.json")
    return require_success(outcome)


def tool_in_step(
    ctx: RunContext,
    tool: Tool,
    values: dict[str, Value],
    where: Path,
    plot: dict[str, Value] | None = None,
) -> ToolRun:
    """Run a QE tool in ``where`` (which holds pw.x's data), record it, fail loudly."""
    run = run_tool(tool, values, where, plot=plot, timeout_s=ctx.settings.limits.engine_timeout_s)
    ctx.engine_call(run.call)
    if not run.valid:
        raise EngineError("; ".join(run.problems), tail=run.call.stdout_tail)
    return run


@dataclass(frozen=True, eq=False)
class BandPath:
    """A band path: k-points (reciprocal crystal coordinates), distance along the path
    (Å⁻¹, with 2π), the special points' positions and labels."""

    kpoints: KPoints
    distance: np.ndarray
    label_x: np.ndarray
    labels: tuple[str, ...]
    special: dict[str, tuple[float, float, float]]
    path: str

    def label_at(self, index: int) -> str:
        """The special point at k-point ``index``, or 'between A and B' on the path."""
        k = np.array(self.kpoints.points[index])
        for name, point in self.special.items():
            if np.allclose(k, point, atol=1e-6):
                return name
        x = self.distance[index]
        after = int(np.searchsorted(self.label_x, x, side="right"))
        if 0 < after < len(self.labels):
            return f"between {self.labels[after - 1]} and {self.labels[after]}"
        return "on the path"


def _pretty(label: str) -> str:
    return "Γ" if label == "G" else label


def band_path(structure: Structure, npoints: int) -> BandPath:
    """ASE's standard path of the cell of ``structure`` with about ``npoints`` points."""

    path = Cell(np.asarray(structure.cell)).bandpath(npoints=npoints)
    x, label_x, labels = path.get_linear_kpoint_axis()
    points = tuple((float(a), float(b), float(c)) for a, b, c in path.kpts)
    special = {
        _pretty(k): (float(v[0]), float(v[1]), float(v[2])) for k, v in path.special_points.items()
    }
    return BandPath(
        KPoints("crystal", points=points),
        np.asarray(x) * 2 * math.pi,
        np.asarray(label_x) * 2 * math.pi,
        tuple(_pretty(lbl) for lbl in labels),
        special,
        path.path.replace("G", "Γ"),
    )


def write_json(
    ctx: RunContext, name: str, data: dict[str, Any], kind: str, what: str
) -> ArtifactRef:
    """Write ``data`` as JSON in the step directory and record it."""
    path = ctx.workdir / name
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str))
    return ctx.artifact(path, kind, what)


def pw_estimate(extra_calls: Callable[[Structure], int]) -> Callable[[Any, Settings], Estimate]:
    """The preflight estimate of a post-processing protocol: the recommender runs (so an
    impossible request is refused before a run exists), and the SCF plus
    ``extra_calls(structure)`` pw.x calls of the recommended structure's size are counted."""

    def estimate(params: Any, settings: Settings) -> Estimate:

        dirs = (*default_pseudo_dirs(settings.home), *(Path(d) for d in params.pseudo_dirs))
        rec = recommend(params, PseudoLibrary(dirs))
        render(rec.template)
        return scf_estimate(len(rec.structure), 1 + extra_calls(rec.structure), "scf")

    return estimate
