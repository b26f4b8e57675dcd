"""Bearer tokens with scopes, checked on each request of the service.

With no token configured (a service on the loopback) every caller may do everything;
once a token exists every route but ``/health`` and the schema needs one
(``Authorization: Bearer <token>``) with the route's scope.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import HTTPException, Request

from simwright.service.config import ServiceConfig, TokenRefused, authorize


@dataclass(frozen=True)
class Auth:
    """Token checks against a :class:`ServiceConfig`."""

    config: ServiceConfig

    def require(self, header: str | None, scope: str) -> None:
        """Raise 401 without a valid token, 403 when its scopes lack ``scope``."""
        try:
            authorize(self.config, header, scope)
        except TokenRefused as exc:
            bearer = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
            raise HTTPException(exc.status, str(exc), headers=bearer) from exc

    def scope(self, scope: str) -> Callable[[Request], Awaitable[None]]:
        """A FastAPI dependency requiring ``scope`` (a coroutine: a hash and a lookup,
        not worth a trip through the thread pool)."""

        async def check(request: Request) -> None:
            self.require(request.headers.get("authorization"), scope)

        return check
