"""Reports and plots that protocols write next to their results.

Every number in a report comes from a :class:`~simwright.results.Quantity`, which
names the artifact it was read from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from simwright.results import ArtifactRef, Quantity, Reference


def plot_xy(
    path: Path,
    x: np.ndarray,
    y: np.ndarray,
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    fit: tuple[np.ndarray, np.ndarray] | None = None,
    marker_x: float | None = None,
    shade: tuple[float, float] | None = None,
) -> Path:
    """A PNG line/marker plot with an optional fitted curve, marker line and shaded range."""
    # lazy: matplotlib takes ~1 s to import
    import matplotlib

    matplotlib.use("Agg")
    # lazy: matplotlib takes ~1 s to import
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4.0), dpi=110)
    ax.plot(x, y, "o-" if len(x) < 60 else "-", ms=4, lw=1.2, label="data")
    if fit is not None:
        ax.plot(fit[0], fit[1], "--", lw=1.5, label="fit")
    if marker_x is not None:
        ax.axvline(marker_x, color="grey", lw=0.8, ls=":")
    if shade is not None:
        ax.axvspan(shade[0], shade[1], color="orange", alpha=0.15, label="window")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    if fit is not None or shade is not None:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def write_report(
    path: Path,
    *,
    title: str,
    summary: str,
    values: Mapping[str, Quantity],
    method: str,
    artifacts: Sequence[ArtifactRef] = (),
    references: Sequence[Reference] = (),
    notes: Sequence[str] = (),
) -> Path:
    """A short Markdown report: summary, values with their sources, method, references."""
    lines = [
        f"# {title}",
        "",
        summary,
        "",
        "## Results",
        "",
        "| quantity | value | source |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {q.text()} | `{q.source}` |" for k, q in values.items()]
    if references:
        lines += ["", "## Compare with", ""]
        for r in references:
            unc = f" ± {r.uncertainty:g}" if r.uncertainty is not None else ""
            mine = values.get(r.quantity)
            dev = ""
            if mine is not None and r.value:
                dev = f" (deviation {100 * (mine.value - r.value) / r.value:+.1f} %)"
            lines.append(f"- {r.quantity}: {r.value:g}{unc} {r.unit}{dev} — {r.citation}")
    lines += ["", "## Method", "", method]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    if artifacts:
        lines += ["", "## Files", ""] + [
            f"- `{a.path}` ({a.kind}, sha256 {a.sha256[:12]})" for a in artifacts
        ]
    path.write_text("\n".join(lines) + "\n")
    return path
