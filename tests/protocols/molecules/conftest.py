"""Skip the molecular protocol tests where the [molecules] extra is not installed."""

from __future__ import annotations

import importlib.util

import pytest

MISSING = [
    m for m in ("pyscf", "tblite", "geometric", "rdkit") if importlib.util.find_spec(m) is None
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test here skipped when an engine of the extra is missing."""
    if MISSING:
        skip = pytest.mark.skip(reason=f"extra [molecules] not installed: {', '.join(MISSING)}")
        for item in items:
            if "protocols/molecules" in str(item.fspath):
                item.add_marker(skip)
