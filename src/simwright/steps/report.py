"""The last act of every protocol: write the report, record it, return the result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from simwright.graph import RunContext
from simwright.reporting import write_report
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference


def report_result(
    ctx: RunContext,
    *,
    title: str,
    summary: str,
    values: Mapping[str, Quantity],
    method: str,
    artifacts: Sequence[ArtifactRef],
    references: Sequence[Reference] = (),
    notes: Sequence[str] = (),
) -> ProtocolResult:
    """Write ``report.md`` in the step directory, record it, and return the result.

    The result lists ``artifacts`` followed by the report itself.
    """
    path = write_report(
        ctx.workdir / "report.md",
        title=title,
        summary=summary,
        values=values,
        method=method,
        artifacts=artifacts,
        references=references,
        notes=notes,
    )
    report = ctx.artifact(path, "report", "human-readable report")
    return ProtocolResult(dict(values), (*artifacts, report), summary, tuple(references))
