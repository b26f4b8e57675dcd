"""The web dashboard, served by the service under ``/ui``: server-rendered pages of runs
and campaigns, a little hand-written JavaScript for live updates (Server-Sent Events,
polling), no build step and nothing fetched from elsewhere.

:func:`install_dashboard` adds its routes and its error handling (a login redirect,
error pages for ``/ui``) to the service's application.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from simwright.api import Simwright
from simwright.api.campaigns import Campaigns
from simwright.service.auth import Auth
from simwright.service.campaign_jobs import CampaignLauncher
from simwright.service.dashboard.campaign_pages import campaign_pages
from simwright.service.dashboard.render import HERE, error_page, page
from simwright.service.dashboard.run_pages import run_pages
from simwright.service.dashboard.session import UI_PREFIX, LoginRequired, Session, read_form

STATIC: Final = {
    "dashboard.css": "text/css; charset=utf-8",
    "dashboard.js": "text/javascript; charset=utf-8",
}

__all__ = ["UI_PREFIX", "error_page", "install_dashboard"]


def install_dashboard(
    app: FastAPI,
    api: Simwright,
    campaigns: Campaigns,
    auth: Auth,
    launcher: CampaignLauncher,
    on_queued: Callable[[], None],
) -> None:
    """Add the dashboard's pages, static files, login and error handling to ``app``."""
    session = Session(auth)

    async def login_required(request: Request, _exc: Exception) -> Response:
        return RedirectResponse(f"{UI_PREFIX}/login", status_code=303)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if request.url.path.startswith(UI_PREFIX):
            return error_page(request, str(exc.detail), exc.status_code)
        return await http_exception_handler(request, exc)

    app.add_exception_handler(LoginRequired, login_required)
    app.add_exception_handler(StarletteHTTPException, http_error)

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse(f"{UI_PREFIX}/", status_code=307)

    @app.get(f"{UI_PREFIX}/static/{{name}}", include_in_schema=False)
    def static(name: str) -> Response:
        if name not in STATIC:
            raise HTTPException(404, "no such file")
        body = (HERE / "static" / name).read_bytes()
        return Response(body, media_type=STATIC[name], headers={"Cache-Control": "no-cache"})

    @app.get(f"{UI_PREFIX}/login", include_in_schema=False, response_class=HTMLResponse)
    def login_form(request: Request) -> HTMLResponse:
        return page(request, "login.html", title="Sign in", page_id="login", user=None,
                    csrf=session.csrf(request), required=auth.required)  # fmt: skip

    @app.post(f"{UI_PREFIX}/login", include_in_schema=False)
    async def login(request: Request) -> Response:
        form = await read_form(request)
        session.check_form(request, form)
        return session.login(request, form.get("token", "").strip())

    @app.post(f"{UI_PREFIX}/logout", include_in_schema=False)
    async def logout(request: Request) -> Response:
        form = await read_form(request)
        session.check_form(request, form)
        return session.logout()

    app.include_router(run_pages(api, session, on_queued))
    app.include_router(campaign_pages(campaigns, session, launcher))
