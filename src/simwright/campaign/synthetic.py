"""A synthetic segment engine: Langmuir-like loading relaxing with noise, instantly.

It stands in for a real engine in tests and in the bookkeeping benchmark: each
segment relaxes the loading exponentially towards ``capacity · K P / (1 + K P)``
with Gaussian noise from the segment's seed, and writes a small JSON "restart"
holding the system, the absolute step and the noise-free loading, so that
inheritance, hashing and provenance work exactly as with a real engine.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import numpy as np
from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from simwright.campaign.engine import (
    FromRestart,
    SegmentOutput,
    SegmentRequest,
    observable_problems,
)
from simwright.campaign.spec import CampaignSpec
from simwright.campaign.spec_load import SpecProblem, pydantic_problems
from simwright.errors import EngineError

OBSERVABLES: Final = {"n_adsorbed": "molecules", "temperature": "K"}
RESTART_NAME: Final = "final.restart.json"


class _Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SyntheticSystem(_Params):
    """Capacity (molecules), affinity K (1/bar), initial loading and absolute step."""

    capacity: float = Field(default=100.0, gt=0)
    affinity_per_bar: float = Field(default=0.05, gt=0)
    start_value: float = Field(default=0.0, ge=0)
    start_step: int = Field(default=0, ge=0)


class SyntheticSettings(_Params):
    """Sampling interval, relaxation time (steps), noise (relative), drift (per step), and
    the wall time a segment takes."""

    sample_every_steps: int = Field(default=50, gt=0)
    relaxation_steps: float = Field(default=1000.0, gt=0)
    noise: float = Field(default=0.02, ge=0)
    drift_per_step: float = Field(0.0)
    temperature_k: float = Field(default=300.0, gt=0)
    segment_wall_s: float = Field(default=0.0, ge=0, le=60)
    """Wall time each segment takes (the engine waits): stands in for a real engine's
    time where a campaign must be caught mid-way (service restarts, demos)."""


def _validate(model: type[BaseModel], data: Mapping[str, Any], prefix: str) -> list[SpecProblem]:
    try:
        model.model_validate(dict(data))
    except PydanticValidationError as exc:
        return pydantic_problems(exc, (prefix,))
    return []


class SyntheticEngine:
    """Instant synthetic segments (see the module docstring)."""

    name = "synthetic"

    def observables(self) -> Mapping[str, str]:
        """``n_adsorbed`` (molecules) and ``temperature`` (K)."""
        return OBSERVABLES

    def check_spec(self, spec: CampaignSpec) -> list[SpecProblem]:
        """Check the synthetic parameters, that every condition has a pressure, observables."""
        problems = _validate(SyntheticSettings, spec.segment.parameters, "segment.parameters")
        for index, system in enumerate(spec.systems):
            problems += _validate(
                SyntheticSystem, system.parameters, f"systems[{index}].parameters"
            )
        for index, condition in enumerate(spec.conditions):
            if condition.pressure_bar is None:
                problems.append(SpecProblem(f"conditions[{index}].pressure_bar", "is required"))
        return problems + observable_problems(spec, OBSERVABLES)

    def run_segment(self, request: SegmentRequest) -> SegmentOutput:
        """Write a synthetic restart and return synthetic samples."""
        system = SyntheticSystem.model_validate(request.system.parameters)
        settings = SyntheticSettings.model_validate(request.spec.segment.parameters)
        value, abs_start = self._start(request, system)
        if settings.segment_wall_s:
            time.sleep(settings.segment_wall_s)
        pressure = request.condition.pressure_bar or 0.0
        kp = system.affinity_per_bar * pressure
        target = system.capacity * kp / (1.0 + kp)
        every = settings.sample_every_steps
        elapsed = np.arange(every, request.steps + 1, every, dtype=np.int64)
        if elapsed.size == 0 or elapsed[-1] != request.steps:
            elapsed = np.append(elapsed, request.steps)
        relax = np.exp(-elapsed / settings.relaxation_steps)
        clean = target + (value - target) * relax + settings.drift_per_step * elapsed
        rng = np.random.default_rng(request.seed)
        noisy = clean + settings.noise * max(target, 1.0) * rng.standard_normal(elapsed.size)
        restart = request.workdir / RESTART_NAME
        abs_end = abs_start + request.steps
        state = {
            "system": request.system.name,
            "abs_step": abs_end,
            "value": float(clean[-1]),
            "seed": request.seed,  # like a real restart, it carries the random state
        }
        restart.write_text(json.dumps(state))
        return SegmentOutput(
            restart=restart,
            abs_start=abs_start,
            abs_end=abs_end,
            abs_steps=abs_start + elapsed,
            values={
                "n_adsorbed": np.maximum(noisy, 0.0),
                "temperature": np.full(elapsed.size, settings.temperature_k),
            },
            monitor={"target": target},
        )

    @staticmethod
    def _start(request: SegmentRequest, system: SyntheticSystem) -> tuple[float, int]:
        if not isinstance(request.start, FromRestart):
            return system.start_value, system.start_step
        try:
            state = json.loads(Path(request.start.path).read_text())
            value, step = float(state["value"]), int(state["abs_step"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise EngineError(
                f"synthetic restart {request.start.path} is unreadable: {exc}"
            ) from exc
        if state.get("system") != request.system.name or not math.isfinite(value):
            raise EngineError(f"synthetic restart {request.start.path} is not of this system")
        return value, step
