"""A conversation as plain text (what critics read) and as JSON (what the run keeps)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic_ai.messages import (
    BaseToolCallPart,
    BaseToolReturnPart,
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    RetryPromptPart,
    TextPart,
    UserPromptPart,
)

PART_CHARS = 12_000
"""The longest text of one part kept in a transcript (scripts are usually far shorter)."""


def _cut(text: str, limit: int = PART_CHARS) -> str:
    return (
        text
        if len(text) <= limit
        else text[:limit] + f"\n[... {len(text) - limit} more characters]"
    )


def _request_lines(message: ModelRequest) -> list[str]:
    lines = []
    for part in message.parts:
        if isinstance(part, UserPromptPart):
            content = part.content if isinstance(part.content, str) else str(part.content)
            lines.append(f"[user]\n{_cut(content)}")
        elif isinstance(part, BaseToolReturnPart):
            lines.append(f"[result of {part.tool_name}]\n{_cut(part.model_response_str())}")
        elif isinstance(part, RetryPromptPart):
            lines.append(f"[refused]\n{_cut(part.model_response())}")
    return lines


def transcript(messages: Sequence[ModelMessage]) -> str:
    """The executor's history: prompts, tool calls with their arguments, results, refusals."""
    lines: list[str] = []
    for message in messages:
        if isinstance(message, ModelRequest):
            lines += _request_lines(message)
            continue
        for part in message.parts:
            if isinstance(part, BaseToolCallPart):
                lines.append(f"[call {part.tool_name}]\n{_cut(_args_text(part))}")
            elif isinstance(part, TextPart) and part.content.strip():
                lines.append(f"[says]\n{_cut(part.content)}")
    return "\n\n".join(lines)


def _args_text(part: BaseToolCallPart) -> str:
    args = part.args_as_dict()
    if set(args) == {"INVALID_JSON"}:
        return part.args_as_json_str()
    return "\n".join(
        f"{k}:\n{v}" if isinstance(v, str) and "\n" in v else f"{k}: {v}" for k, v in args.items()
    )


def save_transcript(messages: Sequence[ModelMessage], path: Path) -> Path:
    """Write the conversation as pydantic-ai's JSON message format."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(ModelMessagesTypeAdapter.dump_json(list(messages), indent=1))
    return path
