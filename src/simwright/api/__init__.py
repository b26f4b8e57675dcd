"""simwright as a library: plan, submit or run requests; follow and read runs.

The command line, the service (:mod:`simwright.service`) and later clients call
:class:`Simwright`; see docs/service.md.
"""

from simwright.api.errors import Conflict, Forbidden, NotFound
from simwright.api.requests import Request, Spec
from simwright.api.simwright import FINISHED, RunFilter, Simwright, Submitted

__all__ = [
    "FINISHED",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Request",
    "RunFilter",
    "Simwright",
    "Spec",
    "Submitted",
]
