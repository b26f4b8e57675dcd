"""Installation-level allow-lists for the test calculators of :mod:`helpers.slowcalc`.

A spec never makes simwright import a ``module:Class``: the test home's own
``config.toml`` allows these calculators, exactly as an installation would.
"""

from __future__ import annotations

from pathlib import Path

TEST_CALCULATORS = ("helpers.slowcalc:SlowEMT", "helpers.slowcalc:BrokenEMT")


def allow_test_calculators(home: Path) -> Path:
    """Write ``home/config.toml`` allowing :data:`TEST_CALCULATORS`; returns its path."""
    home.mkdir(parents=True, exist_ok=True)
    names = ", ".join(f'"{name}"' for name in TEST_CALCULATORS)
    path = home / "config.toml"
    path.write_text(f"[plugins]\nallow = [{names}]\n")
    return path
