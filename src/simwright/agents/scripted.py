"""Scripted models for tests, demos and the benchmark: replies in order, loud when out.

A :class:`ScriptedModel` is a pydantic-ai ``FunctionModel`` whose function returns
the next reply of its script: a ``ModelResponse``, or a function of the
conversation (to read a path or a value the framework produced). One request more
than the script holds raises :class:`ScriptExhausted` — a ``RuntimeError`` the
agent layer never catches, so the test fails loudly. Every conversation it was
sent is kept in :attr:`ScriptedModel.seen`.

Build replies with :func:`call` (a tool call), :func:`raw_call` (arguments as raw,
possibly broken, JSON text) and :func:`text`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models import Model
from pydantic_ai.models.function import AgentInfo, FunctionModel

from simwright.agents.setup.config import ModelRef

Reply = ModelResponse | Callable[[list[ModelMessage], AgentInfo], ModelResponse]


class ScriptExhausted(RuntimeError):
    """A scripted model was asked more often than its script has replies."""


def call(tool: str, **args: Any) -> ModelResponse:
    """A reply calling ``tool`` with ``args``."""
    return ModelResponse(parts=[ToolCallPart(tool, args)])


def raw_call(tool: str, args_json: str) -> ModelResponse:
    """A reply calling ``tool`` with raw JSON text (which may be invalid on purpose)."""
    return ModelResponse(parts=[ToolCallPart(tool, args_json)])


def text(content: str) -> ModelResponse:
    """A plain text reply."""
    return ModelResponse(parts=[TextPart(content)])


class ScriptedModel(FunctionModel):
    """A model that answers from a script, in order."""

    def __init__(self, replies: Sequence[Reply], name: str = "scripted") -> None:
        self.script = list(replies)
        self.seen: list[list[ModelMessage]] = []
        self.infos: list[AgentInfo] = []
        self.script_name = name
        super().__init__(self._next, model_name=name)

    @property
    def used(self) -> int:
        """How many replies were consumed."""
        return len(self.seen)

    @property
    def left(self) -> int:
        """How many replies are left."""
        return len(self.script) - len(self.seen)

    def _next(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(self.seen) >= len(self.script):
            tools = ", ".join(t.name for t in [*info.function_tools, *info.output_tools])
            raise ScriptExhausted(
                f"scripted model {self.script_name!r} has only {len(self.script)} replies; "
                f"asked again (tools offered: {tools or 'none'})"
            )
        self.seen.append(list(messages))
        self.infos.append(info)
        reply = self.script[len(self.seen) - 1]
        return reply if isinstance(reply, ModelResponse) else reply(messages, info)


class ScriptedModels:
    """A model factory for :class:`~simwright.agents.setup.bundle.AgentContext` from named scripts.

    Configure roles with names like ``scripted:planner``; the factory hands out the
    script registered under that name and refuses unknown ones.
    """

    def __init__(self, scripts: Mapping[str, ScriptedModel]) -> None:
        self.scripts = dict(scripts)

    def __call__(self, ref: ModelRef) -> Model:
        """The scripted model registered as ``ref.name``."""
        if ref.name not in self.scripts:
            raise KeyError(f"no script registered for model {ref.name!r}")
        return self.scripts[ref.name]

    def left(self) -> dict[str, int]:
        """Unused replies per script (a finished test expects all zero)."""
        return {name: m.left for name, m in self.scripts.items()}


def last_tool_return(messages: Sequence[ModelMessage], tool: str) -> str:
    """The text of the latest return of ``tool`` in a conversation ('' if none)."""
    # lazy: optional extra [agents]
    from pydantic_ai.messages import BaseToolReturnPart

    for message in reversed(messages):
        for part in reversed(message.parts):
            if isinstance(part, BaseToolReturnPart) and part.tool_name == tool:
                return part.model_response_str()
    return ""
