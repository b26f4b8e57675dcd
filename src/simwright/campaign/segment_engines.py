"""Segment engines by name: the built-in ones and those of the ``simwright.campaign_engines`` group.

A package adds an engine by exposing, under that entry-point group, a factory
``(settings) -> SegmentEngine``. Built in: ``lammps_gcmc`` (LAMMPS ``fix gcmc``
in slit pores) and ``synthetic`` (instant synthetic observables).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Final

from simwright.campaign.engine import SegmentEngine
from simwright.campaign.status import CampaignError
from simwright.settings import Settings

ENGINE_GROUP: Final = "simwright.campaign_engines"

EngineFactory = Callable[[Settings], SegmentEngine]
"""Makes a segment engine for the machine described by ``settings``."""


def lammps_gcmc_engine(settings: Settings) -> SegmentEngine:
    """The ``lammps_gcmc`` engine (LAMMPS found through ``settings``, one rank, one thread)."""
    from simwright.campaign.gcmc import GcmcSegmentEngine, gcmc_launcher

    return GcmcSegmentEngine(lambda: gcmc_launcher(settings))


def synthetic_engine(settings: Settings) -> SegmentEngine:
    """The ``synthetic`` engine (needs nothing from ``settings``)."""
    from simwright.campaign.synthetic import SyntheticEngine

    return SyntheticEngine()


BUILTIN: Final[Mapping[str, EngineFactory]] = {
    "lammps_gcmc": lammps_gcmc_engine,
    "synthetic": synthetic_engine,
}


def engine_names() -> tuple[str, ...]:
    """Every engine name known: built-in and registered."""
    return tuple(sorted({*BUILTIN, *(ep.name for ep in entry_points(group=ENGINE_GROUP))}))


def make_engine(name: str, settings: Settings) -> SegmentEngine:
    """The segment engine called ``name``."""
    if name in BUILTIN:
        return BUILTIN[name](settings)
    for ep in entry_points(group=ENGINE_GROUP):
        if ep.name == name:
            try:
                factory = ep.load()
            except Exception as exc:
                raise CampaignError(
                    f"campaign engine plugin {name!r} failed to load: {exc}"
                ) from exc
            engine: SegmentEngine = factory(settings)
            return engine
    raise CampaignError(f"unknown campaign engine {name!r}; known: {', '.join(engine_names())}")
