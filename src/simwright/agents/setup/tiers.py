"""The tiered model hierarchy: each model gets K attempts, then the next, more capable one.

:func:`tier_for_attempt` maps a subtask attempt to its tier (the executor's retries
escalate this way); :func:`call_tiered` runs one model call (a plan, a vote, a
summary) through the tiers until one gives a valid reply. Invalid replies that
pydantic-ai could not get repaired within a run (bad JSON, unknown tools,
out-of-range values), provider errors and exhausted per-call request limits count
as failed attempts; :class:`~simwright.agents.errors.BudgetExceeded` and any other
error end the call at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

from simwright.agents.errors import TiersExhausted
from simwright.agents.setup.config import ModelRef, RoleConfig

if TYPE_CHECKING:
    from pydantic_ai.models import Model

    from simwright.agents.setup.bundle import AgentContext

T = TypeVar("T")

RECOVERABLE: tuple[type[Exception], ...] = (
    UnexpectedModelBehavior,
    ModelAPIError,
    UsageLimitExceeded,
)
"""Errors after which the next attempt (or tier) is tried."""


def describe(exc: BaseException) -> str:
    """An error with its cause (pydantic-ai puts the last invalid reply's problem there)."""
    cause = exc.__cause__
    text = f"{type(exc).__name__}: {exc}"
    return f"{text} (last problem: {str(cause)[:400]})" if cause is not None else text


def tier_for_attempt(config: RoleConfig, attempt: int) -> tuple[int, ModelRef]:
    """The tier (index, model) of the 1-based ``attempt``; the last tier after all are used."""
    if attempt < 1:
        raise ValueError("attempts count from 1")
    used = 0
    for index, ref in enumerate(config.tiers):
        used += ref.attempts
        if attempt <= used:
            return index, ref
    return len(config.tiers) - 1, config.tiers[-1]


def total_attempts(config: RoleConfig) -> int:
    """The attempts of all tiers together."""
    return sum(t.attempts for t in config.tiers)


async def call_tiered(
    ctx: AgentContext,
    config: RoleConfig,
    *,
    role: str,
    subtask: str,
    what: str,
    call: Callable[[Model], Awaitable[T]],
) -> T:
    """``call`` with the first tier's model, retried and escalated on recoverable errors."""
    failures: list[str] = []
    for attempt in range(1, total_attempts(config) + 1):
        index, ref = tier_for_attempt(config, attempt)
        model = ctx.metered(ref, role=role, subtask=subtask)
        try:
            return await call(model)
        except RECOVERABLE as exc:
            why = describe(exc)
            failures.append(f"{ref.name}: {why}")
            ctx.note(
                "model_attempt_failed",
                f"{what}: {ref.name} (tier {index + 1}) failed: {why}",
                role=role,
                subtask=subtask,
                tier=index + 1,
            )
    raise TiersExhausted(f"{what}: every model tier failed ({'; '.join(failures)})")
