"""A module no test imports on purpose: refusals must leave it out of ``sys.modules``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Marker:
    """A dataclass a stored value could name."""

    value: int = 0


def factory(**kwargs: object) -> Marker:
    """A callable a spec could name as a calculator."""
    return Marker()
