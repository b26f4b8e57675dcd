"""Rendering dashboard pages: Jinja2 templates with autoescaping, and strict headers.

Every value reaches HTML through the templates' autoescaping (or, for a report,
through the escaping Markdown renderer); pages forbid inline scripts and any
source but this service (Content-Security-Policy), framing, and sniffing.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any, Final

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from simwright.service.dashboard.markdown import render as render_markdown

HERE: Final = Path(__file__).parent
HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
"""Headers of every dashboard page."""

FILE_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
    ),
}
"""Headers of a run's or campaign's file: revalidated each time (a report is rewritten),
and sandboxed, so an HTML file a run wrote cannot act as the dashboard."""


def number(value: Any, digits: int = 5) -> str:
    """A number for a table: ``digits`` significant digits, ``—`` for none."""
    if value is None:
        return "—"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return f"{value:.{digits}g}"


def size(value: Any) -> str:
    """A byte count in B, kB or MB."""
    if not isinstance(value, int):
        return "—"
    if value < 1000:
        return f"{value} B"
    if value < 1_000_000:
        return f"{value / 1000:.1f} kB"
    return f"{value / 1_000_000:.1f} MB"


def markdown(text: str, image_base: str = "") -> Markup:
    """Markdown as HTML (every piece of text escaped by the renderer)."""
    return Markup(render_markdown(text, image_base))  # escaped by render()


@functools.cache
def environment() -> Environment:
    """The templates of the dashboard, autoescaped."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["number"] = number
    env.filters["size"] = size
    return env


def page(
    request: Request, template: str, *, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """A page rendered from ``template`` with the dashboard's headers."""
    text = environment().get_template(template).render(request_path=request.url.path, **context)
    return HTMLResponse(text, status_code=status_code, headers=HEADERS)


def error_page(request: Request, message: str, status_code: int) -> HTMLResponse:
    """A page saying what went wrong (the message escaped like any text)."""
    return page(
        request,
        "error.html",
        status_code=status_code,
        title=f"Error {status_code}",
        message=message,
        user=None,
        csrf="",
    )
