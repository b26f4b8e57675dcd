"""The ``lammps_clay_gcmc`` segment engine: water vapour on montmorillonite, GCMC–MD.

Systems use the ``montmorillonite`` builder (:class:`~simwright.builders.clay.ClayParameters`),
conditions need ``temperature_k`` and ``relative_humidity`` (converted to a
reservoir pressure p = RH · p_sat of SPC/E water, ideal-gas fugacity; a stated
``pressure_bar`` is refused rather than silently overridden), and
``segment.parameters`` are :class:`~simwright.campaign.clay_lammps.ClayGcmcSettings`.
The first segment of a chain builds the system, records its preparation checks
(``equilibration/preparation.json``), equilibrates it by NVT without exchanges and
starts the GCMC from that restart (its sha256 in the monitor record).

Every segment is checked: the ion count must stay the built one and the interlayer
and external counts must add up to the total (otherwise an ``EngineError``, which
the campaign retries and then escalates); the temperature is an observable the
spec bounds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from simwright.builders.clay import ClayParameters
from simwright.campaign.clay_lammps import (
    ClayGcmcResult,
    ClayGcmcSettings,
    ClaySegment,
    run_clay_segment,
)
from simwright.campaign.engine import (
    FromRestart,
    SegmentOutput,
    SegmentRequest,
    observable_problems,
)
from simwright.campaign.spec import CampaignSpec, SystemSpec
from simwright.campaign.spec_load import SpecProblem, pydantic_problems
from simwright.engines.lammps.launcher import LammpsLauncher
from simwright.errors import EngineError, ValidationError
from simwright.forcefields.clayff import clayff_sources
from simwright.forcefields.spce_vapour import humidity_pressure_bar, saturation_pressure_bar

OBSERVABLES: Final = {
    "n_water": "molecules",
    "n_interlayer": "molecules",
    "n_external": "molecules",
    "basal_spacing": "Å",
    "temperature": "K",
    "potential_energy": "eV",
}
BUILDERS: Final = ("montmorillonite",)

SECONDS_PER_ATOM_STEP: Final = 1.1e-5
"""Cost model: seconds per atom per MD step on one core (12 Å cutoff, PPPM 1e-4; 1976
atoms took 22.5 ms per step on this machine under a load of ~10 on 2 cores; a 9 Å
cutoff was barely cheaper, so the cutoff is not in the model)."""
EXCHANGE_COST_STEPS: Final = 4.0
"""One ``full_energy`` exchange attempt costs about four MD steps (measured beside the
figure above: 39.8 ms per step with 0.2 attempts per step)."""
RESTART_BYTES_PER_ATOM: Final = 250
SEGMENT_FILES_BYTES: Final = 200_000
"""Logs, thermo table, input and model record of one segment (measured order)."""
WATER_PER_CELL: Final = 20
"""Water molecules per in-plane unit cell assumed by the cost model (both faces and the
interlayer of a two-layer hydrate together; an overestimate at low RH)."""


def _validate(model: type[BaseModel], data: Mapping[str, Any], prefix: str) -> list[SpecProblem]:
    try:
        model.model_validate(dict(data))
    except PydanticValidationError as exc:
        return pydantic_problems(exc, (prefix,))
    return []


def _condition_problems(index: int, variables: Mapping[str, float]) -> list[SpecProblem]:
    field = f"conditions[{index}]"
    problems = []
    if "pressure_bar" in variables:
        problems.append(
            SpecProblem(
                f"{field}.pressure_bar",
                "lammps_clay_gcmc derives the pressure from relative_humidity "
                "(p = RH · p_sat of SPC/E); give relative_humidity, not pressure_bar",
            )
        )
    for name in ("temperature_k", "relative_humidity"):
        if name not in variables:
            problems.append(SpecProblem(f"{field}.{name}", "required by lammps_clay_gcmc"))
    if "temperature_k" in variables:
        try:
            saturation_pressure_bar(variables["temperature_k"])
        except ValidationError as exc:
            problems.append(SpecProblem(f"{field}.temperature_k", str(exc)))
    if variables.get("relative_humidity") == 0:
        problems.append(SpecProblem(f"{field}.relative_humidity", "must be greater than 0"))
    return problems


class ClaySegmentEngine:
    """Runs campaign segments of clay + water vapour with LAMMPS (see module docstring)."""

    name = "lammps_clay_gcmc"

    def __init__(
        self, launcher: Callable[[], LammpsLauncher], *, timeout_s: float | None = None
    ) -> None:
        self._make_launcher = launcher
        self._launcher: LammpsLauncher | None = None
        self.timeout_s = timeout_s

    def observables(self) -> Mapping[str, str]:
        """Water counts (molecules), basal spacing (Å), temperature (K), energy (eV)."""
        return OBSERVABLES

    def check_spec(self, spec: CampaignSpec) -> list[SpecProblem]:
        """Check systems, conditions, segment parameters and observables."""
        problems = _validate(ClayGcmcSettings, spec.segment.parameters, "segment.parameters")
        settings = None if problems else ClayGcmcSettings.model_validate(spec.segment.parameters)
        for index, system in enumerate(spec.systems):
            problems += self._system_problems(index, system, settings)
        for index, condition in enumerate(spec.conditions):
            problems += _condition_problems(index, condition.variables())
        if settings is not None and spec.continuation.segment_steps % settings.sample_every_steps:
            problems.append(
                SpecProblem(
                    "continuation.segment_steps",
                    f"must be a multiple of sample_every_steps ({settings.sample_every_steps})",
                )
            )
        return problems + observable_problems(spec, OBSERVABLES)

    @staticmethod
    def _system_problems(
        index: int, system: SystemSpec, settings: ClayGcmcSettings | None
    ) -> list[SpecProblem]:
        field = f"systems[{index}]"
        if system.builder not in BUILDERS:
            return [
                SpecProblem(
                    f"{field}.builder", f"must be 'montmorillonite', got {system.builder!r}"
                )
            ]
        problems = _validate(ClayParameters, system.parameters, f"{field}.parameters")
        if problems:
            return problems
        params = ClayParameters.model_validate(system.parameters)
        try:
            params.cation_count()
        except ValidationError as exc:
            problems.append(SpecProblem(f"{field}.parameters.layer_charge", str(exc)))
        if settings is not None:
            problems += [
                SpecProblem(f"{field}.parameters", p) for p in settings.box_problems(params)
            ]
        return problems

    @staticmethod
    def describe_system(spec: CampaignSpec, system: SystemSpec) -> dict[str, str]:
        """Clay, ion and water models of ``system`` with their sources (for reports)."""
        params = ClayParameters.model_validate(system.parameters)
        sources = clayff_sources()
        return {"clay": sources["clay"], "ion": sources[params.cation], "water": sources["water"]}

    def estimate_cost(self, spec: CampaignSpec) -> dict[str, float]:
        """Core-hours and disk (GB) of the whole campaign, fewest and most segments."""
        settings = ClayGcmcSettings.model_validate(spec.segment.parameters)
        cont = spec.continuation
        fewest = math.ceil(spec.max_window_steps / cont.segment_steps) * cont.segment_steps
        work = {"min": 0.0, "max": 0.0}
        disk = {"min": 0.0, "max": 0.0}
        for system in spec.systems:
            p = ClayParameters.model_validate(system.parameters)
            cells = p.cells[0] * p.cells[1]
            atoms = 80 * cells + p.cation_count() + 3 * WATER_PER_CELL * cells
            exchange = settings.exchange_attempts / settings.exchange_every_steps
            per_step = SECONDS_PER_ATOM_STEP * atoms * (1 + EXCHANGE_COST_STEPS * exchange)
            for key, steps in (("min", fewest), ("max", cont.max_local_steps)):
                total = len(spec.conditions) * steps + settings.equilibration_steps
                work[key] += per_step * total
                segments = len(spec.conditions) * math.ceil(steps / cont.segment_steps) + 1
                disk[key] += segments * (RESTART_BYTES_PER_ATOM * atoms + SEGMENT_FILES_BYTES)
        return {
            "core_hours_min": work["min"] / 3600,
            "core_hours_max": work["max"] / 3600,
            "disk_gb_min": disk["min"] / 1e9,
            "disk_gb_max": disk["max"] / 1e9,
            "cores_per_segment": 1,
        }

    def run_segment(self, request: SegmentRequest) -> SegmentOutput:
        """Run one GCMC–MD segment (after preparation and equilibration on a fresh start)."""
        segment = self._segment(request)
        if self._launcher is None:
            self._launcher = self._make_launcher()
        restart = request.start.path if isinstance(request.start, FromRestart) else None
        result = run_clay_segment(
            self._launcher, segment, request.workdir, restart=restart, timeout_s=self.timeout_s
        )
        problems = segment_problems(result.values, segment.clay.cation_count())
        if problems:
            raise EngineError(f"clay segment checks failed: {'; '.join(problems)}")
        return SegmentOutput(
            restart=result.lammps.restart_path or request.workdir / "final.restart",
            abs_start=result.abs_start,
            abs_end=result.abs_end,
            abs_steps=result.abs_steps,
            values={name: result.values[name] for name in OBSERVABLES},
            monitor=_monitor(result),
            engine_calls=tuple(
                r.call for r in (result.equilibration, result.lammps) if r is not None
            ),
        )

    @staticmethod
    def _segment(request: SegmentRequest) -> ClaySegment:
        try:
            clay = ClayParameters.model_validate(request.system.parameters)
            settings = ClayGcmcSettings.model_validate(request.spec.segment.parameters)
        except PydanticValidationError as exc:
            raise ValidationError(f"clay segment parameters: {exc}") from exc
        c = request.condition
        if c.temperature_k is None or c.relative_humidity is None:
            raise ValidationError("clay segments need temperature_k and relative_humidity")
        return ClaySegment(
            clay=clay,
            settings=settings,
            temperature_k=c.temperature_k,
            pressure_bar=humidity_pressure_bar(c.relative_humidity, c.temperature_k),
            relative_humidity=c.relative_humidity,
            steps=request.steps,
            seed=request.seed % 900_000_000 + 1,
        )


def segment_problems(values: Mapping[str, np.ndarray], expected_ions: int) -> list[str]:
    """Ion-count and partition-consistency problems of one segment's samples."""
    problems = []
    ions = values["n_ions"]
    if np.any(ions != expected_ions):
        problems.append(f"ion count left {expected_ions}: {sorted(set(ions.tolist()))}")
    parts = values["n_interlayer"] + values["n_below"] + values["n_above"]
    if np.any(parts != values["n_water"]):
        problems.append("interlayer + below + above water differs from the total")
    return problems


def _monitor(result: ClayGcmcResult) -> dict[str, float]:
    v = result.values
    monitor = {
        "insertion_acceptance": result.insertion_acceptance,
        "deletion_acceptance": result.deletion_acceptance,
        "mean_temperature_k": float(np.mean(v["temperature"])),
        "n_ions": float(v["n_ions"][-1]),
        "z_sheet1_a": float(v["z_sheet1"][-1]),
        "z_sheet2_a": float(v["z_sheet2"][-1]),
    }
    eq = result.equilibration
    if eq is not None and eq.restart_path is not None:
        monitor["equilibration_steps"] = float(eq.thermo["step"][-1])
        monitor["equilibration_final_temperature_k"] = float(eq.thermo["c_tmob"][-1])
    return monitor
