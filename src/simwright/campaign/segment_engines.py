"""Segment engines by name: the built-in ones and those of the ``simwright.campaign_engines`` group.

A package adds an engine by exposing, under that entry-point group, a factory
``(settings) -> SegmentEngine``. Built in: ``lammps_gcmc`` (LAMMPS ``fix gcmc``
in slit pores), ``lammps_clay_gcmc`` (water vapour on montmorillonite) and
``synthetic`` (instant synthetic observables).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from simwright.campaign.engine import SegmentEngine
from simwright.campaign.gcmc import GcmcSegmentEngine, gcmc_launcher
from simwright.campaign.status import CampaignError
from simwright.campaign.synthetic import SyntheticEngine
from simwright.executors.factory import segment_job_runners
from simwright.plugins import load_plugin, plugin_names
from simwright.settings import Settings

ENGINE_GROUP: Final = "simwright.campaign_engines"

EngineFactory = Callable[[Settings], SegmentEngine]
"""Makes a segment engine for the machine described by ``settings``."""


def lammps_gcmc_engine(settings: Settings) -> SegmentEngine:
    """The ``lammps_gcmc`` engine (LAMMPS found through ``settings``, one rank, one thread;
    on the batch scheduler of ``settings.executor`` when it names one)."""
    return GcmcSegmentEngine(lambda: gcmc_launcher(settings), jobs=segment_job_runners(settings))


def lammps_clay_gcmc_engine(settings: Settings) -> SegmentEngine:
    """The ``lammps_clay_gcmc`` engine (clay + water vapour; one rank, one thread)."""
    # lazy: the clay builder and force field load only for specs that name this engine
    from simwright.campaign.clay import ClaySegmentEngine

    return ClaySegmentEngine(lambda: gcmc_launcher(settings))


def synthetic_engine(settings: Settings) -> SegmentEngine:
    """The ``synthetic`` engine (needs nothing from ``settings``)."""
    return SyntheticEngine()


BUILTIN: Final[Mapping[str, EngineFactory]] = {
    "lammps_gcmc": lammps_gcmc_engine,
    "lammps_clay_gcmc": lammps_clay_gcmc_engine,
    "synthetic": synthetic_engine,
}


def engine_names() -> tuple[str, ...]:
    """Every engine name known: built-in and registered."""
    return tuple(sorted({*BUILTIN, *plugin_names(ENGINE_GROUP)}))


def make_engine(name: str, settings: Settings) -> SegmentEngine:
    """The segment engine called ``name``."""
    if name in BUILTIN:
        return BUILTIN[name](settings)
    factory = load_plugin(ENGINE_GROUP, name, object, what="campaign engine", error=CampaignError)
    if factory is None:
        raise CampaignError(f"unknown campaign engine {name!r}; known: {', '.join(engine_names())}")
    if not callable(factory):
        raise CampaignError(f"campaign engine plugin {name!r} is not a factory")
    engine: SegmentEngine = factory(settings)
    return engine
