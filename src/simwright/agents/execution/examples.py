"""Episodic memory for executors: a resembling past success is attached as an example.

The seam is :class:`EpisodicMemory` (``recall`` and ``remember``). Production uses
:class:`KnowledgeMemory`, an adapter over the knowledge layer's
:class:`~simwright.knowledge.memory.episodic.MemoryStore` (records of kind ``subtask``,
hybrid BM25 + dense retrieval). Retrieval ranks candidates; whether a candidate
*resembles* the new subtask is decided by a deterministic, bounded similarity
(cosine of stemmed word counts of the two instructions, in [0, 1]) against the
configured threshold, and only successes of the same executor qualify.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from simwright.knowledge.memory.episodic import MemoryRecord, MemoryStore
from simwright.knowledge.planner.lexical import tokens

EXAMPLE_CHARS = 6000
"""The longest example text shown to an executor."""
CANDIDATES = 8


@dataclass(frozen=True)
class Episode:
    """A finished subtask: what was asked, how it ended, its scripts and outputs."""

    executor: str
    instruction: str
    outcome: str
    scripts: Mapping[str, str] = field(default_factory=dict)
    outputs: Mapping[str, Any] = field(default_factory=dict)
    run_id: str = ""
    subtask_id: str = ""

    def example(self) -> str:
        """The episode as an example for an executor."""
        parts = [f"A past successful subtask: {self.instruction}"]
        for name, script in self.scripts.items():
            parts.append(f"--- {name} ---\n{script}")
        if self.outputs:
            parts.append(f"It reported: {json.dumps(dict(self.outputs), default=str)}")
        text = "\n".join(parts)
        return text if len(text) <= EXAMPLE_CHARS else text[:EXAMPLE_CHARS] + "\n[...]"


@dataclass(frozen=True)
class Recalled:
    """A recalled episode and its similarity to the new instruction."""

    episode: Episode
    similarity: float


class EpisodicMemory(Protocol):
    """Recalls resembling successful episodes and remembers new ones."""

    def recall(self, executor: str, instruction: str, min_similarity: float) -> Recalled | None:
        """The most similar successful episode of ``executor``, if similar enough."""
        ...

    def remember(self, episode: Episode) -> None:
        """Keep ``episode``."""
        ...


def similarity(a: str, b: str) -> float:
    """Cosine similarity of the stemmed word counts of ``a`` and ``b``."""
    ca, cb = Counter(tokens(a)), Counter(tokens(b))
    if not ca or not cb:
        return 0.0
    dot = sum(ca[w] * cb[w] for w in ca.keys() & cb.keys())
    norm = math.sqrt(sum(v * v for v in ca.values())) * math.sqrt(sum(v * v for v in cb.values()))
    return dot / norm


class KnowledgeMemory:
    """Episodes as ``subtask`` records of the knowledge layer's memory store.

    Only successes are written (the store keeps what worked); a failure is dropped.
    """

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def remember(self, episode: Episode) -> None:
        """Write a successful episode as a memory record."""
        if episode.outcome != "success":
            return
        self.store.add(
            MemoryRecord.new(
                "subtask",
                f"{episode.executor} subtask: {episode.instruction[:120]}",
                episode.instruction,
                inputs={"executor": episode.executor, "subtask": episode.subtask_id},
                scripts=dict(episode.scripts),
                results={k: dict(v) for k, v in episode.outputs.items()},
                outcome="completed",
                source_run=episode.run_id or None,
            )
        )

    def recall(self, executor: str, instruction: str, min_similarity: float) -> Recalled | None:
        """The most similar successful subtask of ``executor`` among the retrieved ones."""
        best: Recalled | None = None
        for record, _score in self.store.search(f"{executor} {instruction}", CANDIDATES):
            if record.kind != "subtask" or record.inputs.get("executor") != executor:
                continue
            score = similarity(instruction, record.task)
            if score >= min_similarity and (best is None or score > best.similarity):
                best = Recalled(_episode(record, executor), score)
        return best


def _episode(record: MemoryRecord, executor: str) -> Episode:
    return Episode(
        executor=executor,
        instruction=record.task,
        outcome="success",
        scripts=dict(record.scripts),
        outputs={k: dict(v) for k, v in record.results.items()},
        run_id=record.source_run or "",
        subtask_id=str(record.inputs.get("subtask", "")),
    )


class NoMemory:
    """A memory that recalls nothing and forgets everything."""

    def recall(self, executor: str, instruction: str, min_similarity: float) -> Recalled | None:
        """Nothing."""
        return None

    def remember(self, episode: Episode) -> None:
        """Forget ``episode``."""
