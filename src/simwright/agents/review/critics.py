"""The critic committee: N critics vote on an executor's full history; a rule decides.

Verdict (:func:`verdict_of`, a pure function): **fail** if any vote is
``malicious``; **revise** if any is ``reject`` or the share of ``concern`` votes
exceeds the threshold (default 0.5); otherwise **pass**. A committee without
critics passes (the deterministic checks still apply). A critic whose every tier
fails counts as a ``concern`` ("critic unavailable"), never as a pass.

On revise a summarizer model condenses the reasons into feedback for the executor
(without a usable summarizer the reasons are joined as they are). Review points:
``pre_submission`` (a LAMMPS script before its job runs), ``completion`` (other
executors before a subtask is finalized), ``safety`` (a script refused by a safety
rule). Every round is written to ``agent_reviews``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_ai import Agent, ToolOutput
from pydantic_ai.models import Model

from simwright.agents.errors import TiersExhausted
from simwright.agents.replies import CriticVote, Feedback, Verdict, VoteKind
from simwright.agents.setup import prompts
from simwright.agents.setup.bundle import AgentContext
from simwright.agents.setup.config import RoleConfig
from simwright.agents.setup.tiers import call_tiered

ReviewSink = Callable[["Review", str], None]
"""Where rounds are recorded: ``sink(review, subtask_id)``."""


@dataclass(frozen=True)
class Ballot:
    """One critic's vote."""

    critic: str
    vote: VoteKind
    reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {"critic": self.critic, "vote": self.vote, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class Review:
    """One round of the committee: its ballots, verdict and feedback."""

    point: str
    round: int
    ballots: tuple[Ballot, ...]
    verdict: Verdict
    feedback: str = ""


def verdict_of(votes: Sequence[VoteKind], concern_threshold: float = 0.5) -> Verdict:
    """Fail on any malicious vote; revise on any reject or too many concerns; else pass."""
    if not votes:
        return "pass"
    if "malicious" in votes:
        return "fail"
    concern_share = votes.count("concern") / len(votes)
    if "reject" in votes or concern_share > concern_threshold:
        return "revise"
    return "pass"


def _vote_agent() -> Agent[None, CriticVote]:
    return Agent(
        output_type=ToolOutput(CriticVote, name="vote"),
        instructions=prompts.CRITIC,
        retries=2,
    )


def _feedback_agent() -> Agent[None, Feedback]:
    return Agent(
        output_type=ToolOutput(Feedback, name="give_feedback"),
        instructions=prompts.SUMMARIZER,
        retries=2,
    )


class Committee:
    """The critics of a run, their summarizer and the sink of their rounds."""

    def __init__(self, ctx: AgentContext, sink: ReviewSink | None = None) -> None:
        self.ctx = ctx
        self.sink = sink
        self._vote = _vote_agent()
        self._feedback = _feedback_agent()

    @property
    def size(self) -> int:
        """The number of critics."""
        return len(self.ctx.settings.critics)

    async def review(
        self, *, point: str, subtask: str, round_: int, subject: str, history: str
    ) -> Review:
        """Let every critic vote on ``history``; the verdict, and feedback on revise."""
        ballots = []
        for index, config in enumerate(self.ctx.settings.critics, start=1):
            ballots.append(await self._ballot(index, config, subtask, subject, history))
        verdict = verdict_of([b.vote for b in ballots], self.ctx.settings.concern_threshold)
        feedback = ""
        if verdict == "revise":
            feedback = await self._summarize(subtask, subject, ballots)
        elif verdict == "fail":
            feedback = _joined(ballots)
        review = Review(point, round_, tuple(ballots), verdict, feedback)
        self.ctx.note(
            "critic_review",
            f"{point} review of {subtask} (round {round_}): {verdict}",
            subtask=subtask,
            votes=[b.as_dict() for b in ballots],
        )
        if self.sink is not None:
            self.sink(review, subtask)
        return review

    async def _ballot(
        self, index: int, config: RoleConfig, subtask: str, subject: str, history: str
    ) -> Ballot:
        name = f"critic{index}"
        prompt = f"Review point: {subject}\n\nExecutor history:\n{history}"

        async def ask(model: Model) -> CriticVote:
            return (await self._vote.run(prompt, model=model)).output

        try:
            vote = await call_tiered(
                self.ctx, config, role="critic", subtask=subtask, what=f"{name} vote", call=ask
            )
        except TiersExhausted as exc:
            return Ballot(name, "concern", (f"critic unavailable: {exc}",))
        return Ballot(name, vote.vote, tuple(vote.reasons))

    async def _summarize(self, subtask: str, subject: str, ballots: Sequence[Ballot]) -> str:
        joined = _joined(ballots)
        prompt = f"Review point: {subject}\nCritics' reasons:\n{joined}"

        async def ask(model: Model) -> Feedback:
            return (await self._feedback.run(prompt, model=model)).output

        try:
            config = self.ctx.settings.role("summarizer")
            result = await call_tiered(
                self.ctx, config, role="summarizer", subtask=subtask, what="summary", call=ask
            )
        except TiersExhausted:
            return joined
        return result.feedback


def _joined(ballots: Sequence[Ballot]) -> str:
    reasons = [f"{b.critic} ({b.vote}): {r}" for b in ballots for r in b.reasons]
    return "\n".join(reasons) or "the critics gave no reasons"
