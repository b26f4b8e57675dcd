"""Reviewers that need no model: a scripted one for tests and demos.

The agent layer plugs a real model in through the same
:class:`~simwright.campaign.review.Reviewer` protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from simwright.campaign.review import RawDecision, ReviewRequest

Reply = RawDecision | Callable[[ReviewRequest], RawDecision]
"""A scripted reply: a fixed decision, or a function of the request."""


class ScriptExhaustedError(RuntimeError):
    """A scripted reviewer was asked more often than it has replies."""


class ScriptedReviewer:
    """Answers review requests from a script, in order; fails loudly when it runs out.

    Every request is kept in :attr:`calls`, so a test can count model calls
    through the same seam production uses.
    """

    def __init__(self, replies: Sequence[Reply] = (), name: str = "scripted") -> None:
        self.name = name
        self._replies = list(replies)
        self.calls: list[ReviewRequest] = []

    def review(self, request: ReviewRequest) -> RawDecision:
        """The next scripted reply (a callable reply is called with the request)."""
        self.calls.append(request)
        if len(self.calls) > len(self._replies):
            raise ScriptExhaustedError(
                f"scripted reviewer {self.name!r} has no reply for call {len(self.calls)} "
                f"(event {request.event.get('event_id')!r}, kind {request.event.get('kind')!r})"
            )
        reply = self._replies[len(self.calls) - 1]
        return reply(request) if callable(reply) else reply
