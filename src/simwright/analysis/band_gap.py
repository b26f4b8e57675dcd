"""Band gaps from band energies on a set of k-points.

With ``n_occupied`` bands filled at every k-point (an insulator at zero
temperature, spin-degenerate), the valence-band maximum is the highest energy of
band ``n_occupied - 1`` over the k-points and the conduction-band minimum the
lowest of band ``n_occupied``. The gap is direct when both sit at the same
k-point; the smallest vertical gap is reported as well.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.errors import ValidationError


@dataclass(frozen=True)
class BandGap:
    """The fundamental gap, where its edges are, and the smallest direct gap."""

    gap_ev: float
    vbm_ev: float
    cbm_ev: float
    vbm_k: int
    cbm_k: int
    direct_gap_ev: float
    direct_k: int

    @property
    def direct(self) -> bool:
        """True when VBM and CBM are at the same k-point (or equal in energy within 1 meV)."""
        return self.vbm_k == self.cbm_k or abs(self.direct_gap_ev - self.gap_ev) < 1e-3

    @property
    def kind(self) -> str:
        """``direct`` or ``indirect``."""
        return "direct" if self.direct else "indirect"


def band_gap(energies_ev: np.ndarray, n_occupied: int) -> BandGap | None:
    """The gap of ``energies_ev[k, band]`` with ``n_occupied`` filled bands, None when the
    highest filled band reaches above the lowest empty one (a metal)."""
    e = np.asarray(energies_ev, dtype=float)
    if e.ndim != 2 or e.shape[0] == 0:
        raise ValidationError("band energies must be a (k-points, bands) array")
    if not 0 < n_occupied < e.shape[1]:
        raise ValidationError(
            f"{n_occupied} occupied bands need at least {n_occupied + 1} bands, have {e.shape[1]}"
        )
    valence, conduction = e[:, n_occupied - 1], e[:, n_occupied]
    vbm_k, cbm_k = int(np.argmax(valence)), int(np.argmin(conduction))
    gap = float(conduction[cbm_k] - valence[vbm_k])
    if gap <= 0:
        return None
    vertical = conduction - valence
    direct_k = int(np.argmin(vertical))
    return BandGap(
        gap,
        float(valence[vbm_k]),
        float(conduction[cbm_k]),
        vbm_k,
        cbm_k,
        float(vertical[direct_k]),
        direct_k,
    )
