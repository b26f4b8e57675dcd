"""The turns of an agent run as ``simwright show`` lists them (needs only the store).

A run is a conversation, listed in order: the request, each hold for a person (a plan
to approve, a Fail verdict), each approval, each person's feedback
(``simwright ask --continue``) with the subtasks its plan change touched and reused,
and each answer — with author and time (UTC, the store's clock).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from simwright.store.reading import RunReader

FEEDBACK, REFINED, APPROVED, HELD, ANSWER = (
    "user_feedback",
    "plan_refined",
    "plan_approved",
    "held_for_review",
    "final_answer",
)
KINDS = {FEEDBACK: "feedback", APPROVED: "approval", HELD: "held", ANSWER: "answer"}


def _at(value: datetime | None) -> str | None:
    if value is None:
        return None
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return aware.isoformat(timespec="seconds")


def turns_json(store: RunReader, run_id: str) -> list[dict[str, Any]]:
    """The run's conversation, oldest first (see the module docstring)."""
    run = store.get_run(run_id)
    turns: list[dict[str, Any]] = [
        {"kind": "request", "text": run.request or "", "author": None, "at": _at(run.created_at)}
    ]
    for e in store.events(run.id):
        payload = json.loads(e.payload_json or "{}")
        if e.kind == REFINED:
            feedback = [t for t in turns if t["kind"] == "feedback"]
            if feedback:
                feedback[-1]["changed"] = list(payload.get("changed", []))
                feedback[-1]["reused"] = list(payload.get("reused", []))
        elif e.kind in KINDS:
            turns.append(
                {
                    "kind": KINDS[e.kind],
                    "text": str(payload.get("text", e.message)),
                    "author": payload.get("author"),
                    "at": _at(e.created_at),
                    **({"reason": payload.get("reason")} if e.kind == HELD else {}),
                }
            )
    return turns


def turn_lines(turns: list[dict[str, Any]]) -> list[str]:
    """The conversation as text lines (none for a plain request and its answer)."""
    if not any(t["kind"] in ("feedback", "held", "approval") for t in turns):
        return []
    lines = ["conversation:"]
    for t in turns:
        who = f" by {t['author']}" if t.get("author") else ""
        lines.append(f"  {t['at']} {t['kind']}{who}: {t['text'][:200]}")
        if "changed" in t:
            lines.append(
                f"      changed {', '.join(t['changed']) or 'none'}; "
                f"reused {', '.join(t['reused']) or 'none'}"
            )
    return lines
