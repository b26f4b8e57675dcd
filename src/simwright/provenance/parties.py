"""Who acted in a run: simwright, the engines, language models, rules and the user.

The store names a decision's maker in ``decided_by``: ``rule:<name>``, ``code``,
``only-successor`` and ``fallback:...`` for simwright's own code (``graph/runner.py``,
``graph/context.py``), ``human`` for an answer given on the command line
(``simwright resume --choose``), ``model`` or ``model:<tier>`` for the agent layer's
model decider and ``agent`` for its recorder; the model usage ledger names the
models the agent layer called. The exporters turn these into
agents (PROV) or actors (RO-Crate) the same way through :func:`decision_maker`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from simwright.provenance.record import RunRecord

PartyKind = Literal["simwright", "user", "engine", "model", "decider"]


@dataclass(frozen=True)
class Party:
    """One actor of a run, with a stable key for identifiers."""

    key: str
    kind: PartyKind
    name: str
    version: str = ""


SIMWRIGHT = "simwright"
USER = "user"


def simwright_party(record: RunRecord) -> Party:
    """simwright itself, at the version that created the run."""
    return Party(SIMWRIGHT, "simwright", "simwright", record.run.simwright_version)


def user_party() -> Party:
    """The person who made the request (the store does not record who)."""
    return Party(USER, "user", "the user who made the request")


def engine_parties(record: RunRecord) -> dict[tuple[str, str], Party]:
    """One party per engine and version seen in the run's engine calls."""
    found: dict[tuple[str, str], Party] = {}
    for call in record.engine_calls:
        key = (call.engine, call.version)
        if key not in found:
            found[key] = Party(f"engine-{len(found) + 1}", "engine", call.engine, call.version)
    return found


def model_parties(record: RunRecord) -> dict[str, Party]:
    """One party per language model named in the run's usage ledger."""
    found: dict[str, Party] = {}
    for row in record.usage:
        if row.model not in found:
            found[row.model] = Party(f"model-{len(found) + 1}", "model", row.model)
    return found


def decision_maker(decided_by: str | None) -> Party:
    """The party behind a ``decided_by`` value (rules and fallbacks are simwright's code)."""
    if decided_by == "human":
        return Party(USER, "user", "the user who made the request")
    if decided_by and (decided_by == "agent" or decided_by.split(":")[0] == "model"):
        return Party(f"decider-{_slug(decided_by)}", "decider", decided_by)
    return Party(SIMWRIGHT, "simwright", "simwright")


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)[:64] or "unknown"
