"""The state machine of a campaign state, review event kinds and review actions.

Each (system, condition) of a campaign moves through::

    pending -> initializing -> running -> analyzing -> running (continue)
                                                    -> accepted -> archived
    any active status -> needs_review | failed

:data:`TRANSITIONS` is the whole table; :func:`check_transition` refuses the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from simwright.errors import SimwrightError


class CampaignError(SimwrightError):
    """A campaign cannot do what was asked (illegal transition, busy, unknown id...)."""


class StateStatus(StrEnum):
    """Where one (system, condition) state of a campaign stands."""

    PENDING = "pending"
    INITIALIZING = "initializing"
    RUNNING = "running"
    ANALYZING = "analyzing"
    ACCEPTED = "accepted"
    ARCHIVED = "archived"
    FAILED = "failed"
    NEEDS_REVIEW = "needs_review"


S = StateStatus

TRANSITIONS: Final[Mapping[StateStatus, frozenset[StateStatus]]] = {
    S.PENDING: frozenset({S.INITIALIZING}),
    S.INITIALIZING: frozenset({S.RUNNING, S.NEEDS_REVIEW, S.FAILED}),
    S.RUNNING: frozenset({S.ANALYZING, S.NEEDS_REVIEW, S.FAILED}),
    S.ANALYZING: frozenset({S.RUNNING, S.ACCEPTED, S.NEEDS_REVIEW, S.FAILED}),
    S.ACCEPTED: frozenset({S.ARCHIVED, S.NEEDS_REVIEW}),
    S.ARCHIVED: frozenset({S.PENDING}),
    S.NEEDS_REVIEW: frozenset({S.RUNNING, S.ACCEPTED, S.FAILED, S.PENDING}),
    S.FAILED: frozenset(),
}
"""Allowed status changes. ``archived``/``needs_review`` -> ``pending`` is a rebuild of
the chain; a status may also stay what it is (a resumed state re-enters its status)."""

ACTIVE: Final = frozenset({S.INITIALIZING, S.RUNNING, S.ANALYZING, S.ACCEPTED})
"""Statuses a state can be interrupted in (a killed process leaves it there)."""

TERMINAL: Final = frozenset({S.ARCHIVED, S.FAILED})
"""Statuses from which nothing more happens without a human."""


def check_transition(current: StateStatus | str, new: StateStatus | str) -> StateStatus:
    """``new`` as a :class:`StateStatus` if ``current -> new`` is allowed, else raise."""
    old, target = StateStatus(current), StateStatus(new)
    if old != target and target not in TRANSITIONS[old]:
        allowed = ", ".join(sorted(TRANSITIONS[old])) or "nothing (terminal)"
        raise CampaignError(f"illegal state transition {old} -> {target}; {old} allows {allowed}")
    return target


class EventKind(StrEnum):
    """Review events: the only points where a human or a model is asked anything."""

    CONVERGENCE_ANOMALY = "CONVERGENCE_ANOMALY"
    PROVENANCE_CONFLICT = "PROVENANCE_CONFLICT"
    UNKNOWN_FAILURE = "UNKNOWN_FAILURE"
    NEEDS_REASONING = "NEEDS_REASONING"
    BATCH_COMPLETE = "BATCH_COMPLETE"


class ReviewAction(StrEnum):
    """What a review decision may ask for."""

    CONTINUE = "continue"
    """Run more segments of the state (with one budget extension when it is spent)."""
    ACCEPT = "accept"
    """Accept the state on its most recent window as it stands."""
    RETRY = "retry"
    """Run the failed segment again."""
    STOP = "stop"
    """Mark the state failed; the rest of its system's path is not run."""
    REBUILD = "rebuild"
    """Start a new chain for the system from the state whose restart was refused."""
    ACKNOWLEDGE = "acknowledge"
    """Close an informational event."""


A = ReviewAction

ALLOWED_ACTIONS: Final[Mapping[EventKind, frozenset[ReviewAction]]] = {
    EventKind.CONVERGENCE_ANOMALY: frozenset({A.CONTINUE, A.ACCEPT, A.STOP}),
    EventKind.NEEDS_REASONING: frozenset({A.CONTINUE, A.ACCEPT, A.STOP}),
    EventKind.UNKNOWN_FAILURE: frozenset({A.RETRY, A.STOP}),
    EventKind.PROVENANCE_CONFLICT: frozenset({A.REBUILD, A.STOP}),
    EventKind.BATCH_COMPLETE: frozenset({A.ACKNOWLEDGE}),
}
"""Actions a decision may take for each event kind."""

HUMAN_ONLY: Final = frozenset({A.REBUILD})
"""Actions only a human may take (a model's advice is limited to the rest)."""

PARAMETER_ACTIONS: Final = frozenset({A.CONTINUE, A.RETRY})
"""Actions that may change the next segment's length."""
