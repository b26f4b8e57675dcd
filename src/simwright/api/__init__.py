"""simwright as a library: plan, submit or run requests; follow and read runs.

The command line, the service (:mod:`simwright.service`) and later clients call
:class:`Simwright`; see docs/service.md.

The names below load on first use (PEP 562): the command line's quick read-only
commands import :mod:`simwright.api.views` alone, without the planner, the graph's
runner or SQLAlchemy.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simwright.api.campaigns import Campaigns
    from simwright.api.errors import Conflict, Forbidden, NotFound
    from simwright.api.requests import Request, Spec
    from simwright.api.simwright import FINISHED, RunFilter, Simwright, Submitted

_WHERE = {
    "Campaigns": "campaigns",
    "Conflict": "errors",
    "Forbidden": "errors",
    "NotFound": "errors",
    "Request": "requests",
    "Spec": "requests",
    "FINISHED": "simwright",
    "RunFilter": "simwright",
    "Simwright": "simwright",
    "Submitted": "simwright",
}

__all__ = [
    "FINISHED",
    "Campaigns",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Request",
    "RunFilter",
    "Simwright",
    "Spec",
    "Submitted",
]


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'simwright.api' has no attribute {name!r}")
    value = getattr(import_module(f"simwright.api.{module}"), name)
    globals()[name] = value
    return value
