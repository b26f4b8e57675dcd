"""The campaign specification: a pydantic schema of what to run and when to stop.

A campaign is many systems times an ordered path of conditions. Each state is
advanced by segments of the ``segment`` protocol until the ``acceptance`` rules
say it is done; the next condition then starts from the accepted restart. Units
are in the field names (``pressure_bar``, ``window_steps``); steps are always
local steps, counted from the moment a state is entered.

:func:`simwright.campaign.spec_load.load_spec` reads one from YAML with error
messages that name the field and the problem.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from simwright.campaign.status import EventKind

Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")]
"""A name usable in paths: letters, digits, ``_``, ``.``, ``-`` (at most 64 characters)."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SystemSpec(_Model):
    """One system: a name and what the engine's builder needs to make it."""

    name: Name
    builder: str = Field(default="default", min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)


class ConditionSpec(_Model):
    """One condition of the ordered path; the engine says which fields it needs."""

    name: Name
    pressure_bar: float | None = Field(default=None, gt=0)
    temperature_k: float | None = Field(default=None, gt=0)
    relative_humidity: float | None = Field(default=None, ge=0, le=1)

    def variables(self) -> dict[str, float]:
        """The fields this condition sets, by name."""
        names = ("pressure_bar", "temperature_k", "relative_humidity")
        return {n: v for n in names if (v := getattr(self, n)) is not None}


class SegmentProtocol(_Model):
    """The engine that runs one segment, and its parameters (checked by that engine)."""

    engine: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)


class ObservableSpec(_Model):
    """A time series the engine reports for every sample of a segment."""

    name: Name
    unit: str = ""
    description: str = ""


class AcceptanceRule(_Model):
    """When one observable is converged, judged on the most recent window of local steps.

    With ``scale = max(|mean|, scale_floor)`` over the window: the scatter
    ``std / scale`` must not exceed ``cv_max`` and the change of the least-squares
    line across the window, ``|slope| * window / scale``, must not exceed
    ``trend_max``. Both tests together: a draining state can have a small scatter.
    ``scale_floor`` (in the observable's unit) keeps a nearly empty state from
    being judged on a vanishing mean.
    """

    window_steps: int = Field(gt=0)
    cv_max: float = Field(gt=0)
    trend_max: float = Field(gt=0)
    scale_floor: float = Field(default=0.0, ge=0)
    min_samples: int = Field(default=5, ge=3)


class ContinuationPolicy(_Model):
    """How a state is advanced: segment length and its budget, both in local steps."""

    segment_steps: int = Field(gt=0)
    max_local_steps: int = Field(gt=0)
    max_attempts: int = Field(default=2, ge=1)
    """Engine attempts of one segment before an UNKNOWN_FAILURE is raised."""


class Bounds(_Model):
    """Values an observable must stay within (an excursion is a CONVERGENCE_ANOMALY)."""

    min: float | None = None
    max: float | None = None


class MonotonicTrigger(_Model):
    """Expect accepted values to move in one direction along the path.

    A value that moves the other way by more than ``tolerance_sigma`` times the
    combined temporal standard deviation of the two windows raises NEEDS_REASONING.
    """

    observable: str
    direction: Literal["increasing", "decreasing"]
    tolerance_sigma: float = Field(default=3.0, gt=0)


class ReviewTriggers(_Model):
    """Which situations raise review events (besides failures and provenance conflicts)."""

    budget_exhausted: bool = True
    """A state that reaches ``max_local_steps`` unaccepted raises CONVERGENCE_ANOMALY
    (when False it fails without review)."""
    bounds: dict[str, Bounds] = Field(default_factory=dict)
    monotonic: MonotonicTrigger | None = None


DEFAULT_REVIEWER_EVENTS = (
    EventKind.CONVERGENCE_ANOMALY,
    EventKind.UNKNOWN_FAILURE,
    EventKind.NEEDS_REASONING,
)


class ReviewPolicy(_Model):
    """Review triggers and what a reviewer's decision may change.

    ``reviewer_events`` go to the injected reviewer (a model), the rest wait for a
    human. ``segment_steps_range`` bounds the only parameter a decision may set
    (the next segment's length; default a quarter to four times ``segment_steps``);
    ``extension_steps`` is the budget a ``continue`` adds to a spent state
    (default ``max_local_steps / 2``).
    """

    triggers: ReviewTriggers = Field(default_factory=lambda: ReviewTriggers())
    reviewer_events: tuple[EventKind, ...] = DEFAULT_REVIEWER_EVENTS
    min_confidence: float = Field(default=0.5, ge=0, le=1)
    segment_steps_range: tuple[int, int] | None = None
    extension_steps: int | None = Field(default=None, gt=0)


class ModelCallCaps(_Model):
    """Caps on model calls: per (system, event kind) and per campaign."""

    per_system_event: int = Field(default=1, ge=0)
    per_campaign: int = Field(default=10, ge=0)


class CampaignSpec(_Model):
    """A whole campaign: objective, systems, the ordered condition path and the rules."""

    name: Name
    objective: str = Field(min_length=1)
    seed: int = Field(default=12345, ge=1, le=2**31 - 1)
    systems: tuple[SystemSpec, ...] = Field(min_length=1)
    conditions: tuple[ConditionSpec, ...] = Field(min_length=1)
    segment: SegmentProtocol
    observables: tuple[ObservableSpec, ...] = Field(min_length=1)
    acceptance: dict[str, AcceptanceRule] = Field(min_length=1)
    continuation: ContinuationPolicy
    review: ReviewPolicy = Field(default_factory=lambda: ReviewPolicy())
    model_calls: ModelCallCaps = Field(default_factory=lambda: ModelCallCaps())

    def system(self, name: str) -> SystemSpec:
        """The system called ``name``."""
        return next(s for s in self.systems if s.name == name)

    def condition(self, name: str) -> ConditionSpec:
        """The condition called ``name``."""
        return next(c for c in self.conditions if c.name == name)

    def observable_unit(self, name: str) -> str:
        """The unit of observable ``name`` ("" when not given)."""
        return next((o.unit for o in self.observables if o.name == name), "")

    @property
    def segment_steps_range(self) -> tuple[int, int]:
        """Bounds of a reviewer's change of the next segment's length."""
        if self.review.segment_steps_range is not None:
            return self.review.segment_steps_range
        steps = self.continuation.segment_steps
        return max(1, steps // 4), steps * 4

    @property
    def extension_steps(self) -> int:
        """Budget (local steps) one ``continue`` decision adds to a spent state."""
        if self.review.extension_steps is not None:
            return self.review.extension_steps
        return max(self.continuation.segment_steps, self.continuation.max_local_steps // 2)

    @property
    def max_window_steps(self) -> int:
        """The longest acceptance window."""
        return max(rule.window_steps for rule in self.acceptance.values())

    def canonical_json(self) -> str:
        """The spec as canonical JSON (sorted keys), the text its hash is taken of."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def sha256(self) -> str:
        """sha256 of :meth:`canonical_json`."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()
