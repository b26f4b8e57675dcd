"""The seam between the campaign and whatever runs a segment.

A :class:`SegmentEngine` runs one segment of one state in a directory it is
given, from a fresh system or from a restart file, and returns the samples of
the observables at absolute engine steps plus the restart it wrote. The
campaign owns everything else: local steps, windows, decisions, provenance.
The real engine is :class:`~simwright.campaign.gcmc.GcmcSegmentEngine` (LAMMPS
``fix gcmc``); :class:`~simwright.campaign.synthetic.SyntheticEngine` returns
synthetic observables instantly for tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from simwright.campaign.spec import CampaignSpec, ConditionSpec, SystemSpec
from simwright.campaign.spec_load import SpecProblem
from simwright.errors import EngineError
from simwright.store.records import EngineCall


@dataclass(frozen=True)
class FreshStart:
    """Build the system from its builder parameters (the first state of a chain)."""


@dataclass(frozen=True)
class FromRestart:
    """Continue from a restart file whose content hash the campaign has verified."""

    path: Path
    sha256: str


Start = FreshStart | FromRestart
"""Where a segment's atoms come from."""


@dataclass(frozen=True)
class SegmentRequest:
    """One segment to run: which state, from where, for how many steps, where.

    ``seed`` is derived by the campaign from the spec's seed, the chain, the state
    and the segment index, so a re-run of an interrupted segment uses the same one.
    """

    campaign_id: str
    spec: CampaignSpec
    system: SystemSpec
    condition: ConditionSpec
    workdir: Path
    start: Start
    steps: int
    seed: int


@dataclass(frozen=True)
class SegmentOutput:
    """What a segment produced.

    ``abs_steps`` are the absolute engine steps of the samples, after the start
    (the state at ``abs_start`` itself is not a sample of this segment);
    ``values`` holds one array per observable, aligned with ``abs_steps``;
    ``monitor`` holds diagnostics of the segment (acceptance ratios...).
    """

    restart: Path
    abs_start: int
    abs_end: int
    abs_steps: np.ndarray
    values: Mapping[str, np.ndarray]
    monitor: Mapping[str, float] = field(default_factory=dict)
    engine_calls: tuple[EngineCall, ...] = ()

    def check(self, steps: int, observables: tuple[str, ...]) -> None:
        """Raise :class:`EngineError` when the output is incomplete or inconsistent."""
        if not self.restart.is_file():
            raise EngineError(f"segment wrote no restart file {self.restart}")
        if self.abs_end - self.abs_start != steps:
            raise EngineError(
                f"segment ran {self.abs_end - self.abs_start} steps instead of {steps} "
                f"(absolute {self.abs_start} -> {self.abs_end})"
            )
        if self.abs_steps.size == 0:
            raise EngineError("segment reported no samples")
        missing = [name for name in observables if name not in self.values]
        if missing:
            raise EngineError(f"segment did not report observable(s) {', '.join(missing)}")
        for name in observables:
            if len(self.values[name]) != self.abs_steps.size:
                raise EngineError(f"observable {name!r} has a different number of samples")


class SegmentEngine(Protocol):
    """Runs segments of campaign states; injected into the campaign runner."""

    name: str

    def observables(self) -> Mapping[str, str]:
        """The observables this engine reports, with their units."""
        ...

    def check_spec(self, spec: CampaignSpec) -> list[SpecProblem]:
        """Problems of a spec's systems, conditions and segment parameters for this engine."""
        ...

    def run_segment(self, request: SegmentRequest) -> SegmentOutput:
        """Run one segment in ``request.workdir``; raise an ``EngineError`` on failure."""
        ...


def observable_problems(spec: CampaignSpec, known: Mapping[str, str]) -> list[SpecProblem]:
    """Spec observables the engine does not report, or with another unit."""
    problems = []
    for index, obs in enumerate(spec.observables):
        field = f"observables[{index}]"
        if obs.name not in known:
            problems.append(
                SpecProblem(
                    f"{field}.name",
                    f"engine {spec.segment.engine!r} reports no {obs.name!r} "
                    f"(it reports: {', '.join(known)})",
                )
            )
        elif obs.unit and obs.unit != known[obs.name]:
            problems.append(
                SpecProblem(
                    f"{field}.unit",
                    f"{obs.name!r} is reported in {known[obs.name]!r}, not {obs.unit!r}",
                )
            )
    return problems
