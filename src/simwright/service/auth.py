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

    @property
    def required(self) -> bool:
        """True once a token exists (every route but ``/health`` then needs one)."""
        return bool(self.config.tokens)

    def require(self, header: str | None, scope: str) -> str:
        """The caller's name (its token's); 401 without a valid token, 403 when its
        scopes lack ``scope``. With no token configured the caller is :data:`LOCAL`."""
        try:
            return authorize(self.config, header, scope)
        except TokenRefused as exc:
            bearer = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
            raise HTTPException(exc.status, str(exc), headers=bearer) from exc

    def check(self, token: str, scope: str) -> str:
        """The name of a bare ``token`` (a dashboard cookie); 401 when it is unknown,
        403 when it lacks ``scope``."""
        return self.require(f"Bearer {token}" if token else None, scope)

    def scope(self, scope: str) -> Callable[[Request], Awaitable[str]]:
        """A FastAPI dependency requiring ``scope``; its value is the caller's name (a
        coroutine: a hash and a lookup, not worth a trip through the thread pool)."""

        async def check(request: Request) -> str:
            return self.require(request.headers.get("authorization"), scope)

        return check
