"""What the campaign commands print: live progress on stderr, tables of states and events."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from simwright.campaign.repository import StateView
from simwright.store.models_campaign import CampaignEventRow


class ProgressObserver:
    """Prints one line per segment (with its speed when it ends), state change and event
    (to stderr)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._steps: dict[tuple[str, str, int], int] = {}

    def segment_started(self, state: StateView, seq: int, attempt: int, steps: int) -> None:
        """Print the segment about to run."""
        self._steps[(state.system, state.condition, seq)] = steps
        again = f" (attempt {attempt})" if attempt > 1 else ""
        self.console.print(
            f"  {state.system}/{state.condition}: segment {seq}{again}, {steps} steps "
            f"from local step {state.local_steps}",
            highlight=False,
        )

    def segment_finished(self, state: StateView, seq: int, status: str, wall_s: float) -> None:
        """Print how the segment ended, with its steps per second."""
        steps = self._steps.pop((state.system, state.condition, seq), None)
        speed = f" ({steps / wall_s:.3g} steps/s)" if steps and wall_s > 0 else ""
        self.console.print(
            f"  {state.system}/{state.condition}: segment {seq} {status} in {wall_s:.1f} s"
            f"{speed} -> {state.status}",
            highlight=False,
        )

    def state_changed(self, state: StateView) -> None:
        """Print settled states."""
        if state.status in ("archived", "failed", "needs_review"):
            self.console.print(f"{state.system}/{state.condition}: {state.status}", highlight=False)

    def event_raised(self, event: CampaignEventRow, routed_to: str) -> None:
        """Print the event and who must answer it."""
        self.console.print(
            f"[yellow]event {event.id}[/] {event.kind} ({routed_to}): {event.message}",
            highlight=False,
        )


def _value(values: dict[str, Any]) -> str:
    return "; ".join(
        f"{name} {v['value']:.4g} ± {v['std']:.2g} {v.get('unit', '')}".strip()
        for name, v in values.items()
    )


def print_status(console: Console, data: dict[str, Any]) -> None:
    """The campaign's states and open events as tables."""
    table = Table(title=f"{data['campaign_id']} — {data['status']}", title_justify="left")
    for head in ("system", "condition", "status", "cycles", "local steps", "abs. step", "accepted"):
        table.add_column(head)
    for s in data["states"]:
        table.add_row(
            s["system"],
            s["condition"],
            s["status"],
            str(s["cycles"]),
            str(s["local_steps"]),
            str(s["final_abs_step"]),
            _value(s["accepted_values"]),
        )
    console.print(table)
    print_events(console, data["open_events"])
    if data.get("report"):
        console.print(f"report: {data['report']}", highlight=False)


def print_events(console: Console, events: list[dict[str, Any]]) -> None:
    """Open events, one line each."""
    for e in events:
        where = f"{e['system']}/{e['condition']}" if e["system"] else "campaign"
        console.print(
            f"[yellow]{e['event_id']}[/] {e['kind']} {where}: {e['message']}", highlight=False
        )


def print_event(console: Console, data: dict[str, Any]) -> None:
    """One event with the gist of its evidence."""
    event, evidence = data["event"], data["evidence"]
    console.print(f"[bold]{event['event_id']}[/] {event['kind']} ({data['status']})")
    console.print(f"message: {event['message']}", highlight=False)
    console.print(f"routed to: {event['routing']['to']} — {event['routing']['why']}")
    state = evidence.get("state") or {}
    if state:
        console.print(
            f"state: {state['system']}/{state['condition']} {state['status']}, "
            f"{state['cycles']} cycles, {state['local_steps']} local steps",
            highlight=False,
        )
    scope = evidence.get("decision_scope", {})
    console.print(f"allowed actions: {', '.join(scope.get('allowed_actions', []))}")


def print_plan(console: Console, data: dict[str, Any]) -> None:
    """The plan as a table."""
    table = Table(title=f"plan of {data['name']} ({data['engine']})", title_justify="left")
    for head in ("#", "system", "condition", "starts from", "segments", "max local steps"):
        table.add_column(head)
    for s in data["states"]:
        table.add_row(
            str(s["order"]),
            s["system"],
            s["condition"],
            s["starts_from"],
            f"{s['min_segments']}–{s['max_segments']} × {s['segment_steps']}",
            str(s["max_local_steps"]),
        )
    console.print(table)
    totals = data["totals"]
    console.print(
        f"{totals['states']} states; {totals['min_local_steps']}–{totals['max_local_steps']} "
        "local steps in all"
    )
    cost = data.get("cost")
    if cost:
        console.print(
            f"estimated cost: {cost['core_hours_min']:.1f}–{cost['core_hours_max']:.1f} "
            f"core-hours, {cost['disk_gb_min']:.2f}–{cost['disk_gb_max']:.2f} GB on disk "
            f"({cost['cores_per_segment']} core per segment)",
            highlight=False,
        )
