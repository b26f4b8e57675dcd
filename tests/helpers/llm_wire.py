"""Reply bodies in the two wire formats the test model server speaks (no tests here).

A scripted reply is a pydantic-ai ``ModelResponse`` (built with
:func:`simwright.agents.scripted.call`, ``raw_call``, ``text``); this module renders it as
an OpenAI chat-completions body or an Anthropic messages body, whole or as the
server-sent events of a streamed reply. Token counts are deterministic stand-ins
(about four characters a token) so the ledger has provider-reported numbers to book.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart

CREATED = 1_767_225_600  # a fixed timestamp: replies are reproducible


def tokens_of(text: str) -> int:
    """A deterministic token count of ``text`` (at least 1)."""
    return max(1, len(text) // 4)


def _args_text(part: ToolCallPart) -> str:
    """The arguments as the wire carries them (raw text stays as written, even if broken)."""
    if isinstance(part.args, str):
        return part.args
    return json.dumps(part.args or {})


def _parts(reply: ModelResponse) -> tuple[list[str], list[ToolCallPart]]:
    texts = [p.content for p in reply.parts if isinstance(p, TextPart)]
    calls = [p for p in reply.parts if isinstance(p, ToolCallPart)]
    return texts, calls


def _call_id(index: int, serial: int) -> str:
    return f"call_{serial}_{index}"


def output_tokens(reply: ModelResponse) -> int:
    """The stand-in output token count of ``reply``."""
    texts, calls = _parts(reply)
    return tokens_of("".join(texts) + "".join(c.tool_name + _args_text(c) for c in calls))


# -- OpenAI chat completions ---------------------------------------------------------
def openai_body(reply: ModelResponse, model: str, serial: int, prompt: int) -> dict[str, Any]:
    """A ``chat.completion`` object for ``reply``."""
    texts, calls = _parts(reply)
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) or None}
    if calls:
        message["tool_calls"] = [
            {
                "id": _call_id(i, serial),
                "type": "function",
                "function": {"name": c.tool_name, "arguments": _args_text(c)},
            }
            for i, c in enumerate(calls)
        ]
    out = output_tokens(reply)
    return {
        "id": f"chatcmpl-{serial}",
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out},
    }


def _halves(text: str) -> list[str]:
    """``text`` in two pieces (a streamed value arrives in several deltas)."""
    middle = len(text) // 2
    return [piece for piece in (text[:middle], text[middle:]) if piece]


def openai_stream(reply: ModelResponse, model: str, serial: int, prompt: int) -> Iterator[str]:
    """The ``data:`` lines of a streamed ``chat.completion.chunk`` sequence, then ``[DONE]``."""
    texts, calls = _parts(reply)

    def chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> str:
        body: dict[str, Any] = {
            "id": f"chatcmpl-{serial}",
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
            if delta or finish
            else [],
        }
        if usage is not None:
            body["usage"] = usage
        return f"data: {json.dumps(body)}\n\n"

    yield chunk({"role": "assistant", "content": ""})
    for piece in _halves("".join(texts)):
        yield chunk({"content": piece})
    for i, c in enumerate(calls):
        head = {"index": i, "id": _call_id(i, serial), "type": "function"}
        yield chunk({"tool_calls": [{**head, "function": {"name": c.tool_name, "arguments": ""}}]})
        for piece in _halves(_args_text(c)):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, "tool_calls" if calls else "stop")
    out = output_tokens(reply)
    yield chunk(
        {}, None, {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out}
    )
    yield "data: [DONE]\n\n"


# -- Anthropic messages ----------------------------------------------------------------
def _anthropic_input(part: ToolCallPart) -> Any:
    """A tool call's ``input`` object; broken raw JSON travels as a string (the model's
    mistake reaches the client as an input that does not validate)."""
    if isinstance(part.args, str):
        try:
            return json.loads(part.args)
        except json.JSONDecodeError:
            return {"_raw": part.args}
    return part.args or {}


def anthropic_body(reply: ModelResponse, model: str, serial: int, prompt: int) -> dict[str, Any]:
    """A ``message`` object for ``reply``."""
    texts, calls = _parts(reply)
    content: list[dict[str, Any]] = [{"type": "text", "text": t} for t in texts if t]
    content += [
        {
            "type": "tool_use",
            "id": f"toolu_{serial}_{i}",
            "name": c.tool_name,
            "input": _anthropic_input(c),
        }
        for i, c in enumerate(calls)
    ]
    return {
        "id": f"msg_{serial}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": prompt, "output_tokens": output_tokens(reply)},
    }


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"


def anthropic_stream(reply: ModelResponse, model: str, serial: int, prompt: int) -> Iterator[str]:
    """The server-sent events of a streamed message (tool input as ``input_json_delta``)."""
    texts, calls = _parts(reply)
    head = anthropic_body(ModelResponse(parts=[]), model, serial, prompt)
    head["usage"] = {"input_tokens": prompt, "output_tokens": 1}
    yield _event("message_start", {"message": head})
    index = 0
    for t in (t for t in texts if t):
        yield _event(
            "content_block_start", {"index": index, "content_block": {"type": "text", "text": ""}}
        )
        for piece in _halves(t):
            yield _event(
                "content_block_delta",
                {"index": index, "delta": {"type": "text_delta", "text": piece}},
            )
        yield _event("content_block_stop", {"index": index})
        index += 1
    for i, c in enumerate(calls):
        block = {"type": "tool_use", "id": f"toolu_{serial}_{i}", "name": c.tool_name, "input": {}}
        yield _event("content_block_start", {"index": index, "content_block": block})
        for piece in _halves(_args_text(c)):
            delta = {"type": "input_json_delta", "partial_json": piece}
            yield _event("content_block_delta", {"index": index, "delta": delta})
        yield _event("content_block_stop", {"index": index})
        index += 1
    yield _event(
        "message_delta",
        {
            "delta": {"stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": output_tokens(reply)},
        },
    )
    yield _event("message_stop", {})
