"""Acceptance rules: analyze a state's samples and decide, with no model involved.

:func:`analyze` computes, for every observable with an acceptance rule, the
statistics of its most recent window of local steps (mean, temporal standard
deviation, block standard error, scaled scatter and drift) and looks for
anomalies in the latest segment (non-finite values, values out of bounds).
:func:`decide` turns an analysis into a verdict by prioritized rules:

1. ``anomaly`` — a non-finite or out-of-bounds value: CONVERGENCE_ANOMALY;
2. ``accept_cv_and_trend`` — every window is full and passes both tests;
3. ``budget_exhausted`` — the local-step budget is spent: CONVERGENCE_ANOMALY
   (or failure when that trigger is off);
4. ``window_not_filled`` / ``not_converged`` — run another segment.

All windows and budgets are in local steps (steps since the state was entered),
never the engine's absolute timestep.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simwright.analysis.convergence import block_average, window_statistics
from simwright.campaign.spec import AcceptanceRule, CampaignSpec, MonotonicTrigger
from simwright.campaign.status import EventKind
from simwright.errors import ValidationError


@dataclass(frozen=True)
class StateSeries:
    """The samples of one state: local steps and one array per observable."""

    local_steps: np.ndarray
    values: Mapping[str, np.ndarray]

    @classmethod
    def empty(cls, observables: tuple[str, ...]) -> StateSeries:
        """No samples yet."""
        return cls(np.zeros(0, dtype=np.int64), {n: np.zeros(0) for n in observables})

    def extend(self, local_steps: np.ndarray, values: Mapping[str, np.ndarray]) -> StateSeries:
        """A new series with the samples of one more segment appended."""
        return StateSeries(
            np.concatenate([self.local_steps, np.asarray(local_steps, dtype=np.int64)]),
            {
                n: np.concatenate([v, np.asarray(values[n], dtype=float)])
                for n, v in self.values.items()
            },
        )


@dataclass(frozen=True)
class WindowResult:
    """Statistics of one observable over its most recent window, and the verdict on it.

    ``cv`` is the temporal standard deviation and ``drift`` the change of the
    fitted line across the window, both divided by ``max(|mean|, scale_floor)``.
    ``sem`` is the block-averaging standard error (5 blocks; NaN below 10 samples).
    """

    observable: str
    start_step: int
    end_step: int
    n_samples: int
    mean: float
    std: float
    sem: float
    cv: float
    drift: float
    failed: tuple[str, ...]

    @property
    def passed(self) -> bool:
        """True when every test passed."""
        return not self.failed

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "observable": self.observable,
            "window_local_steps": [self.start_step, self.end_step],
            "n_samples": self.n_samples,
            "mean": self.mean,
            "std": self.std,
            "sem": self.sem,
            "cv": self.cv,
            "drift": self.drift,
            "failed": list(self.failed),
        }

    def accepted_value(self, unit: str) -> dict[str, Any]:
        """The accepted value: window mean ± temporal standard deviation, with its unit."""
        return {
            "value": self.mean,
            "std": self.std,
            "sem": self.sem,
            "unit": unit,
            "n_samples": self.n_samples,
            "window_local_steps": [self.start_step, self.end_step],
        }


@dataclass(frozen=True)
class Analysis:
    """What the rules see after a segment: windows, unfilled windows and anomalies."""

    local_steps: int
    windows: Mapping[str, WindowResult]
    pending: tuple[str, ...]
    anomalies: tuple[Anomaly, ...] = ()

    @property
    def converged(self) -> bool:
        """Every window is full and passes its tests, and nothing is anomalous."""
        ok = all(w.passed for w in self.windows.values())
        return bool(self.windows) and ok and not self.pending and not self.anomalies

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "local_steps": self.local_steps,
            "windows": {k: w.as_dict() for k, w in self.windows.items()},
            "pending": list(self.pending),
            "anomalies": [a.text() for a in self.anomalies],
        }


@dataclass(frozen=True)
class Continue:
    """Run another segment."""

    rule: str
    reason: str


@dataclass(frozen=True)
class Accept:
    """The state is converged; ``values`` are its accepted values."""

    rule: str
    reason: str
    values: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Escalate:
    """Raise a review event of ``kind``; ``signature`` feeds its fingerprint."""

    kind: EventKind
    rule: str
    reason: str
    signature: str


@dataclass(frozen=True)
class Stop:
    """Fail the state without review."""

    rule: str
    reason: str


Verdict = Continue | Accept | Escalate | Stop
"""What the rules decide after a segment."""


def window_result(
    series: StateSeries, name: str, rule: AcceptanceRule, window_steps: int | None = None
) -> WindowResult:
    """Statistics and tests of ``name`` over the last ``window_steps`` (the rule's by default)."""
    window = rule.window_steps if window_steps is None else window_steps
    steps = series.local_steps
    # only the tail can be in the window: keeps each analysis O(window), not O(state)
    first = int(np.searchsorted(steps, steps[-1] - window, side="left")) if steps.size else 0
    first = max(0, first - 1)
    try:
        stats = window_statistics(
            steps[first:].astype(float), series.values[name][first:], last_window_fs=float(window)
        )
    except ValidationError as exc:
        raise ValidationError(f"observable {name!r}: {exc}") from exc
    scale = max(abs(stats.mean), rule.scale_floor)
    cv = _scaled(stats.std, scale)
    drift = _scaled(abs(stats.trend.slope_per_fs) * (stats.end_fs - stats.start_fs), scale)
    failed = [t for t, bad in (("cv", cv > rule.cv_max), ("trend", drift > rule.trend_max)) if bad]
    if stats.n_samples < rule.min_samples:
        failed.append("samples")
    in_window = series.values[name][-stats.n_samples :]
    sem = block_average(in_window, 5).sem if stats.n_samples >= 10 else math.nan
    return WindowResult(
        name,
        int(stats.start_fs),
        int(stats.end_fs),
        stats.n_samples,
        stats.mean,
        stats.std,
        sem,
        cv,
        drift,
        tuple(failed),
    )


def _scaled(value: float, scale: float) -> float:
    if scale > 0:
        return value / scale
    return 0.0 if value == 0 else math.inf


@dataclass(frozen=True)
class Anomaly:
    """A value no converging state should show: ``kind`` is non_finite, below_min or above_max."""

    observable: str
    kind: str
    detail: str

    def text(self) -> str:
        """``observable: detail``."""
        return f"{self.observable}: {self.detail}"


def find_anomalies(
    spec: CampaignSpec, local_steps: np.ndarray, values: Mapping[str, np.ndarray]
) -> tuple[Anomaly, ...]:
    """Non-finite values and excursions out of the spec's bounds in one segment's samples."""
    found = []
    for name, data in values.items():
        bad = ~np.isfinite(data)
        if bad.any():
            where = int(local_steps[bad][0])
            found.append(Anomaly(name, "non_finite", f"non-finite value at local step {where}"))
            continue
        bounds = spec.review.triggers.bounds.get(name)
        if bounds is None:
            continue
        if bounds.min is not None and (data < bounds.min).any():
            low = f"below min {bounds.min} (lowest {float(data.min()):.6g})"
            found.append(Anomaly(name, "below_min", low))
        if bounds.max is not None and (data > bounds.max).any():
            high = f"above max {bounds.max} (highest {float(data.max()):.6g})"
            found.append(Anomaly(name, "above_max", high))
    return tuple(found)


def analyze(
    spec: CampaignSpec, series: StateSeries, local_steps: int, latest: tuple[Anomaly, ...] = ()
) -> Analysis:
    """The windows of every rule observable at ``local_steps``; ``latest`` anomalies."""
    windows: dict[str, WindowResult] = {}
    pending = []
    broken = {a.observable for a in latest if a.kind == "non_finite"}
    for name, rule in spec.acceptance.items():
        if name in broken:
            continue  # no statistics of a series with NaN; the anomaly decides
        if local_steps < rule.window_steps:
            pending.append(name)
            continue
        try:
            windows[name] = window_result(series, name, rule)
        except ValidationError as exc:  # e.g. a NaN left in the window by an earlier segment
            latest = (*latest, Anomaly(name, "unusable_window", str(exc)))
    return Analysis(local_steps, windows, tuple(pending), latest)


def decide(spec: CampaignSpec, analysis: Analysis, budget_steps: int) -> Verdict:
    """The prioritized rules of the module docstring, applied to ``analysis``."""
    if analysis.anomalies:
        kinds = sorted({f"{a.observable}:{a.kind}" for a in analysis.anomalies})
        reason = "; ".join(a.text() for a in analysis.anomalies)
        return Escalate(
            EventKind.CONVERGENCE_ANOMALY, "anomaly", reason, "anomaly|" + ",".join(kinds)
        )
    if analysis.converged:
        return Accept("accept_cv_and_trend", _summary(analysis), accepted_values(spec, analysis))
    if analysis.local_steps >= budget_steps:
        reason = (
            f"{analysis.local_steps} local steps reached the budget of {budget_steps} unaccepted"
        )
        failing = sorted(n for n, w in analysis.windows.items() if w.failed)
        if spec.review.triggers.budget_exhausted:
            return Escalate(
                EventKind.CONVERGENCE_ANOMALY,
                "budget_exhausted",
                f"{reason}; {_summary(analysis) or 'no full window'}",
                "budget_exhausted|" + ",".join(failing),
            )
        return Stop("budget_exhausted", reason)
    if analysis.pending:
        return Continue(
            "window_not_filled", f"window not yet filled for {', '.join(analysis.pending)}"
        )
    return Continue("not_converged", _summary(analysis))


def _summary(analysis: Analysis) -> str:
    parts = []
    for name, w in analysis.windows.items():
        verdict = "passes" if w.passed else f"fails {'+'.join(w.failed)}"
        parts.append(f"{name} {verdict} (mean {w.mean:.6g}, cv {w.cv:.3g}, drift {w.drift:.3g})")
    return "; ".join(parts)


def accepted_values(spec: CampaignSpec, analysis: Analysis) -> dict[str, dict[str, Any]]:
    """Accepted values of every window of ``analysis``, with units from the spec."""
    return {n: w.accepted_value(spec.observable_unit(n)) for n, w in analysis.windows.items()}


def forced_values(
    spec: CampaignSpec, series: StateSeries, local_steps: int
) -> dict[str, dict[str, Any]]:
    """Values of a state accepted by a reviewer: each window as long as the state allows."""
    out = {}
    for name, rule in spec.acceptance.items():
        window = min(rule.window_steps, local_steps)
        out[name] = window_result(series, name, rule, window).accepted_value(
            spec.observable_unit(name)
        )
    return out


def path_check(
    trigger: MonotonicTrigger | None,
    previous: Mapping[str, Mapping[str, Any]] | None,
    current: Mapping[str, Mapping[str, Any]],
) -> Escalate | None:
    """NEEDS_REASONING when an accepted value moves against the expected direction.

    The move must exceed ``tolerance_sigma`` times the combined temporal standard
    deviation of the two windows, so only gross inconsistencies trigger it.
    """
    if trigger is None or not previous or trigger.observable not in previous:
        return None
    prev, cur = previous[trigger.observable], current[trigger.observable]
    step = float(cur["value"]) - float(prev["value"])
    against = step > 0 if trigger.direction == "decreasing" else step < 0
    spread = math.hypot(float(prev["std"]), float(cur["std"]))
    if not against or abs(step) <= trigger.tolerance_sigma * spread:
        return None
    reason = (
        f"{trigger.observable} moved {step:+.6g} along the path (expected {trigger.direction}), "
        f"beyond {trigger.tolerance_sigma} × the combined temporal std {spread:.6g}"
    )
    signature = f"path_not_monotonic|{trigger.observable}|{trigger.direction}"
    return Escalate(EventKind.NEEDS_REASONING, "path_not_monotonic", reason, signature)
