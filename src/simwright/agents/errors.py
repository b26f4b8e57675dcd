"""Errors of the agent layer, all :class:`~simwright.errors.SimwrightError` subclasses."""

from __future__ import annotations

from simwright.errors import SimwrightError


class AgentError(SimwrightError):
    """The agent layer cannot go on (every model tier failed, an invalid plan...)."""


class AgentConfigError(AgentError):
    """No model is configured, or a model name / provider / key cannot be used."""


class TiersExhausted(AgentError):
    """Every model tier of a role failed to give a valid reply for one call."""


class BudgetExceeded(AgentError):
    """A hard cap of the run (requests, tokens, cost) would be exceeded by the next call.

    Raised *before* the call is made; it ends the run and is never retried.
    """


class SubtaskFailed(AgentError):
    """A subtask failed for good (a Malicious vote): no retry, no escalation."""


class AttemptFailed(AgentError):
    """One attempt at a subtask failed; the executor may retry with fresh memory."""


class HeldForReview(AgentError):
    """The run waits for a person: a plan to approve, or a Fail verdict to look at."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
