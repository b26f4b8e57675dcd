"""Steps and the terminal ``Done`` value of a typed execution graph.

A step is a frozen dataclass deriving from :class:`Step`. Its ``run(ctx)`` return
annotation names the steps that may follow it, e.g.::

    @dataclass(frozen=True)
    class Analyze(Step):
        trajectory: ArtifactRef

        def run(self, ctx: RunContext) -> Extend | Report:
            ...

A step's fields are its inputs; they must be values the codec can store (numbers,
strings, paths, tuples, dicts, frozen dataclasses, pydantic models), so that an
interrupted run can be resumed from the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from simwright.graph.context import RunContext

T = TypeVar("T")


@dataclass(frozen=True)
class Done(Generic[T]):
    """The terminal value of a graph: the run ends with ``result``."""

    result: T


@dataclass(frozen=True)
class Step:
    """Base class of all steps. Subclasses are frozen dataclasses overriding ``run``."""

    def run(self, ctx: RunContext) -> Any:
        """Do the work of this step and return the next step or :class:`Done`."""
        raise NotImplementedError

    @classmethod
    def label(cls) -> str:
        """The name of this step in records and diagrams (its class name)."""
        return cls.__name__

    @classmethod
    def describe(cls) -> str:
        """The first line of the step's docstring, for diagrams and listings."""
        doc = (cls.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else cls.__name__


class LegacyStep:
    """A step class of an earlier release, kept only so that stored runs still load.

    When a step's fields change shape, its old class stays importable (listed in
    :data:`simwright.graph.renames.CLASS_RENAMES` under its old ``module:qualname``)
    as a frozen dataclass deriving from this class; resuming a run calls
    :meth:`upgrade` to turn the stored value into the current step, which the graph
    then runs. Legacy steps are never nodes of a graph.
    """

    def upgrade(self) -> Step | LegacyStep:
        """The current step equivalent to this stored one (or a newer legacy step)."""
        raise NotImplementedError


def upgraded(value: object) -> Step:
    """``value`` as a current step: legacy steps upgraded (repeatedly), steps as they are."""
    for _ in range(10):
        if not isinstance(value, LegacyStep):
            break
        value = value.upgrade()
    if not isinstance(value, Step):
        raise TypeError(f"a stored step decoded to {type(value).__name__}, not a Step")
    return value
