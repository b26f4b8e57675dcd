"""The exception hierarchy of simwright.

Every error raised on purpose by simwright derives from :class:`SimwrightError`,
so that the command line can turn it into a clear message and a non-zero exit
instead of a traceback.
"""

from __future__ import annotations


class SimwrightError(Exception):
    """Base class of all errors simwright raises on purpose."""


class GraphError(SimwrightError):
    """A graph is malformed, or a step took a transition it did not declare."""


class StoreError(SimwrightError):
    """The provenance store cannot be opened or is asked for something it lacks."""


class ParseError(SimwrightError):
    """Text from the outside world (a request, a spec, a log) cannot be parsed."""


class ValidationError(SimwrightError):
    """A value is outside what the physics or the protocol allows."""


class StructureError(ValidationError):
    """A structure is unphysical (unknown element, overlapping atoms, bad cell)."""


class EngineError(SimwrightError):
    """An engine failed: it crashed, exited non-zero or produced no usable output.

    ``tail`` holds the last lines of the engine's output and ``call`` the
    :class:`~simwright.store.records.EngineCall` record, which the runner stores.
    """

    def __init__(self, message: str, *, tail: str = "", call: object | None = None) -> None:
        super().__init__(message)
        self.tail = tail
        self.call = call


class PolicyError(SimwrightError):
    """An input breaks a safety policy (forbidden command, path outside the workdir)."""


class ContractError(SimwrightError):
    """A file does not follow the simwright file contract."""


class NeedsReview(SimwrightError):
    """A decision point has several admissible successors and no decider.

    The run stops with status ``needs_review``; ``options`` names the successors.
    """

    def __init__(self, point: str, options: tuple[str, ...]) -> None:
        super().__init__(
            f"decision point {point!r} needs review: choose one of {', '.join(options)}"
        )
        self.point = point
        self.options = options
