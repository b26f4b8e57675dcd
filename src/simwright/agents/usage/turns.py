"""The turns of an agent run as ``simwright show`` lists them (needs only the store).

A run is a conversation: the request (turn 0), then each person's feedback
(``simwright ask --continue``), each hold for review (a plan to approve, a Fail
verdict) and each approval, in order, with author and time; a request or feedback
turn carries the subtasks its plan change touched and the answer it ended with.
"""

from __future__ import annotations

import json
from typing import Any

from simwright.store.reading import RunReader

FEEDBACK, REFINED, APPROVED, HELD = (
    "user_feedback",
    "plan_refined",
    "plan_approved",
    "held_for_review",
)


def _at(value: Any) -> str | None:
    return value.isoformat(timespec="seconds") if value is not None else None


def turns_json(store: RunReader, run_id: str) -> list[dict[str, Any]]:
    """The run's turns, oldest first (see the module docstring)."""
    run = store.get_run(run_id)
    turns: list[dict[str, Any]] = [
        {
            "kind": "request",
            "text": run.request or "",
            "author": None,
            "at": _at(run.created_at),
            "status": "open",
            "answer": None,
        }
    ]
    current = turns[0]
    for e in store.events(run.id):
        payload = json.loads(e.payload_json or "{}")
        if e.kind == FEEDBACK:
            current = {
                "kind": "feedback",
                "text": str(payload.get("text", e.message)),
                "author": payload.get("author"),
                "at": payload.get("at") or _at(e.created_at),
                "status": "open",
                "answer": None,
                "changed": [],
                "reused": [],
            }
            turns.append(current)
        elif e.kind == REFINED:
            current["changed"] = list(payload.get("changed", []))
            current["reused"] = list(payload.get("reused", []))
        elif e.kind == "final_answer":
            current["answer"], current["status"] = e.message, "answered"
        elif e.kind in (HELD, APPROVED):
            turns.append(
                {
                    "kind": "held" if e.kind == HELD else "approval",
                    "text": e.message,
                    "author": payload.get("author"),
                    "at": payload.get("at") or _at(e.created_at),
                    "reason": payload.get("reason"),
                }
            )
    return turns


def turn_lines(turns: list[dict[str, Any]]) -> list[str]:
    """The turns as text lines (none for a run of one turn)."""
    if len(turns) < 2:
        return []
    lines = ["turns:"]
    for n, t in enumerate(turns):
        who = f" by {t['author']}" if t.get("author") else ""
        lines.append(f"  {n}. {t['kind']}{who} at {t['at']}: {t['text'][:200]}")
        if t.get("changed") or t.get("reused"):
            lines.append(
                f"     changed {', '.join(t['changed']) or 'none'}; "
                f"reused {', '.join(t['reused']) or 'none'}"
            )
        if t.get("answer"):
            lines.append(f"     answer: {t['answer'][:300]}")
    return lines
