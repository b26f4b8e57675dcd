"""Which recorded files the rest of a run depends on, and whether they are intact.

A step's inputs hold :class:`~simwright.results.ArtifactRef` values (path and sha256 of
a file an earlier step recorded). The step that recorded such a file had inputs of its
own, so the remaining steps of a run depend on the closure: the refs in the next step's
inputs, the refs in the inputs of the steps that produced those files, and so on back
to the first step. :func:`check_required` refuses to resume when any of them is missing
or changed; files outside the closure are reported by ``simwright verify``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from simwright.errors import GraphError, StoreError
from simwright.graph import codec
from simwright.results import ArtifactRef
from simwright.store.integrity import check_file
from simwright.store.store import Store


def artifact_refs(value: Any) -> Iterator[ArtifactRef]:
    """Every :class:`ArtifactRef` inside ``value`` (dataclasses, lists, tuples, dicts)."""
    if isinstance(value, ArtifactRef):
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from artifact_refs(getattr(value, f.name))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from artifact_refs(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from artifact_refs(v)


def required_artifacts(store: Store, run_id: str, step: Any) -> list[ArtifactRef]:
    """The refs ``step`` depends on, directly or through the steps that made its inputs."""
    producer_of = {a.path: a.step_id for a in store.artifacts(run_id)}
    step_json = {s.id: s.step_json for s in store.steps(run_id)}
    found: dict[str, ArtifactRef] = {}
    todo = list(artifact_refs(step))
    visited_steps: set[int] = set()
    while todo:
        ref = todo.pop()
        if ref.path in found:
            continue
        found[ref.path] = ref
        producer = producer_of.get(ref.path)
        if producer is None or producer in visited_steps or producer not in step_json:
            continue
        visited_steps.add(producer)
        try:
            todo.extend(artifact_refs(codec.loads(step_json[producer])))
        except (GraphError, ValueError, TypeError):
            continue  # inputs that no longer decode: the refs found so far are checked
    return sorted(found.values(), key=lambda r: r.path)


def check_required(store: Store, run_id: str, run_dir: Path, step: Any) -> None:
    """Refuse to resume when a file ``step`` depends on (transitively) is missing or changed."""
    problems = []
    for ref in required_artifacts(store, run_id, step):
        state = check_file(run_dir / ref.path, ref.sha256)
        if state != "ok":
            problems.append(f"{ref.path} ({state})")
    if problems:
        raise StoreError(
            "cannot resume: recorded artifacts the remaining steps depend on are "
            f"missing or changed: {', '.join(problems)} (see `simwright verify {run_id}`)"
        )
