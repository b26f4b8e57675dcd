"""The user's side of clarification: an injected :class:`Clarifier` answers questions.

The command line asks on the terminal (:class:`PromptClarifier`); tests script the
answers (:class:`ScriptedClarifier`, loud when it runs out); a service or a batch job
passes :class:`NoClarifier`, so an underspecified request ends asking its question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Clarifier(Protocol):
    """Answers a question about the request (None: no answer)."""

    def ask(self, question: str) -> str | None:
        """The user's answer to ``question``."""
        ...


class NoClarifier:
    """Never answers."""

    def ask(self, question: str) -> str | None:
        """No answer."""
        return None


class PromptClarifier:
    """Asks through an injected prompt function (the CLI passes ``typer.prompt``)."""

    def __init__(self, prompt: Callable[[str], str]) -> None:
        self.prompt = prompt

    def ask(self, question: str) -> str | None:
        """The answer typed by the user ('' counts as none)."""
        answer = self.prompt(question)
        return answer or None


class ClarifierExhausted(RuntimeError):
    """A scripted clarifier was asked more questions than it has answers."""


class ScriptedClarifier:
    """Answers from a script, in order, and keeps the questions it was asked."""

    def __init__(self, answers: Sequence[str | None]) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []

    def ask(self, question: str) -> str | None:
        """The next scripted answer."""
        if len(self.questions) >= len(self.answers):
            raise ClarifierExhausted(
                f"scripted clarifier has {len(self.answers)} answers; asked again: {question}"
            )
        self.questions.append(question)
        return self.answers[len(self.questions) - 1]
