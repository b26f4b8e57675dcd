"""Line charts as inline SVG data: the samples of a campaign state against local steps.

The dashboard draws them server-side (no plotting library in the browser): this
module scales the points into the chart's box and picks the axis labels; the
template writes the ``<svg>`` with a title and a description for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Chart:
    """A polyline in a ``width`` × ``height`` box with its axis ranges."""

    width: int
    height: int
    points: str
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    n: int
    window: tuple[float, float] | None = None
    """The acceptance window (x from, to) in the box's coordinates, if any."""


def line_chart(
    xs: Sequence[float],
    ys: Sequence[float],
    *,
    width: int = 560,
    height: int = 180,
    pad: int = 8,
    window_steps: int | None = None,
) -> Chart | None:
    """The chart of ``ys`` against ``xs`` (non-finite values skipped); None when empty."""
    pairs = [(float(x), float(y)) for x, y in zip(xs, ys, strict=False) if math.isfinite(y)]
    if not pairs:
        return None
    x0, x1 = min(p[0] for p in pairs), max(p[0] for p in pairs)
    y0, y1 = min(p[1] for p in pairs), max(p[1] for p in pairs)
    dx, dy = (x1 - x0) or 1.0, (y1 - y0) or 1.0

    def sx(x: float) -> float:
        return pad + (x - x0) / dx * (width - 2 * pad)

    def sy(y: float) -> float:
        return height - pad - (y - y0) / dy * (height - 2 * pad)

    points = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pairs)
    window = None
    if window_steps:
        window = (sx(max(x0, x1 - window_steps)), sx(x1))
    return Chart(width, height, points, (x0, x1), (y0, y1), len(pairs), window)
