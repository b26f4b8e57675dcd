"""The usage ledger: requests, tokens and cost per role, subtask and run, with hard caps.

:meth:`UsageLedger.check` runs *before* every model request (see
:mod:`simwright.agents.usage.metered`): if one more request, the measured prompt
tokens, or the prompt's input cost would go over a cap, it raises
:class:`~simwright.agents.errors.BudgetExceeded` and no call is made.
:meth:`UsageLedger.record` runs after it; each entry also goes to the injected
sink (the store, see :mod:`simwright.agents.usage.records`).

Token figures: ``input_tokens``/``output_tokens`` are what the provider reported
(pydantic-ai's estimate for scripted models); ``prompt_tokens`` is the prompt
measured with the offline tokenizer (:mod:`simwright.agents.usage.tokens`). Caps use the
larger of the reported and measured input. Cost comes from the configured price
table (``prices``: model name -> dollars per million tokens); unpriced models cost 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from simwright.agents.errors import BudgetExceeded
from simwright.agents.usage.caps import Caps, Price


@dataclass(frozen=True)
class UsageEntry:
    """One model request: who asked, which model, how many tokens, what it cost."""

    role: str
    subtask: str
    model: str
    input_tokens: int
    output_tokens: int
    prompt_tokens: int
    cost_usd: float
    ok: bool = True
    requests: int = 1


@dataclass(frozen=True)
class Totals:
    """Sums over entries."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    prompt_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def tokens(self) -> int:
        """Input (the larger of reported and measured) plus output tokens."""
        return max(self.input_tokens, self.prompt_tokens) + self.output_tokens

    def as_dict(self) -> dict[str, float | int]:
        """A JSON-ready dictionary."""
        return {
            "requests": self.requests,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "prompt_tokens": self.prompt_tokens,
            "cost_usd": round(self.cost_usd, 6),
        }


def total(entries: Iterable[UsageEntry]) -> Totals:
    """The totals of ``entries``."""
    t = Totals()
    for e in entries:
        t = Totals(
            t.requests + e.requests,
            t.input_tokens + e.input_tokens,
            t.output_tokens + e.output_tokens,
            t.prompt_tokens + e.prompt_tokens,
            t.cost_usd + e.cost_usd,
        )
    return t


def cost(prices: Mapping[str, Price], model: str, input_tokens: int, output_tokens: int) -> float:
    """Dollars for the tokens at ``model``'s price (0 when it has none)."""
    price = prices.get(model)
    if price is None:
        return 0.0
    return (input_tokens * price.input_per_mtok + output_tokens * price.output_per_mtok) / 1e6


@dataclass
class UsageLedger:
    """The usage of one run, its caps and prices, and where entries are written."""

    caps: Caps = field(default_factory=lambda: Caps())
    prices: Mapping[str, Price] = field(default_factory=dict)
    sink: Callable[[UsageEntry], None] | None = None
    entries: list[UsageEntry] = field(default_factory=list)

    def totals(self) -> Totals:
        """The run's totals so far."""
        return total(self.entries)

    def check(self, model: str, prompt_tokens: int) -> None:
        """Raise :class:`BudgetExceeded` if a request of ``prompt_tokens`` would break a cap."""
        t = self.totals()
        caps = self.caps
        if caps.max_requests is not None and t.requests + 1 > caps.max_requests:
            raise BudgetExceeded(
                f"request cap reached: {t.requests} of {caps.max_requests} requests used"
            )
        if caps.max_tokens is not None and t.tokens + prompt_tokens > caps.max_tokens:
            raise BudgetExceeded(
                f"token cap reached: {t.tokens} used, the next prompt has {prompt_tokens}, "
                f"cap {caps.max_tokens}"
            )
        if caps.max_cost_usd is not None:
            upcoming = cost(self.prices, model, prompt_tokens, 0)
            if t.cost_usd + upcoming > caps.max_cost_usd:
                raise BudgetExceeded(
                    f"cost cap reached: ${t.cost_usd:.4f} spent, the next prompt costs "
                    f"${upcoming:.4f}, cap ${caps.max_cost_usd:.4f}"
                )

    def record(self, entry: UsageEntry) -> None:
        """Add ``entry`` and hand it to the sink."""
        self.entries.append(entry)
        if self.sink is not None:
            self.sink(entry)

    def by(self, key: Callable[[UsageEntry], str]) -> dict[str, Totals]:
        """Totals grouped by ``key`` (role, subtask, model...)."""
        groups: dict[str, list[UsageEntry]] = {}
        for e in self.entries:
            groups.setdefault(key(e), []).append(e)
        return {k: total(v) for k, v in sorted(groups.items())}
