"""Who may call the MCP tools, and simwright's refusals as tool errors.

Over stdio there are no tokens (the client started the process with its user's
rights); over HTTP every tool checks the caller's token for its scope, as the
service's routes do (:func:`~simwright.service.config.authorize`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from simwright.errors import SimwrightError
from simwright.jsonsafe import strict_json
from simwright.service.config import ServiceConfig, TokenRefused, authorize


@dataclass(frozen=True)
class Access:
    """Token checks of the tools: none over stdio (the client started this process with
    its user's rights); over HTTP the service's tokens and scopes."""

    config: ServiceConfig = field(default_factory=ServiceConfig)
    http: bool = False

    stdio_caller: str = "mcp"
    """Who a caller over stdio is, in the audit trail of the decisions it takes."""

    def check(self, ctx: Context, scope: str) -> str:
        """Who the caller is: over HTTP its token's name (or ``local`` without tokens),
        refusing (a tool error) a caller without a token with ``scope``; over stdio
        :attr:`stdio_caller`."""
        if not self.http:
            return self.stdio_caller
        headers = ctx.headers or {}
        try:
            return authorize(self.config, headers.get("authorization"), scope)
        except TokenRefused as exc:
            raise ToolError(str(exc)) from exc


@contextmanager
def refusals() -> Iterator[None]:
    """simwright's refusals as tool errors: the error's kind, message and details."""
    try:
        yield
    except SimwrightError as exc:
        text = f"{type(exc).__name__}: {exc}"
        details = getattr(exc, "details", None)
        if isinstance(details, dict):
            text += "\n" + json.dumps(strict_json(details), default=str)[:4000]
        raise ToolError(text) from exc


READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
