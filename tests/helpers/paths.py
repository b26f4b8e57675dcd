"""Where the test suite and the repository are, for tests in any folder of the tree."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
GOLDEN = TESTS / "golden"
FIXTURES = TESTS / "fixtures"
