"""The melting point by solid–liquid coexistence: which phase grows, and the bracket.

A two-phase box run at a temperature T below the melting point T_m crystallises (the
potential energy falls as the latent heat is released); above T_m it melts.
:func:`expected_energy` and :func:`end_mean` give the energies compared;
:func:`next_temperature` chooses the next trial: first the two ends of the initial
bracket, widened when both ends give the same answer, then bisection between the
highest temperature that crystallised and the lowest that melted, until the bracket
is narrower than a tolerance or the trial budget is spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.errors import ValidationError


@dataclass(frozen=True)
class Trial:
    """One coexistence run: temperature (K), potential energy per atom (eV) expected
    without a phase change (:func:`expected_energy`) and reached at its end, and the
    crystalline fraction at its start and end.

    The potential energy decides: growing crystal releases the latent heat to the
    thermostat (the energy falls below the expected value), melting absorbs it. The
    comparison does not depend on how fast the interface moves (in a small box at a
    large undercooling the crystal can fill it within a picosecond). The fixed-cutoff
    CNA fraction of a hot crystal is noisy (near T_m it counts a fraction of the
    crystalline atoms of Cu and almost none of Al) and is recorded for the trace only.
    """

    temperature_k: float
    pe_start: float
    pe_end: float
    fraction_start: float
    fraction_end: float

    @property
    def change(self) -> float:
        """End minus start potential energy per atom (eV; < 0: the crystal grew)."""
        return self.pe_end - self.pe_start

    @property
    def crystallised(self) -> bool:
        """True when the crystal grew (T below the melting point)."""
        return self.change < 0


KB_EV_K = 8.617333262e-5
"""Boltzmann's constant (eV/K)."""


def expected_energy(reference_pe_ev: float, reference_k: float, t: float) -> float:
    """The potential energy per atom the two-phase box would have at ``t`` if no atom
    changed phase: the prepared state's (at ``reference_k``) shifted by the classical
    equipartition share 3/2 k_B per kelvin (anharmonic terms, a few tenths of k_B, are
    small against the latent heat of half the box)."""
    return reference_pe_ev + 1.5 * KB_EV_K * (t - reference_k)


def end_mean(time_ps: np.ndarray, series: np.ndarray, end_fraction: float = 0.2) -> float:
    """A series' mean over the last ``end_fraction`` of a trial."""
    t, f = np.asarray(time_ps, float), np.asarray(series, float)
    late = t >= t[-1] - end_fraction * (t[-1] - t[0])
    if late.sum() < 2:
        raise ValidationError(f"a coexistence trial sampled {f.size} times is too short")
    return float(f[late].mean())


@dataclass(frozen=True)
class Bracket:
    """The highest temperature that crystallised and the lowest that melted (K)."""

    below_k: float
    above_k: float

    @property
    def midpoint(self) -> float:
        """The estimate of T_m."""
        return 0.5 * (self.below_k + self.above_k)

    @property
    def half_width(self) -> float:
        """Half the bracket: the resolution of the estimate."""
        return 0.5 * (self.above_k - self.below_k)


def bracket(trials: Sequence[Trial]) -> Bracket | None:
    """The bracket of ``trials``; None while one side is missing.

    Refuses an inconsistent record (a crystal grew above a temperature where it melted)."""
    grew = [t.temperature_k for t in trials if t.crystallised]
    melted = [t.temperature_k for t in trials if not t.crystallised]
    if not grew or not melted:
        return None
    below, above = max(grew), min(melted)
    if below > above:
        raise ValidationError(
            f"inconsistent coexistence runs: the crystal grew at {below:g} K but melted at "
            f"{above:g} K; the runs are too short or the box too small to tell"
        )
    return Bracket(below, above)


def next_temperature(
    trials: Sequence[Trial], low_k: float, high_k: float, tolerance_k: float, max_trials: int
) -> float | None:
    """The next trial temperature, or None when the bracket is narrow enough or the budget
    of ``max_trials`` is spent."""
    done = {t.temperature_k for t in trials}
    if len(trials) >= max_trials:
        return None
    for end in (low_k, high_k):
        if end not in done:
            return end
    found = bracket(trials)
    step = 0.5 * (high_k - low_k)
    if found is None:
        temps = [t.temperature_k for t in trials]
        # both ends answered alike: widen on the side that is missing
        return max(temps) + step if trials[0].crystallised else max(1.0, min(temps) - step)
    if found.above_k - found.below_k <= tolerance_k:
        return None
    return found.midpoint


def coexistence_plot(
    path: Path, series: Sequence[tuple[float, np.ndarray, np.ndarray]], title: str
) -> Path:
    """Crystalline fraction against time (ps) for each trial temperature."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, ax = plt.subplots(figsize=(6.5, 4.2), dpi=110)
    cmap = plt.get_cmap("coolwarm")
    temps = [t for t, _, _ in series]
    span = (max(temps) - min(temps)) or 1.0
    for t, time_ps, fraction in sorted(series, key=lambda s: s[0]):
        ax.plot(time_ps, fraction, color=cmap((t - min(temps)) / span), label=f"{t:.0f} K")
    ax.set_xlabel("time in trial (ps)")
    ax.set_ylabel("crystalline fraction (CNA)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
