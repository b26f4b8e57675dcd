"""Mean squared displacement of a 1-D series over all time origins, in float64 by FFT.

For x(t) sampled at n points, MSD(k) = ⟨(x(i+k) − x(i))²⟩ over i = 0..n−k−1, computed as
S1(k) − 2 S2(k): S1 from running sums of x², S2 the unnormalised autocorrelation
(zero-padded FFT) divided by n − k. Used for collective quantities (the Helfand moment
of the stress, the total charge displacement), which need double precision.
"""

from __future__ import annotations

import numpy as np

from simwright.errors import ValidationError


def window_msd(series: np.ndarray) -> np.ndarray:
    """MSD(k) for k = 0..n−1 of the 1-D ``series`` (same unit squared)."""
    x = np.asarray(series, dtype=np.float64)
    if x.ndim != 1 or x.size < 2:
        raise ValidationError("window_msd needs a 1-D series of at least 2 points")
    n = x.size
    x = x - x.mean()  # a constant shift leaves every difference unchanged
    squares = x * x
    counts = n - np.arange(n)
    # S1(k) = (Σ_{i<n-k} x_i² + Σ_{i>=k} x_i²) / (n - k)
    head = np.cumsum(squares)[::-1]  # Σ_{i<=n-1-k} x_i² at index k
    tail = np.cumsum(squares[::-1])[::-1]  # Σ_{i>=k} x_i²
    s1 = (head + tail) / counts
    padded = np.fft.rfft(x, 2 * n)
    s2 = np.fft.irfft(padded * np.conj(padded))[:n] / counts
    out = s1 - 2.0 * s2
    out[0] = 0.0
    return np.maximum(out, 0.0)
