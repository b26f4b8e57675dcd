"""Completion hooks: what the runner calls once a run has completed and is recorded.

A hook (the knowledge graph's automatic ingestion, :mod:`simwright.kg.auto`) is given
to :class:`~simwright.graph.runner.Runner` by the layer that builds the runner (the
command line, the API, the agents), so the graph layer needs no knowledge of it. A
hook reads what it needs from the store; it cannot change the run: the run's status
and result are committed before any hook is called, and an exception a hook raises
is logged as a warning and otherwise ignored (:func:`call_hooks`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from simwright.store.store import Store

log = logging.getLogger(__name__)


class CompletionHook(Protocol):
    """Called after a run completed successfully and its result was committed."""

    @property
    def name(self) -> str:
        """What the hook does, for the warning a failure gives."""
        ...

    def run_completed(self, store: Store, run_id: str) -> None:
        """React to the completed run ``run_id`` (read it from ``store``)."""
        ...


def call_hooks(hooks: Sequence[CompletionHook], store: Store, run_id: str) -> list[str]:
    """Call each hook for ``run_id``; a failing hook gives a logged warning, never an
    exception. Returns the warnings (empty when every hook succeeded)."""
    warnings = []
    for hook in hooks:
        try:
            hook.run_completed(store, run_id)
        except Exception as exc:  # a hook never fails or alters the run
            message = f"run {run_id}: {hook.name} failed: {exc!r}"
            log.warning(message)
            warnings.append(message)
    return warnings
