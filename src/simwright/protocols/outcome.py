"""The last act of every protocol; it lives in :mod:`simwright.steps.report` now."""

from __future__ import annotations

from simwright.steps.report import report_result

__all__ = ["report_result"]
