"""Bearer tokens with scopes, checked on each request of the service.

With no token configured (a service on the loopback) every caller may do everything;
once a token exists every route but ``/health`` and the schema needs one
(``Authorization: Bearer <token>``) with the route's scope.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import HTTPException, Request

from simwright.service.config import ServiceConfig

LOCAL = "local"
"""Who a caller is when no token is configured (a service on the loopback only)."""


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
        if not self.config.tokens:
            return LOCAL
        scheme, _, token = (header or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise HTTPException(
                401,
                "a token is required: Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return self.check(token.strip(), scope)

    def check(self, token: str, scope: str) -> str:
        """The name of ``token``; 401 when it is unknown, 403 when it lacks ``scope``."""
        if not self.config.tokens:
            return LOCAL
        found = self.config.find(token)
        if found is None:
            raise HTTPException(401, "unknown token", headers={"WWW-Authenticate": "Bearer"})
        if scope not in found.scopes:
            raise HTTPException(403, f"token {found.name!r} lacks the scope {scope!r}")
        return found.name

    def scope(self, scope: str) -> Callable[[Request], str]:
        """A FastAPI dependency requiring ``scope``; its value is the caller's name."""

        def check(request: Request) -> str:
            return self.require(request.headers.get("authorization"), scope)

        return check
