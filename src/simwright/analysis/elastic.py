"""Elastic constants from stress–strain data: fits, Voigt–Reuss–Hill averages, stability.

Pure functions on arrays. Voigt order ``xx, yy, zz, yz, xz, xy``; shear strains
are engineering strains (γ = 2ε). :func:`deformation` is the symmetric deformation
of one strain pattern; :func:`fit_stiffness` fits σ_i = σ_i⁰ + C_ij e_j by least
squares for each applied pattern j, with the standard error of each slope;
:func:`cubic_constants` averages the cubic-equivalent entries; :func:`vrh` gives
the Voigt, Reuss and Hill bulk and shear moduli, Young's modulus and Poisson's
ratio; :func:`born_cubic` tests the Born stability criteria of a cubic crystal.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.errors import ValidationError

VOIGT: tuple[tuple[int, int], ...] = ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))
"""Tensor indices of the six Voigt components."""
VOIGT_NAMES: tuple[str, ...] = ("xx", "yy", "zz", "yz", "xz", "xy")


def deformation(pattern: int, strain: float) -> np.ndarray:
    """The symmetric deformation gradient I + ε of Voigt strain ``pattern`` of size ``strain``."""
    eps = np.zeros((3, 3))
    i, j = VOIGT[pattern]
    if i == j:
        eps[i, i] = strain
    else:
        eps[i, j] = eps[j, i] = strain / 2.0
    return np.eye(3) + eps


def to_voigt(stress: np.ndarray) -> np.ndarray:
    """A 3×3 stress (or an n×3×3 stack) in Voigt order."""
    s = np.asarray(stress)
    return np.stack([s[..., i, j] for i, j in VOIGT], axis=-1)


@dataclass(frozen=True)
class Stiffness:
    """The fitted 6×6 stiffness (GPa) and the standard error of each entry."""

    c_gpa: np.ndarray
    stderr_gpa: np.ndarray


def _slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    design = np.column_stack([np.ones_like(x), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(x) - 2
    if dof <= 0:
        return float(coef[1]), float("nan")
    residual = y - design @ coef
    variance = float(residual @ residual) / dof
    spread = float(np.sum((x - x.mean()) ** 2))
    return float(coef[1]), float(np.sqrt(variance / spread))


def fit_stiffness(patterns: np.ndarray, strains: np.ndarray, stresses: np.ndarray) -> Stiffness:
    """C_ij from rows (pattern j, strain e_j, Voigt stress σ) — every pattern at least twice."""
    c = np.zeros((6, 6))
    err = np.zeros((6, 6))
    for j in range(6):
        rows = patterns == j
        if np.count_nonzero(rows) < 2:
            raise ValidationError(f"strain pattern {VOIGT_NAMES[j]} needs at least two strains")
        for i in range(6):
            c[i, j], err[i, j] = _slope(strains[rows], stresses[rows, i])
    return Stiffness(c, err)


_CUBIC_SETS: dict[str, tuple[tuple[int, int], ...]] = {
    "c11": ((0, 0), (1, 1), (2, 2)),
    "c12": ((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)),
    "c44": ((3, 3), (4, 4), (5, 5)),
}


def cubic_constants(stiffness: Stiffness) -> dict[str, tuple[float, float]]:
    """C11, C12, C44 (GPa) as means of their cubic-equivalent entries, each with an
    uncertainty: the larger of the fit's standard error and the spread of the entries
    (the spread alone when a single strain per sign leaves the fit no residual)."""
    out: dict[str, tuple[float, float]] = {}
    for name, entries in _CUBIC_SETS.items():
        values = np.array([stiffness.c_gpa[e] for e in entries])
        errors = np.array([stiffness.stderr_gpa[e] for e in entries])
        finite = errors[np.isfinite(errors)]
        fit_error = float(np.sqrt(np.mean(finite**2) / len(finite))) if len(finite) else 0.0
        spread = float(values.std(ddof=1) / np.sqrt(len(values)))
        out[name] = (float(values.mean()), max(fit_error, spread))
    return out


@dataclass(frozen=True)
class Moduli:
    """Voigt, Reuss and Hill bulk (B) and shear (G) moduli, Young's modulus and Poisson's
    ratio from the Hill averages (GPa, ratio dimensionless)."""

    b_voigt: float
    b_reuss: float
    g_voigt: float
    g_reuss: float

    @property
    def b_hill(self) -> float:
        """Hill bulk modulus."""
        return (self.b_voigt + self.b_reuss) / 2

    @property
    def g_hill(self) -> float:
        """Hill shear modulus."""
        return (self.g_voigt + self.g_reuss) / 2

    @property
    def young(self) -> float:
        """E = 9BG / (3B + G)."""
        return 9 * self.b_hill * self.g_hill / (3 * self.b_hill + self.g_hill)

    @property
    def poisson(self) -> float:
        """ν = (3B − 2G) / (2 (3B + G))."""
        return (3 * self.b_hill - 2 * self.g_hill) / (2 * (3 * self.b_hill + self.g_hill))


def vrh(c_gpa: np.ndarray) -> Moduli:
    """The Voigt–Reuss–Hill moduli of a 6×6 stiffness (symmetrised first)."""
    c = (np.asarray(c_gpa) + np.asarray(c_gpa).T) / 2
    s = np.linalg.inv(c)
    d, off, shear = np.trace(c[:3, :3]), c[0, 1] + c[1, 2] + c[0, 2], np.trace(c[3:, 3:])
    sd, soff, sshear = np.trace(s[:3, :3]), s[0, 1] + s[1, 2] + s[0, 2], np.trace(s[3:, 3:])
    return Moduli(
        b_voigt=float((d + 2 * off) / 9),
        b_reuss=float(1 / (sd + 2 * soff)),
        g_voigt=float((d - off + 3 * shear) / 15),
        g_reuss=float(15 / (4 * sd - 4 * soff + 3 * sshear)),
    )


def born_cubic(c11: float, c12: float, c44: float) -> tuple[tuple[str, float, bool], ...]:
    """The Born criteria of a cubic crystal: (criterion, its value in GPa, satisfied)."""
    checks = (("C11 − C12 > 0", c11 - c12), ("C11 + 2 C12 > 0", c11 + 2 * c12), ("C44 > 0", c44))
    return tuple((text, float(value), bool(value > 0)) for text, value in checks)


def stress_strain_plot(
    path: Path,
    patterns: np.ndarray,
    strains: np.ndarray,
    stresses: np.ndarray,
    stiffness: Stiffness,
    title: str,
) -> Path:
    """σ against applied strain for the cubic relations (σxx and σyy under e_xx, σyz under
    γ_yz), the fitted lines drawn through them."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, ax = plt.subplots(figsize=(5.5, 4.0), dpi=110)
    for (i, j), label in (
        ((0, 0), "σxx vs εxx (C11)"),
        ((1, 0), "σyy vs εxx (C12)"),
        ((3, 3), "σyz vs γyz (C44)"),
    ):
        rows = patterns == j
        x, y = strains[rows] * 100, stresses[rows, i]
        line = ax.plot(x, y, "o", ms=5, label=f"{label}: {stiffness.c_gpa[i, j]:.1f} GPa")[0]
        grid = np.linspace(x.min(), x.max(), 20)
        intercept = float(np.mean(y - stiffness.c_gpa[i, j] * x / 100))
        ax.plot(grid, intercept + stiffness.c_gpa[i, j] * grid / 100, "-", color=line.get_color())
    ax.axhline(0, color="grey", lw=0.6)
    ax.set_xlabel("applied strain (%)")
    ax.set_ylabel("stress (GPa)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
