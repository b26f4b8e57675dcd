"""Strict JSON: no NaN or Infinity, which JSON does not have (the CLI and the service)."""

from __future__ import annotations

import math
from typing import Any


def strict_json(data: Any) -> Any:
    """``data`` with every NaN or infinity replaced by None, noted under ``non_finite``.

    Strict JSON has no NaN or Infinity. A non-finite float becomes ``null`` and, when
    ``data`` is a dictionary, its path (``results.msd.value``) and original spelling
    (``"inf"``, ``"-inf"``, ``"nan"``) are listed under the top-level key ``non_finite``.
    """
    found: dict[str, str] = {}
    clean = _finite(data, "", found)
    if found and isinstance(clean, dict):
        clean["non_finite"] = found
    return clean


def _finite(value: Any, path: str, found: dict[str, str]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        found[path or "."] = repr(value)
        return None
    if isinstance(value, dict):
        return {k: _finite(v, f"{path}.{k}" if path else str(k), found) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v, f"{path}[{i}]", found) for i, v in enumerate(value)]
    return value
