"""Campaign reports: the status object, a table of states, and plots.

:func:`campaign_json` is what ``simwright campaign run/status --json`` print: the
campaign with a ``states`` list (system, condition, status, cycles, local steps,
final absolute step, accepted values) and its open events. :func:`write_report`
writes ``report/`` in the campaign directory: ``states.json`` (with each
system's parameters, e.g. a slit pore's ``wall``), ``report.md`` (the table of
states with accepted values ± temporal standard deviation over the final window,
and each system's models with their sources when the engine has
``describe_system``), one plot per accepted observable against local steps for
every state, and the "isotherm" of accepted values along the path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import numpy as np

from simwright.campaign.events import write_json
from simwright.campaign.lock import is_locked
from simwright.campaign.repository import CampaignStore, StateView
from simwright.campaign.spec import CampaignSpec
from simwright.campaign.status import StateStatus
from simwright.campaign.wiring import CampaignContext
from simwright.store.models_campaign import CampaignEventRow

REPORT_DIR: Final = "report"
PATH_VARIABLES: Final = ("pressure_bar", "relative_humidity", "temperature_k")


def state_json(state: StateView, spec: CampaignSpec) -> dict[str, Any]:
    """One state as a JSON-ready dictionary."""
    values = json.loads(state.values_json or "{}")
    accepted = state.status in (StateStatus.ACCEPTED, StateStatus.ARCHIVED)
    return {
        "system": state.system,
        "condition": state.condition,
        "system_parameters": dict(spec.system(state.system).parameters),
        "condition_variables": spec.condition(state.condition).variables(),
        "status": state.status,
        "cycles": state.cycles,
        "local_steps": state.local_steps,
        "max_local_steps": state.max_local_steps,
        "abs_step_entry": state.abs_step_entry,
        "final_abs_step": state.abs_step,
        "chain_id": state.chain_id,
        "accepted_values": values if accepted else {},
        "stop_reason": state.stop_reason,
    }


def event_json(event: CampaignEventRow) -> dict[str, Any]:
    """One event as a JSON-ready dictionary."""
    return {
        "event_id": event.id,
        "kind": event.kind,
        "system": event.system,
        "condition": event.condition,
        "status": event.status,
        "message": event.message,
        "duplicate_of": event.duplicate_of,
        "directory": event.directory,
    }


def campaign_json(cstore: CampaignStore, campaign_id: str) -> dict[str, Any]:
    """The campaign, its states and open events (see the module docstring)."""
    campaign = cstore.campaign(campaign_id)
    spec = CampaignSpec.model_validate_json(campaign.spec_json)
    report = Path(campaign.workdir) / REPORT_DIR / "report.md"
    status = campaign.status
    if status == "running" and not is_locked(Path(campaign.workdir)):
        status = "interrupted"  # recorded as running, but no process holds its lock
    return {
        "campaign_id": campaign.id,
        "name": campaign.name,
        "objective": campaign.objective,
        "status": status,
        "engine": campaign.engine,
        "directory": campaign.workdir,
        "spec_sha256": campaign.spec_sha256,
        "model_calls": campaign.model_calls,
        "states": [state_json(s, spec) for s in cstore.states(campaign.id)],
        "open_events": [event_json(e) for e in cstore.events(campaign.id, status="open")],
        "report": str(report) if report.is_file() else None,
    }


def _value_text(values: dict[str, Any], name: str) -> str:
    value = values.get(name)
    if not value:
        return "—"
    return f"{value['value']:.4g} ± {value['std']:.2g}"


def states_table(spec: CampaignSpec, states: list[dict[str, Any]]) -> str:
    """A Markdown table of states with their accepted values ± temporal std."""
    names = list(spec.acceptance)
    heads = [f"{n} ({spec.observable_unit(n) or '1'})" for n in names]
    lines = [
        "| system | condition | status | cycles | local steps | final abs. step | "
        + " | ".join(heads)
        + " |",
        "|" + "---|" * (6 + len(names)),
    ]
    for s in states:
        cells = [
            s["system"],
            s["condition"],
            s["status"],
            str(s["cycles"]),
            str(s["local_steps"]),
            str(s["final_abs_step"]),
            *(_value_text(s["accepted_values"], n) for n in names),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_report(ctx: CampaignContext) -> list[Path]:
    """Write ``report/`` of the campaign; the files written."""
    directory = ctx.directory / REPORT_DIR
    directory.mkdir(parents=True, exist_ok=True)
    data = campaign_json(ctx.cstore, ctx.campaign.id)
    files = [write_json(directory / "states.json", data)]
    text = [
        f"# Campaign {data['name']}",
        "",
        data["objective"].strip(),
        "",
        f"Status: **{data['status']}**; model calls: {data['model_calls']}; campaign "
        f"`{data['campaign_id']}`.",
        "",
        "Accepted values are window means ± the temporal standard deviation over the "
        "final acceptance window (local steps).",
        "",
        states_table(ctx.spec, data["states"]),
        "",
        *_models(ctx),
    ]
    files += _plots(ctx, directory)
    text += [f"![{p.stem}]({p.name})" for p in files[1:]]
    report = directory / "report.md"
    report.write_text("\n".join(text) + "\n")
    return [report, *files]


def _models(ctx: CampaignContext) -> list[str]:
    """A "Models" section when the engine describes its systems (``describe_system``)."""
    describe = getattr(ctx.engine, "describe_system", None)
    if describe is None:
        return []
    lines = ["## Models", ""]
    for system in ctx.spec.systems:
        for key, value in describe(ctx.spec, system).items():
            lines.append(f"- {system.name}, {key}: {value}")
    return [*lines, ""]


def _series(ctx: CampaignContext, state: StateView, name: str) -> tuple[np.ndarray, np.ndarray]:
    steps: list[int] = []
    values: list[float] = []
    for segment in ctx.cstore.segments(state.id, state.chain_id):
        data = json.loads(segment.series_json)
        steps += data["local_steps"]
        values += data["values"][name]
    return np.asarray(steps), np.asarray(values, dtype=float)


def _plots(ctx: CampaignContext, directory: Path) -> list[Path]:
    # lazy: matplotlib takes ~1 s to import
    import matplotlib

    matplotlib.use("Agg")
    # lazy: matplotlib takes ~1 s to import
    import matplotlib.pyplot as plt

    states = ctx.cstore.states(ctx.campaign.id)
    files = []
    for name in ctx.spec.acceptance:
        files.append(_trace_plot(ctx, plt, states, name, directory / f"trace_{name}.png"))
        files.append(_path_plot(ctx, plt, states, name, directory / f"isotherm_{name}.png"))
    return files


def _trace_plot(
    ctx: CampaignContext, plt: Any, states: list[StateView], name: str, path: Path
) -> Path:
    systems = [s.name for s in ctx.spec.systems]
    conditions = [c.name for c in ctx.spec.conditions]
    fig, axes = plt.subplots(
        len(systems),
        len(conditions),
        figsize=(2.6 * len(conditions) + 1, 2.2 * len(systems) + 0.6),
        squeeze=False,
        sharex=False,
        dpi=72,
    )
    rule = ctx.spec.acceptance[name]
    for state in states:
        ax = axes[state.system_index][state.condition_index]
        x, y = _series(ctx, state, name)
        if x.size:
            ax.plot(x, y, "-", lw=0.8)
            end = int(x[-1])
            ax.axvspan(max(0, end - rule.window_steps), end, color="orange", alpha=0.15)
        values = json.loads(state.values_json or "{}").get(name)
        if values and state.status == StateStatus.ARCHIVED:
            ax.axhline(values["value"], color="k", lw=0.8, ls="--")
        ax.set_title(f"{state.system} / {state.condition} ({state.status})", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes[-1]:
        ax.set_xlabel("local steps", fontsize=8)
    for row in axes:
        row[0].set_ylabel(f"{name} ({ctx.spec.observable_unit(name) or '1'})", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def path_variable(spec: CampaignSpec) -> str | None:
    """The condition variable that changes along the path (pressure first), if any."""
    for variable in PATH_VARIABLES:
        values = {c.variables().get(variable) for c in spec.conditions}
        if len(values) > 1 and None not in values:
            return variable
    return None


def _path_plot(
    ctx: CampaignContext, plt: Any, states: list[StateView], name: str, path: Path
) -> Path:
    variable = path_variable(ctx.spec)
    fig, ax = plt.subplots(figsize=(5.5, 4.0), dpi=110)
    plotted = False
    for system in ctx.spec.systems:
        xs, ys, es = [], [], []
        for state in (s for s in states if s.system == system.name):
            value = json.loads(state.values_json or "{}").get(name)
            if state.status != StateStatus.ARCHIVED or not value:
                continue
            condition = ctx.spec.condition(state.condition)
            xs.append(condition.variables()[variable] if variable else state.condition_index)
            ys.append(value["value"])
            es.append(value["std"])
        if xs:
            ax.errorbar(xs, ys, yerr=es, marker="o", ms=4, capsize=3, lw=1, label=system.name)
            plotted = True
    ax.set_xlabel(variable or "condition index along the path")
    ax.set_ylabel(f"accepted {name} ({ctx.spec.observable_unit(name) or '1'})")
    ax.set_title(f"{ctx.spec.name}: accepted states (± temporal std)", fontsize=9)
    if plotted:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
