"""The bundle of injected dependencies every agent component receives.

:class:`AgentContext` holds the configuration, the ledger, the token counter,
the model factory (production: :func:`~simwright.agents.setup.providers.build_model`;
tests: scripted models by name) and the note sink (events of the run). It is
built at the edge and passed down; nothing in the agent layer reads the
environment.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simwright.agents.setup.config import AgentSettings, ModelRef
from simwright.agents.setup.providers import build_model
from simwright.agents.usage.ledger import UsageEntry, UsageLedger
from simwright.agents.usage.tokens import TokenCounter, default_counter

if TYPE_CHECKING:
    from pydantic_ai.models import Model

    from simwright.agents.usage.metered import MeteredModel

ModelFactory = Callable[[ModelRef], "Model"]
NoteSink = Callable[[str, str, dict[str, Any]], None]


@dataclass
class AgentContext:
    """Configuration, ledger, tokenizer, model factory and event sink of one run."""

    settings: AgentSettings
    factory: ModelFactory
    ledger: UsageLedger
    counter: TokenCounter = field(default_factory=default_counter)
    notes: NoteSink | None = None
    _models: dict[str, Model] = field(default_factory=dict, repr=False)

    @classmethod
    def create(
        cls,
        settings: AgentSettings,
        factory: ModelFactory | None = None,
        *,
        sink: Callable[[UsageEntry], None] | None = None,
        notes: NoteSink | None = None,
        counter: TokenCounter | None = None,
    ) -> AgentContext:
        """A context with a fresh ledger on the settings' caps and prices."""
        if factory is None:

            def factory(ref: ModelRef) -> Model:
                return build_model(ref, settings)

        ledger = UsageLedger(settings.caps, settings.prices, sink)
        return cls(settings, factory, ledger, counter or default_counter(), notes)

    def model(self, ref: ModelRef) -> Model:
        """The (cached) model behind ``ref``."""
        key = f"{ref.name}@{ref.base_url or ''}"
        if key not in self._models:
            self._models[key] = self.factory(ref)
        return self._models[key]

    def metered(self, ref: ModelRef, *, role: str, subtask: str = "") -> MeteredModel:
        """``ref``'s model, wrapped to check caps and book usage for ``role``/``subtask``."""
        # lazy: optional extra [agents]
        from simwright.agents.usage.metered import MeteredModel

        return MeteredModel(
            self.model(ref),
            ledger=self.ledger,
            counter=self.counter,
            label=ref.name,
            role=role,
            subtask=subtask,
            stream=self.settings.stream,
        )

    async def aclose(self) -> None:
        """Close the HTTP clients of the models handed out (call before the run's event
        loop ends: a client left open holds sockets of a loop that is gone)."""
        models, self._models = list(self._models.values()), {}
        for model in models:
            async with model:  # leaving the context closes the client its provider owns
                pass

    def note(self, kind: str, message: str, **payload: Any) -> None:
        """Record an event of the run (a no-op without a sink)."""
        if self.notes is not None:
            self.notes(kind, message, json.loads(json.dumps(payload, default=str)))
