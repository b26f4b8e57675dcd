"""Start the MCP server on a home: stdio (for a client that spawns it) or HTTP.

Over HTTP the binding follows ``simwright serve``'s rule (an address beyond the
loopback needs a token, :func:`~simwright.service.config.check_binding`); each request
must then carry a token (checked here before the SDK sees it) and each tool checks
its scope. Runs execute in the server's own worker pool unless a service already
dispatches the home's queue (:class:`~simwright.mcp_server.dispatch.Dispatcher`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Literal

from simwright.api import Simwright
from simwright.mcp_server.dispatch import Dispatcher
from simwright.mcp_server.runs import Limits
from simwright.mcp_server.server import Access, build_server, make_tools
from simwright.service.config import (
    ServiceConfig,
    TokenRefused,
    authorize,
    check_binding,
    load_service_config,
)
from simwright.service.pool import WorkerArgv
from simwright.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class McpOptions:
    """The transport, where HTTP listens, and how many runs execute at once."""

    transport: Literal["stdio", "http"] = "stdio"
    host: str = "127.0.0.1"
    port: int = 8643
    workers: int = 2
    limits: Limits = field(default_factory=Limits)


def require_token(app: ASGIApp, config: ServiceConfig) -> ASGIApp:
    """``app`` behind a token check: with tokens configured, an HTTP request without a
    valid one (scope ``read`` at least) is answered 401/403 before the MCP layer."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not config.tokens:
            await app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            authorize(config, headers.get("authorization"), "read")
        except TokenRefused as exc:
            body = json.dumps({"error": str(exc)}).encode()
            extra = [(b"www-authenticate", b"Bearer")] if exc.status == 401 else []
            await send(
                {
                    "type": "http.response.start",
                    "status": exc.status,
                    "headers": [(b"content-type", b"application/json"), *extra],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)

    return guarded


def serve_mcp(settings: Settings, options: McpOptions, argv: WorkerArgv) -> None:
    """Serve the MCP tools on ``settings.home`` until the client goes (stdio) or the
    process is interrupted (HTTP)."""
    config = load_service_config(settings.home)
    http = options.transport == "http"
    if http:
        check_binding(options.host, config)
    api = Simwright(settings)
    dispatcher = Dispatcher(api.queue, settings.home, argv, size=options.workers)
    dispatcher.start()
    tools = make_tools(api, options.limits, dispatcher.wake)
    server = build_server(tools, Access(config, http=http))
    try:
        if http:
            _serve_http(server.streamable_http_app(host=options.host), config, options)
        else:
            server.run("stdio")
    finally:
        dispatcher.stop()
        api.close()


def _serve_http(app: Any, config: ServiceConfig, options: McpOptions) -> None:
    # lazy: uvicorn only for the HTTP transport (it comes with the mcp SDK)
    import uvicorn

    uvicorn.run(
        require_token(app, config),
        host=options.host,
        port=options.port,
        log_level="warning",
        timeout_keep_alive=75,
    )
