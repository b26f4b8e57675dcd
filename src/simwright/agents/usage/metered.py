"""A model wrapper that checks the caps before each request and books it after.

Every model the agent layer uses — production or scripted — is wrapped in a
:class:`MeteredModel`, so caps hold and the ledger is complete whatever the
provider. The prompt is measured with the offline tokenizer before the call. With
``stream`` the reply is requested as a stream and assembled before it is returned
(the agent loop always sees a whole reply).
"""

from __future__ import annotations

from typing import Any

from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, ModelRequestParameters
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

from simwright.agents.usage.ledger import UsageEntry, UsageLedger, cost
from simwright.agents.usage.tokens import TokenCounter, prompt_tokens


class MeteredModel(WrapperModel):
    """``wrapped`` with a ledger: who is asking (role, subtask) and under which name."""

    def __init__(
        self,
        wrapped: Model,
        *,
        ledger: UsageLedger,
        counter: TokenCounter,
        label: str,
        role: str,
        subtask: str = "",
        stream: bool = False,
    ) -> None:
        super().__init__(wrapped)
        self.stream = stream
        self.ledger = ledger
        self.counter = counter
        self.model_label = label
        self.role = role
        self.subtask = subtask

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        """Check the caps, make the request, book its usage (also when it fails)."""
        measured = prompt_tokens(messages, model_request_parameters, self.counter)
        self.ledger.check(self.model_label, measured)
        try:
            response = await self._request(messages, model_settings, model_request_parameters)
        except Exception:
            self._book(measured, 0, 0, ok=False)
            raise
        usage = response.usage
        self._book(measured, usage.input_tokens, usage.output_tokens, ok=True)
        return response

    async def _request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        """One request, streamed (server-sent events, assembled here) when configured."""
        if not self.stream:
            return await super().request(messages, model_settings, model_request_parameters)
        async with self.wrapped.request_stream(
            messages, model_settings, model_request_parameters
        ) as streamed:
            async for _event in streamed:
                pass
        return streamed.get()

    def _book(self, measured: int, reported_in: int, reported_out: int, *, ok: bool) -> None:
        billed_in = reported_in or measured
        self.ledger.record(
            UsageEntry(
                role=self.role,
                subtask=self.subtask,
                model=self.model_label,
                input_tokens=reported_in,
                output_tokens=reported_out,
                prompt_tokens=measured,
                cost_usd=cost(self.ledger.prices, self.model_label, billed_in, reported_out)
                if ok
                else 0.0,
                ok=ok,
            )
        )

    def describe(self) -> dict[str, Any]:
        """Who this wrapper books requests for."""
        return {"label": self.model_label, "role": self.role, "subtask": self.subtask}
