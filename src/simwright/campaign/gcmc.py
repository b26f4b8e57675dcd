"""The ``lammps_gcmc`` segment engine: GCMC–MD of a LJ gas in slit pores for campaigns.

Systems use the ``slit_pore`` builder (:class:`~simwright.engines.lammps.gcmc.SlitPore`
parameters), conditions need ``temperature_k`` and ``pressure_bar`` (the ideal-gas
reservoir pressure, fugacity coefficient 1), and ``segment.parameters`` are
:class:`~simwright.engines.lammps.gcmc.GcmcSettings`. Observables: ``n_adsorbed``
(molecules in the pore), ``temperature`` (K), ``potential_energy`` (eV, walls included).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from simwright.campaign.engine import (
    FromRestart,
    SegmentOutput,
    SegmentRequest,
    observable_problems,
)
from simwright.campaign.spec import CampaignSpec, SystemSpec
from simwright.campaign.spec_load import SpecProblem, pydantic_problems
from simwright.engines.lammps.gcmc import (
    GASES,
    GcmcCondition,
    GcmcSegment,
    GcmcSettings,
    SlitPore,
    carbon_wall,
    run_gcmc_segment,
)
from simwright.engines.lammps.launcher import LammpsLauncher
from simwright.errors import ValidationError
from simwright.jobs import JobRunner
from simwright.settings import Settings

OBSERVABLES: Final = {
    "n_adsorbed": "molecules",
    "temperature": "K",
    "potential_energy": "eV",
}
BUILDERS: Final = ("slit_pore", "default")


def gcmc_launcher(settings: Settings) -> LammpsLauncher:
    """One MPI rank, one thread: the fastest launch for GCMC of a few hundred molecules.

    ``fix gcmc ... full_energy`` recomputes the whole energy for every trial; on
    ~50 molecules two OpenMP threads made a segment about 7× slower and two MPI
    ranks about 2× slower than one plain process (measured here on 2 cores).
    """
    return LammpsLauncher.from_settings(settings, mpi_ranks=1, omp_threads=1)


def _validate(model: type[BaseModel], data: Mapping[str, Any], prefix: str) -> list[SpecProblem]:
    try:
        model.model_validate(dict(data))
    except PydanticValidationError as exc:
        return pydantic_problems(exc, (prefix,))
    return []


class GcmcSegmentEngine:
    """Runs campaign segments with LAMMPS ``fix gcmc`` (see module docstring).

    ``launcher`` is called once, on the first segment, so that checking a spec
    needs no LAMMPS installation. ``jobs`` (if given) gives the runner of a segment's
    engine call from its key (a batch scheduler: docs/cluster.md); without it LAMMPS
    runs here.
    """

    name = "lammps_gcmc"

    def __init__(
        self,
        launcher: Callable[[], LammpsLauncher],
        *,
        timeout_s: float | None = None,
        jobs: Callable[[str], JobRunner] | None = None,
    ) -> None:
        self._make_launcher = launcher
        self._launcher: LammpsLauncher | None = None
        self.timeout_s = timeout_s
        self._jobs = jobs

    def observables(self) -> Mapping[str, str]:
        """``n_adsorbed`` (molecules), ``temperature`` (K), ``potential_energy`` (eV)."""
        return OBSERVABLES

    def check_spec(self, spec: CampaignSpec) -> list[SpecProblem]:
        """Check systems, conditions, segment parameters and observables."""
        problems = _validate(GcmcSettings, spec.segment.parameters, "segment.parameters")
        settings = None if problems else GcmcSettings.model_validate(spec.segment.parameters)
        for index, system in enumerate(spec.systems):
            problems += self._system_problems(index, system.builder, system.parameters, settings)
        for index, condition in enumerate(spec.conditions):
            problems += _validate(GcmcCondition, condition.variables(), f"conditions[{index}]")
        if settings is not None and spec.continuation.segment_steps % settings.sample_every_steps:
            problems.append(
                SpecProblem(
                    "continuation.segment_steps",
                    f"{spec.continuation.segment_steps} is not a multiple of "
                    f"segment.parameters.sample_every_steps ({settings.sample_every_steps})",
                )
            )
        return problems + observable_problems(spec, OBSERVABLES)

    @staticmethod
    def _system_problems(
        index: int, builder: str, parameters: Mapping[str, Any], settings: GcmcSettings | None
    ) -> list[SpecProblem]:
        field = f"systems[{index}]"
        if builder not in BUILDERS:
            return [SpecProblem(f"{field}.builder", f"must be 'slit_pore', got {builder!r}")]
        problems = _validate(SlitPore, parameters, f"{field}.parameters")
        if not problems and settings is not None:
            pore = SlitPore.model_validate(parameters)
            problems = [SpecProblem(f"{field}.parameters", p) for p in settings.pore_problems(pore)]
        return problems

    @staticmethod
    def describe_system(spec: CampaignSpec, system: SystemSpec) -> dict[str, str]:
        """The gas and wall models of ``system`` with their sources (for reports)."""
        pore = SlitPore.model_validate(system.parameters)
        settings = GcmcSettings.model_validate(spec.segment.parameters)
        gas = GASES[pore.gas]
        wall = carbon_wall(gas, settings.wall_cutoff_a, pore.wall)
        return {"gas": gas.reference, "wall": wall.reference}

    def run_segment(self, request: SegmentRequest) -> SegmentOutput:
        """Run one GCMC–MD segment with LAMMPS in ``request.workdir``."""
        segment = self._segment(request)
        if self._launcher is None:
            self._launcher = self._make_launcher()
        restart = request.start.path if isinstance(request.start, FromRestart) else None
        launcher = self._launcher
        if self._jobs is not None:
            key = f"{request.campaign_id}/{request.system.name}/{request.condition.name}"
            launcher = dataclasses.replace(launcher, runner=self._jobs(f"{key}/{request.seed}"))
        result = run_gcmc_segment(
            launcher, segment, request.workdir, restart=restart, timeout_s=self.timeout_s
        )
        return SegmentOutput(
            restart=result.lammps.restart_path or request.workdir / "final.restart",
            abs_start=result.abs_start,
            abs_end=result.abs_end,
            abs_steps=result.abs_steps,
            values={
                "n_adsorbed": result.n_molecules,
                "temperature": result.temperature_k,
                "potential_energy": result.potential_energy_ev,
            },
            monitor={
                "insertion_acceptance": result.insertion_acceptance,
                "deletion_acceptance": result.deletion_acceptance,
                "mean_temperature_k": float(np.mean(result.temperature_k)),
            },
            engine_calls=(result.lammps.call,),
        )

    @staticmethod
    def _segment(request: SegmentRequest) -> GcmcSegment:
        try:
            return GcmcSegment(
                pore=SlitPore.model_validate(request.system.parameters),
                settings=GcmcSettings.model_validate(request.spec.segment.parameters),
                condition=GcmcCondition.model_validate(request.condition.variables()),
                steps=request.steps,
                seed=request.seed,
            )
        except PydanticValidationError as exc:
            raise ValidationError(f"GCMC segment parameters: {exc}") from exc
