"""What every part of a running campaign shares, injected once: records, engine, reviewer.

Also the observer protocol (progress for the command line, hooks for tests), the
layout of a campaign directory and the derivation of per-segment seeds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from simwright.campaign.engine import SegmentEngine
from simwright.campaign.repository import CampaignStore, StateView
from simwright.campaign.review import Reviewer
from simwright.campaign.spec import CampaignSpec
from simwright.store.models_campaign import CampaignEventRow, CampaignRow

MAX_SEED: Final = 900_000_000
"""Seeds lie in [1, MAX_SEED]: LAMMPS' Marsaglia generator refuses larger ones."""


class CampaignObserver(Protocol):
    """Told what a campaign does, as it does it (the CLI prints it; tests may act on it)."""

    def segment_started(self, state: StateView, seq: int, attempt: int, steps: int) -> None:
        """A segment's engine is about to run."""
        ...

    def segment_finished(self, state: StateView, seq: int, status: str, wall_s: float) -> None:
        """A segment's record was committed (``status`` completed or failed)."""
        ...

    def state_changed(self, state: StateView) -> None:
        """A state's status changed."""
        ...

    def event_raised(self, event: CampaignEventRow, routed_to: str) -> None:
        """A review event was raised and sent to ``routed_to`` (model or human)."""
        ...


class NullObserver:
    """An observer that ignores everything."""

    def segment_started(self, state: StateView, seq: int, attempt: int, steps: int) -> None:
        """Ignore."""

    def segment_finished(self, state: StateView, seq: int, status: str, wall_s: float) -> None:
        """Ignore."""

    def state_changed(self, state: StateView) -> None:
        """Ignore."""

    def event_raised(self, event: CampaignEventRow, routed_to: str) -> None:
        """Ignore."""


@dataclass
class CampaignContext:
    """The campaign being advanced and its injected dependencies."""

    campaign: CampaignRow
    spec: CampaignSpec
    cstore: CampaignStore
    engine: SegmentEngine
    reviewer: Reviewer | None = None
    observer: CampaignObserver = field(default_factory=NullObserver)
    clock: Callable[[], float] = field(default=lambda: 0.0)

    @property
    def directory(self) -> Path:
        """The campaign directory."""
        return Path(self.campaign.workdir)

    def state_dir(self, state: StateView) -> Path:
        """Where the segments of ``state`` on its current chain run."""
        name = f"{state.condition_index + 1:02d}-{state.condition}"
        return self.directory / "states" / state.system / name / state.chain_id

    def events_dir(self) -> Path:
        """Where event directories are written."""
        return self.directory / "events"

    def predecessor(self, state: StateView) -> StateView | None:
        """The state of the same system at the previous condition (None for the first)."""
        if state.condition_index == 0:
            return None
        for other in self.cstore.states(state.campaign_id):
            if other.system == state.system and other.condition_index == state.condition_index - 1:
                return other
        return None


def derive_seed(base: int, chain_id: str, system: str, condition: str, seq: int) -> int:
    """A positive seed from the spec's seed, the chain, the state and the segment index."""
    text = f"{base}|{chain_id}|{system}|{condition}|{seq}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16) % MAX_SEED + 1


def chain_id(system: str, generation: int) -> str:
    """``<system>.c<generation>``: the chain of accepted states of a system."""
    return f"{system}.c{generation}"


def chain_generation(chain: str) -> int:
    """The generation number of a chain id."""
    return int(chain.rsplit(".c", 1)[1])
