"""Errors of the API that its clients map to their own answers (HTTP 404, 409...)."""

from __future__ import annotations

from simwright.errors import SimwrightError


class NotFound(SimwrightError):
    """No such run, or no such file in a run."""


class Conflict(SimwrightError):
    """The run is not in a state that allows the action (cancel a finished run...)."""


class Forbidden(SimwrightError):
    """A path that leaves the run's directory, or an action the caller may not take."""
