"""One run's record as plain values: what the exporters map onto PROV and RO-Crate.

Everything is read through :class:`~simwright.store.reading.RunReader` (the plain
SQLite reader or the store), and every recorded file is re-hashed
(:mod:`simwright.store.integrity`), so an export says which files are missing or
changed instead of presenting them as valid. Which step *used* a file is read from
the step's stored inputs: an :class:`~simwright.results.ArtifactRef` there names the
file by path and sha256. The stored JSON is walked as data; no class is loaded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simwright.graph.codec import TYPE_KEY, class_path
from simwright.results import ArtifactRef
from simwright.store.integrity import FileState, check_file
from simwright.store.reading import (
    ArtifactFields,
    DecisionFields,
    EngineCallFields,
    RunFields,
    RunReader,
    StepFields,
    UsageFields,
)

_REF_CLASS = class_path(ArtifactRef)


@dataclass(frozen=True)
class ArtifactEntry:
    """A recorded file, its state on disk now, and the steps that made and used it."""

    row: ArtifactFields
    state: FileState
    """``ok``, ``missing`` or ``changed`` (``missing`` too for a path, or a link, that
    leads out of the run directory: such a file is never read)."""
    used_by: tuple[int, ...]
    """Ids of the step attempts whose stored inputs name this file (path and sha256)."""


@dataclass(frozen=True)
class RunRecord:
    """Everything the store holds about one run, read once."""

    run: RunFields
    steps: tuple[StepFields, ...]
    artifacts: tuple[ArtifactEntry, ...]
    engine_calls: tuple[EngineCallFields, ...]
    decisions: tuple[DecisionFields, ...]
    usage: tuple[UsageFields, ...]

    @property
    def run_dir(self) -> Path:
        """The run's directory."""
        return Path(self.run.workdir)

    @property
    def problems(self) -> tuple[ArtifactEntry, ...]:
        """The files that are missing, changed or recorded outside the run directory."""
        return tuple(a for a in self.artifacts if a.state != "ok")


def confined(relative: str) -> bool:
    """True when ``relative`` is a relative path that does not climb out of its folder."""
    path = Path(relative)
    return bool(relative) and not path.is_absolute() and ".." not in path.parts


def refs_in_json(data: Any) -> Iterator[tuple[str, str]]:
    """``(path, sha256)`` of every stored :class:`ArtifactRef` inside encoded JSON data."""
    if isinstance(data, list):
        for item in data:
            yield from refs_in_json(item)
    elif isinstance(data, dict):
        if data.get(TYPE_KEY) == "dataclass" and data.get("class") == _REF_CLASS:
            fields = data.get("fields", {})
            yield str(fields.get("path", "")), str(fields.get("sha256", ""))
            return
        for value in data.values():
            yield from refs_in_json(value)


def _used_by(steps: tuple[StepFields, ...]) -> dict[tuple[str, str], tuple[int, ...]]:
    users: dict[tuple[str, str], list[int]] = {}
    for step in steps:
        try:
            data = json.loads(step.step_json)
        except ValueError:
            continue  # unreadable inputs: no use can be shown for this attempt
        for ref in dict.fromkeys(refs_in_json(data)):
            users.setdefault(ref, []).append(step.id)
    return {ref: tuple(ids) for ref, ids in users.items()}


def _entry(
    run_dir: Path, row: ArtifactFields, users: dict[tuple[str, str], tuple[int, ...]]
) -> ArtifactEntry:
    state: FileState = "missing"
    path = run_dir / row.path
    if confined(row.path) and path.resolve().is_relative_to(run_dir.resolve()):
        state = check_file(path, row.sha256)  # a link out of the run counts as missing
    return ArtifactEntry(row, state, users.get((row.path, row.sha256), ()))


def read_record(reader: RunReader, run_id: str) -> RunRecord:
    """The record of the run ``run_id`` (or a unique prefix); unknown ids raise StoreError."""
    run = reader.get_run(run_id)
    steps = tuple(reader.steps(run.id))
    users = _used_by(steps)
    run_dir = Path(run.workdir)
    return RunRecord(
        run=run,
        steps=steps,
        artifacts=tuple(_entry(run_dir, a, users) for a in reader.artifacts(run.id)),
        engine_calls=tuple(reader.engine_calls(run.id)),
        decisions=tuple(reader.decisions(run.id)),
        usage=tuple(reader.usage(run.id)),
    )


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 text of a stored time, with its offset (None stays None).

    The store writes UTC (:func:`simwright.store.models.utcnow`); SQLite gives it back
    without an offset, so a naive time is UTC.
    """
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def plain_parameters(params_json: str) -> dict[str, Any]:
    """A run's parameters as a plain dictionary (the stored model's fields)."""
    try:
        data = json.loads(params_json)
    except ValueError:
        return {"parameters": params_json}
    if isinstance(data, dict) and data.get(TYPE_KEY) == "pydantic":
        data = data.get("data", {})
    if isinstance(data, dict) and "__dict__" in data:
        data = data["__dict__"]
    return data if isinstance(data, dict) else {"parameters": data}
