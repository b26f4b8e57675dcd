"""What a model costs and how much one run may spend: prices and hard caps."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Caps(BaseModel):
    """Hard caps of one run, checked before each model request (None: no cap)."""

    model_config = _FROZEN

    max_requests: int | None = Field(default=200, ge=1)
    max_tokens: int | None = Field(default=2_000_000, ge=1)
    max_cost_usd: float | None = Field(default=None, ge=0)


class Price(BaseModel):
    """The price of a model in US dollars per million input and output tokens."""

    model_config = _FROZEN

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)
