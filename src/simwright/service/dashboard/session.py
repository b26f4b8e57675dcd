"""Who uses the dashboard: the token in an HttpOnly cookie, and a CSRF check on every form.

With no token configured (a service on the loopback) every visitor is ``local``.
Once a token exists, the dashboard asks for one on ``/ui/login``, checks it, and
keeps it in a cookie that scripts cannot read (``HttpOnly``), that other sites'
requests do not carry (``SameSite=Strict``), sent only to ``/ui`` and, behind TLS,
only over TLS (``Secure``). Every page needs scope ``read``; forms need the scope
of what they do. Every form carries a CSRF token (an HMAC of the cookie under a
secret of this process) and a form whose ``Origin`` is another site is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from fastapi import HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from simwright.service.auth import Auth

COOKIE: Final = "simwright_token"
UI_PREFIX: Final = "/ui"


class LoginRequired(Exception):
    """The visitor must sign in first (answered with a redirect to the login page)."""


@dataclass(frozen=True)
class Session:
    """Token checks of the dashboard, on top of the service's :class:`Auth`."""

    auth: Auth
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    def user(self, request: Request, scope: str) -> str:
        """The visitor's name (its token's); :class:`LoginRequired` without a token,
        403 when the token lacks ``scope``."""
        if not self.auth.required:
            return self.auth.check("", scope)
        token = request.cookies.get(COOKIE)
        if not token:
            raise LoginRequired
        try:
            return self.auth.check(token, scope)
        except HTTPException as exc:
            if exc.status_code == 401:
                raise LoginRequired from exc
            raise

    def csrf(self, request: Request) -> str:
        """The CSRF token forms of this visitor carry."""
        cookie = request.cookies.get(COOKIE, "") if self.auth.required else ""
        return hmac.new(self.secret, cookie.encode(), hashlib.sha256).hexdigest()

    def check_form(self, request: Request, form: dict[str, str]) -> None:
        """Refuse (403) a form without this visitor's CSRF token or from another site."""
        origin = request.headers.get("origin")
        if origin and origin != "null":
            host = request.headers.get("host", "")
            if urlsplit(origin).netloc != host:
                raise HTTPException(403, "a form from another site is refused")
        if not hmac.compare_digest(form.get("csrf", ""), self.csrf(request)):
            raise HTTPException(403, "the form has expired: reload the page and try again")

    def login(self, request: Request, token: str) -> Response:
        """Check ``token`` (it must at least read) and keep it in the cookie."""
        self.auth.check(token, "read")
        response = RedirectResponse(f"{UI_PREFIX}/", status_code=303)
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path=UI_PREFIX,
        )
        return response

    @staticmethod
    def logout() -> Response:
        """Forget the token."""
        response = RedirectResponse(f"{UI_PREFIX}/login", status_code=303)
        response.delete_cookie(COOKIE, path=UI_PREFIX, httponly=True, samesite="strict")
        return response


async def read_form(request: Request, limit: int = 200_000) -> dict[str, str]:
    """The fields of a URL-encoded form (the last value of each; 413 past ``limit`` bytes)."""
    body = await request.body()
    if len(body) > limit:
        raise HTTPException(413, "the form is too large")
    pairs = parse_qsl(body.decode("utf-8", errors="replace"), keep_blank_values=True)
    return dict(pairs)
