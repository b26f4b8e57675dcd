"""An idealized 2:1 (TOT) layer of a dioctahedral smectite, one orthogonal unit cell.

The cell is the C-centred orthogonal cell of pyrophyllite-like layers,
``a × b`` with the formula unit cell content Al4 Si8 O20 (OH)4 (40 atoms: two
formula units Al2 Si4 O10 (OH)2). Lattice parameters a = 5.28 Å, b = 9.14 Å
are those of the Wyoming-type montmorillonite cell used by N. T. Skipper,
F.-R. C. Chang, G. Sposito, Clays Clay Miner. 43, 285 (1995) and in many ClayFF
studies (R. T. Cygan, J.-J. Liang, A. G. Kalinichev, J. Phys. Chem. B 108, 1255
(2004)) — quoted from memory, **unverified** against the papers here.

The atom positions are **not** refined fractional coordinates from a diffraction
study (e.g. Lee & Guggenheim 1981 for pyrophyllite, Viani et al. 2002 for
montmorillonite): they are an idealized construction on regular hexagonal nets,
derived here and documented so that anyone can check it:

* octahedral sites (2 Al + 1 vacancy per formula unit, trans-vacant) on a
  triangular net of spacing ``a/√3`` at z = 0;
* the two anion planes (apical O and OH) at z = ±``OCT_HALF_A`` in the two
  hollow positions of that net (octahedral coordination);
* the OH oxygen of each plane under the centre of the tetrahedral ring; its H
  points toward the vacant octahedral site, tilted ``OH_TILT_DEG`` out of the
  layer, at 1.0 Å (ClayFF's O–H length);
* Si directly above (below) the apical O, at ``SI_O_A`` from it; basal O at the
  midpoints of Si–Si neighbours, at the height that makes Si–O_basal = ``SI_O_A``.

The sheets are held rigid in the simulations built on this cell, so the geometry
enters only through the atoms the water and ions see: the basal oxygens, the
ring cavities and the hydroxyl positions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

A_A: Final = 5.28
"""Orthogonal cell edge a (Å), Skipper et al. 1995 (unverified, see module docstring)."""

B_A: Final = 9.14
"""Orthogonal cell edge b (Å), Skipper et al. 1995 (unverified)."""

OCT_HALF_A: Final = 1.06
"""Height of the apical-O / OH planes above the octahedral mid-plane (Å); idealized."""

SI_O_A: Final = 1.62
"""Si–O bond length of the idealized tetrahedra (Å), the usual silicate value."""

OH_LENGTH_A: Final = 1.0
"""O–H length of the hydroxyl (Å), ClayFF's equilibrium bond length (Cygan et al. 2004)."""

OH_TILT_DEG: Final = 16.0
"""Tilt of the O–H vector out of the layer plane (degrees); an idealized choice."""

Role = Literal["oct", "apical", "hydroxyl_o", "hydroxyl_h", "tet", "basal"]
"""What a site of the layer is; ClayFF types follow from the role and substitutions."""


@dataclass(frozen=True)
class LayerCell:
    """One orthogonal cell of a 2:1 layer centred on z = 0.

    ``frac_xy`` are fractional in-plane coordinates (a, b); ``z_a`` heights (Å)
    from the octahedral mid-plane; ``roles`` the site roles; ``vacancies`` the
    fractional positions of the vacant octahedral sites (not atoms).
    """

    a_a: float
    b_a: float
    frac_xy: np.ndarray
    z_a: np.ndarray
    roles: tuple[Role, ...]
    vacancies: np.ndarray

    @property
    def thickness_a(self) -> float:
        """Distance between the two basal-oxygen planes (Å)."""
        return float(self.z_a.max() - self.z_a.min())

    def ring_centres(self, side: Literal["top", "bottom"]) -> np.ndarray:
        """Fractional positions of the ring centres of the top or bottom tetrahedral sheet."""
        sign = 1.0 if side == "top" else -1.0
        mask = np.array([r == "hydroxyl_o" for r in self.roles]) & (np.sign(self.z_a) == sign)
        return self.frac_xy[mask]


_CENTRING: Final = np.array([0.5, 0.5])
_SHIFTS: Final = np.array(list(np.ndindex(3, 3)), dtype=float) - 1.0

# Fractional positions in one primitive half of the C-centred cell; the other half
# follows by the centring translation (1/2, 1/2). Derivation in the module docstring.
_OCT_AL: Final = ((1 / 2, 1 / 6), (0.0, 1 / 3))
_VACANCY: Final = ((0.0, 0.0),)
_LOWER_OH: Final = ((1 / 6, 1 / 6),)
_LOWER_APICAL: Final = ((2 / 3, 1 / 3), (1 / 6, 1 / 2))
_UPPER_OH: Final = ((1 / 3, 1 / 3),)
_UPPER_APICAL: Final = ((5 / 6, 1 / 2), (1 / 3, 2 / 3))


def _centred(points: tuple[tuple[float, float], ...]) -> np.ndarray:
    base = np.array(points, dtype=float)
    return np.mod(np.vstack([base, base + _CENTRING]), 1.0)


def _cart(frac: np.ndarray, a: float, b: float) -> np.ndarray:
    return frac * np.array([a, b])


def _basal_sites(si_frac: np.ndarray, a: float, b: float) -> np.ndarray:
    """Midpoints of Si–Si nearest neighbours (periodic), each pair once."""
    mids = []
    nn = a / math.sqrt(3.0) * 1.05
    for i in range(len(si_frac)):
        for j in range(len(si_frac)):
            for shift in _SHIFTS:
                d = si_frac[j] + shift - si_frac[i]
                if i == j and not shift.any():
                    continue
                if np.linalg.norm(_cart(d, a, b)) < nn:
                    mids.append(np.mod(si_frac[i] + d / 2.0, 1.0))
    unique: list[np.ndarray] = []
    for m in mids:
        if not any(np.allclose(m, u, atol=1e-6) for u in unique):
            unique.append(m)
    return np.array(unique)


def _hydrogens(oh_frac: np.ndarray, z_oh: float, vac: np.ndarray, a: float, b: float) -> np.ndarray:
    """H of each OH: toward the nearest vacancy in-plane, tilted out of the layer."""
    out = []
    tilt = math.radians(OH_TILT_DEG)
    for o in oh_frac:
        deltas = [v + shift - o for v in vac for shift in _SHIFTS]
        best = min(deltas, key=lambda d: float(np.linalg.norm(_cart(d, a, b))))
        u = _cart(best, a, b)
        u = u / np.linalg.norm(u)
        xy = _cart(o, a, b) + OH_LENGTH_A * math.cos(tilt) * u
        z = z_oh + math.copysign(OH_LENGTH_A * math.sin(tilt), z_oh)
        out.append((xy[0] / a, xy[1] / b, z))
    return np.array(out)


def dioctahedral_cell(a_a: float = A_A, b_a: float = B_A) -> LayerCell:
    """The idealized trans-vacant 2:1 layer cell (40 atoms, Al4 Si8 O20 (OH)4)."""
    al = _centred(_OCT_AL)
    vac = _centred(_VACANCY)
    lower_oh, upper_oh = _centred(_LOWER_OH), _centred(_UPPER_OH)
    lower_ap, upper_ap = _centred(_LOWER_APICAL), _centred(_UPPER_APICAL)
    z_si = OCT_HALF_A + SI_O_A
    si_si = a_a / math.sqrt(3.0)
    z_basal = z_si + math.sqrt(max(SI_O_A**2 - (si_si / 2.0) ** 2, 0.0))
    top_basal = _basal_sites(upper_ap, a_a, b_a)
    bottom_basal = _basal_sites(lower_ap, a_a, b_a)
    h_low = _hydrogens(lower_oh, -OCT_HALF_A, vac, a_a, b_a)
    h_up = _hydrogens(upper_oh, OCT_HALF_A, vac, a_a, b_a)
    parts: list[tuple[np.ndarray, float | np.ndarray, Role]] = [
        (al, 0.0, "oct"),
        (lower_ap, -OCT_HALF_A, "apical"),
        (upper_ap, OCT_HALF_A, "apical"),
        (lower_oh, -OCT_HALF_A, "hydroxyl_o"),
        (upper_oh, OCT_HALF_A, "hydroxyl_o"),
        (h_low[:, :2], h_low[:, 2], "hydroxyl_h"),
        (h_up[:, :2], h_up[:, 2], "hydroxyl_h"),
        (lower_ap, -z_si, "tet"),
        (upper_ap, z_si, "tet"),
        (bottom_basal, -z_basal, "basal"),
        (top_basal, z_basal, "basal"),
    ]
    frac = np.vstack([p[0] for p in parts])
    z = np.concatenate([np.broadcast_to(np.asarray(p[1], dtype=float), len(p[0])) for p in parts])
    roles: tuple[Role, ...] = tuple(r for p in parts for r in [p[2]] * len(p[0]))
    return LayerCell(a_a, b_a, frac, z, roles, vac)
