"""The running trapezoidal integral of evenly spaced samples.

The same numbers as ``scipy.integrate.cumulative_trapezoid(y, dx=dx, initial=0)`` (a
test checks it), without importing ``scipy.integrate``, which takes about a second and
would be paid by every command that merely plans a Green–Kubo run.
"""

from __future__ import annotations

import numpy as np


def running_integral(values: np.ndarray, dx: float) -> np.ndarray:
    """∫₀^t y dt at every sample of ``values`` (spacing ``dx``), starting at 0, along the
    last axis."""
    y = np.asarray(values, dtype=float)
    if y.shape[-1] == 0:
        return y.copy()
    steps = 0.5 * dx * (y[..., 1:] + y[..., :-1])
    zero = np.zeros((*y.shape[:-1], 1))
    return np.concatenate([zero, np.cumsum(steps, axis=-1)], axis=-1)
