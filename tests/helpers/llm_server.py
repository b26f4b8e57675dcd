"""A language-model server on 127.0.0.1 that replays scripted replies over real HTTP.

It speaks the OpenAI chat-completions wire format (``POST /v1/chat/completions``)
and the Anthropic messages format (``POST /v1/messages``), whole or streamed
(server-sent events) as the client asks, so the production provider clients
(pydantic-ai over the ``openai`` and ``anthropic`` SDKs) are tested on the wire,
not only through the in-process seam. Each model name (the request's ``model``)
has its own script, replayed in order; an item is

- a ``ModelResponse`` (built with ``call``, ``raw_call``, ``text`` of
  :mod:`simwright.agents.scripted`), or a function of the :class:`WireRequest`
  returning one (to read a value the framework produced);
- :class:`RateLimited`: HTTP 429 with ``retry-after`` headers;
- :class:`Stall`: the request is held without an answer (the client times out);
- :class:`Garbage`: HTTP 200 whose body is not JSON;
- :class:`Failure`: an HTTP error status.

A model asked once too often gets HTTP 400 and the server records it:
:meth:`ModelServer.check` (called when :func:`serving` ends) fails the test loudly.
Every exchange is logged in :attr:`ModelServer.log`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from pydantic_ai.messages import ModelResponse

from helpers import llm_wire

Wire = Literal["openai", "anthropic"]


@dataclass(frozen=True)
class WireRequest:
    """A request as the server received it."""

    wire: Wire
    model: str
    stream: bool
    body: dict[str, Any]

    def text(self) -> str:
        """Every string of the conversation (system, messages, tool results), in order."""
        found: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        walk(self.body.get("system"))
        walk(self.body.get("messages"))
        return "\n".join(found)

    def last_tool_result(self, tool: str | None = None) -> str:
        """The text of the latest tool result sent back (of ``tool`` when given; '' if none)."""
        names: dict[str, str] = {}
        found = ""
        for message in self.body.get("messages", []):
            for call in message.get("tool_calls") or []:
                names[call["id"]] = call["function"]["name"]
            content = message.get("content")
            if message.get("role") == "tool" and (
                tool is None or names.get(message.get("tool_call_id", "")) == tool
            ):
                found = content if isinstance(content, str) else json.dumps(content)
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "tool_use":
                    names[block["id"]] = block["name"]
                if block.get("type") == "tool_result" and (
                    tool is None or names.get(block.get("tool_use_id", "")) == tool
                ):
                    inner = block.get("content")
                    found = inner if isinstance(inner, str) else _joined(inner)
        return found

    def tools(self) -> list[str]:
        """The names of the tools offered."""
        names = []
        for tool in self.body.get("tools", []):
            names.append(tool.get("name") or tool.get("function", {}).get("name", ""))
        return names


def _joined(blocks: Any) -> str:
    return "".join(b.get("text", "") for b in blocks or [] if isinstance(b, dict))


@dataclass(frozen=True)
class RateLimited:
    """HTTP 429 asking the client to retry after ``retry_after_s`` seconds."""

    retry_after_s: float = 0.02


@dataclass(frozen=True)
class Stall:
    """Hold the request ``seconds`` without answering, then drop the connection."""

    seconds: float = 5.0


@dataclass(frozen=True)
class Garbage:
    """HTTP 200 with a body that is not JSON."""

    body: str = '{"choices": [ this is not json'


@dataclass(frozen=True)
class Failure:
    """An HTTP error status (500: the client's retries apply)."""

    status: int = 500
    message: str = "scripted server error"


Reply = (
    ModelResponse | Callable[[WireRequest], ModelResponse] | RateLimited | Stall | Garbage | Failure
)


@dataclass(frozen=True)
class Exchange:
    """One request and how it was answered."""

    request: WireRequest
    status: int
    kind: str


@dataclass
class ModelServer:
    """The scripts, the log and the address of a running test server."""

    scripts: dict[str, list[Reply]]
    host: str = "127.0.0.1"
    port: int = 0
    log: list[Exchange] = field(default_factory=list)
    exhausted: list[str] = field(default_factory=list)
    closing: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: dict[str, int] = field(default_factory=dict)

    @property
    def openai_url(self) -> str:
        """The base URL an OpenAI client is given."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def anthropic_url(self) -> str:
        """The base URL an Anthropic client is given."""
        return f"http://{self.host}:{self.port}"

    def next_item(self, model: str) -> Reply | None:
        """The next scripted item of ``model`` (None when its script is spent)."""
        with self.lock:
            script = self.scripts.get(model, [])
            index = self.used.get(model, 0)
            if index >= len(script):
                self.exhausted.append(model)
                return None
            self.used[model] = index + 1
            return script[index]

    def left(self) -> dict[str, int]:
        """Unused items per model (a finished test expects all zero)."""
        return {m: len(s) - self.used.get(m, 0) for m, s in self.scripts.items()}

    def requests(self, model: str | None = None) -> list[Exchange]:
        """The exchanges, of one model or all."""
        return [e for e in self.log if model is None or e.request.model == model]

    def check(self) -> None:
        """Fail loudly when a model was asked more often than its script allows."""
        if self.exhausted:
            raise AssertionError(f"scripts exhausted on the wire: {sorted(set(self.exhausted))}")


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the exchanges are in the server's log."""

    def do_POST(self) -> None:
        """Answer one model request from the script of its model."""
        state = self.server.state
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        wire: Wire | None = (
            "openai"
            if self.path.split("?")[0].endswith("/chat/completions")
            else "anthropic"
            if self.path.split("?")[0].endswith("/messages")
            else None
        )
        if wire is None:
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        body = json.loads(raw or b"{}")
        request = WireRequest(wire, str(body.get("model", "")), bool(body.get("stream")), body)
        item = state.next_item(request.model)
        with state.lock:
            serial = len(state.log)
            state.log.append(Exchange(request, *_outcome(item)))
        self._answer(request, item, serial)

    def _answer(self, request: WireRequest, item: Reply | None, serial: int) -> None:
        if item is None:
            self._error(request, 400, "invalid_request_error", "script exhausted")
        elif isinstance(item, RateLimited):
            headers = {
                "retry-after": f"{item.retry_after_s:g}",
                "retry-after-ms": f"{item.retry_after_s * 1000:g}",
            }
            self._error(request, 429, "rate_limit_error", "slow down", headers)
        elif isinstance(item, Failure):
            self._error(request, item.status, "api_error", item.message)
        elif isinstance(item, Stall):
            self.server.state.closing.wait(item.seconds)
            self.close_connection = True
        elif isinstance(item, Garbage):
            self._raw(200, item.body.encode(), "application/json")
        else:
            self._reply(request, item if isinstance(item, ModelResponse) else item(request), serial)

    def _reply(self, request: WireRequest, reply: ModelResponse, serial: int) -> None:
        prompt = llm_wire.tokens_of(request.text())
        if request.stream:
            render = (
                llm_wire.openai_stream if request.wire == "openai" else llm_wire.anthropic_stream
            )
            events = "".join(render(reply, request.model, serial, prompt))
            self._raw(200, events.encode(), "text/event-stream")
        else:
            render_body = (
                llm_wire.openai_body if request.wire == "openai" else llm_wire.anthropic_body
            )
            self._send(200, render_body(reply, request.model, serial, prompt))

    def _error(
        self,
        request: WireRequest,
        status: int,
        kind: str,
        message: str,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        body: dict[str, Any] = (
            {"error": {"message": message, "type": kind, "code": None}}
            if request.wire == "openai"
            else {"type": "error", "error": {"type": kind, "message": message}}
        )
        self._send(status, body, headers)

    def _send(
        self, status: int, body: dict[str, Any], headers: Mapping[str, str] | None = None
    ) -> None:
        self._raw(status, json.dumps(body).encode(), "application/json", headers)

    def _raw(
        self,
        status: int,
        data: bytes,
        content_type: str,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def _outcome(item: Reply | None) -> tuple[int, str]:
    """The status and kind an item is answered with (0: no answer)."""
    if item is None:
        return 400, "spent"
    if isinstance(item, RateLimited):
        return 429, "rate_limited"
    if isinstance(item, Failure):
        return item.status, "failure"
    if isinstance(item, Stall):
        return 0, "stall"
    if isinstance(item, Garbage):
        return 200, "garbage"
    return 200, "reply"


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, state: ModelServer) -> None:
        super().__init__((state.host, 0), _Handler)
        self.state = state


@contextmanager
def serving(scripts: Mapping[str, Sequence[Reply]]) -> Iterator[ModelServer]:
    """A running server with ``scripts`` (model name -> replies); checked when it ends."""
    state = ModelServer({m: list(s) for m, s in scripts.items()})
    httpd = _HTTPServer(state)
    state.port = int(httpd.server_address[1])
    thread = threading.Thread(target=httpd.serve_forever, name="model-server", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.closing.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
    state.check()
