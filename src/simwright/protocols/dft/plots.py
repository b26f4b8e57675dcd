"""Plots of the DFT post-processing protocols: band structures and densities of states,
with the energy zero (Fermi level or valence-band maximum) marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def _pyplot() -> Any:
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    return plt


def plot_bands(
    path: Path,
    distance: np.ndarray,
    energies: np.ndarray,
    label_x: Sequence[float],
    labels: Sequence[str],
    *,
    zero_name: str,
    title: str,
    window_ev: tuple[float, float] = (-12.0, 8.0),
) -> Path:
    """Bands against the distance along the path, special points as vertical lines,
    energies relative to the zero (a dashed line named ``zero_name``)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 4.2), dpi=110)
    for band in np.asarray(energies).T:
        ax.plot(distance, band, color="tab:blue", lw=1.0)
    for x in label_x:
        ax.axvline(x, color="grey", lw=0.6)
    ax.axhline(0.0, color="tab:red", lw=0.8, ls="--", label=zero_name)
    ax.set_xticks(list(label_x))
    ax.set_xticklabels(list(labels))
    ax.set_xlim(float(distance[0]), float(distance[-1]))
    low = max(window_ev[0], float(np.min(energies)) - 0.5)
    ax.set_ylim(low, window_ev[1])
    ax.set_ylabel(f"E − {zero_name} (eV)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_dos(
    path: Path,
    energy: np.ndarray,
    total: Mapping[str, np.ndarray],
    partial: tuple[np.ndarray, Mapping[str, np.ndarray]] | None,
    *,
    title: str,
    window_ev: tuple[float, float] = (-10.0, 8.0),
) -> Path:
    """Total (spin down drawn negative) and projected DOS against E − E_F, E_F at zero;
    ``partial`` is the projected DOS's own energy axis (relative to E_F) and columns."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 4.0), dpi=110)
    for name, values in total.items():
        sign = -1.0 if name == "dosdw" else 1.0
        ax.plot(energy, sign * values, lw=1.4, color="black", label=None if sign < 0 else name)
    if partial is not None:
        for name, values in partial[1].items():
            ax.plot(partial[0], values, lw=1.0, label=name)
    ax.axvline(0.0, color="tab:red", lw=0.8, ls="--", label="$E_F$")
    ax.set_xlim(*window_ev)
    ax.set_xlabel("E − E_F (eV)")
    ax.set_ylabel("DOS (states/eV/cell)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
