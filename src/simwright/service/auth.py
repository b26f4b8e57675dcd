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


@dataclass(frozen=True)
class Auth:
    """Token checks against a :class:`ServiceConfig`."""

    config: ServiceConfig

    def require(self, header: str | None, scope: str) -> None:
        """Raise 401 without a valid token, 403 when its scopes lack ``scope``."""
        if not self.config.tokens:
            return
        scheme, _, token = (header or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise HTTPException(
                401,
                "a token is required: Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        found = self.config.find(token.strip())
        if found is None:
            raise HTTPException(401, "unknown token", headers={"WWW-Authenticate": "Bearer"})
        if scope not in found.scopes:
            raise HTTPException(403, f"token {found.name!r} lacks the scope {scope!r}")

    def scope(self, scope: str) -> Callable[[Request], None]:
        """A FastAPI dependency requiring ``scope``."""

        def check(request: Request) -> None:
            self.require(request.headers.get("authorization"), scope)

        return check
