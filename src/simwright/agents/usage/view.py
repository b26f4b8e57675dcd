"""The usage ledger of a run as ``simwright show`` prints it (text lines and JSON).

Needs only the store: it works without the agents extra installed. A run without
model calls has an empty ledger (``usage_lines`` returns no lines).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from simwright.store.reading import RunReader, UsageFields

_FIELDS = ("requests", "input_tokens", "output_tokens", "prompt_tokens", "cost_usd")


def _sum(rows: Iterable[UsageFields]) -> dict[str, Any]:
    out: dict[str, Any] = dict.fromkeys(_FIELDS, 0)
    out["cost_usd"] = 0.0
    out["failed_requests"] = 0
    for r in rows:
        out["requests"] += r.requests
        out["input_tokens"] += r.input_tokens
        out["output_tokens"] += r.output_tokens
        out["prompt_tokens"] += r.prompt_tokens
        out["cost_usd"] += r.cost_usd
        out["failed_requests"] += 0 if r.ok else r.requests
    out["cost_usd"] = round(out["cost_usd"], 6)
    return out


def _grouped(rows: Sequence[UsageFields], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[UsageFields]] = {}
    for r in rows:
        groups.setdefault(str(getattr(r, key)) or "-", []).append(r)
    return {k: _sum(v) for k, v in sorted(groups.items())}


def usage_json(store: RunReader, run_id: str) -> dict[str, Any]:
    """``{"total": {...}, "by_role": {...}, "by_subtask": {...}, "by_model": {...}}``.

    Each entry has requests, input_tokens (reported by the provider), output_tokens,
    prompt_tokens (measured offline), cost_usd and failed_requests.
    """
    rows = store.usage(run_id)
    return {
        "total": _sum(rows),
        "by_role": _grouped(rows, "role"),
        "by_subtask": _grouped(rows, "subtask"),
        "by_model": _grouped(rows, "model"),
    }


def _line(name: str, u: dict[str, Any]) -> str:
    cost = f"  ${u['cost_usd']:.4f}" if u["cost_usd"] else ""
    failed = f"  ({u['failed_requests']} failed)" if u["failed_requests"] else ""
    return (
        f"  {name:<24} {u['requests']:>4} req  {u['input_tokens']:>8} in  "
        f"{u['output_tokens']:>7} out  {u['prompt_tokens']:>8} prompt{cost}{failed}"
    )


def usage_lines_from_json(data: dict[str, Any]) -> list[str]:
    """The lines of :func:`usage_lines` from :func:`usage_json`'s dictionary."""
    total = data["total"]
    if not total["requests"]:
        return []
    lines = ["model usage (tokens: in = reported by the provider, prompt = measured offline)"]
    lines.append(_line("total", total))
    lines += [_line(f"role {k}", v) for k, v in data["by_role"].items()]
    lines += [_line(f"subtask {k}", v) for k, v in data["by_subtask"].items() if k != "-"]
    lines += [_line(f"model {k}", v) for k, v in data["by_model"].items()]
    return lines


def usage_lines(store: RunReader, run_id: str) -> list[str]:
    """Human-readable usage of a run: totals, then per role, subtask and model."""
    return usage_lines_from_json(usage_json(store, run_id))
