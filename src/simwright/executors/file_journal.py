"""Write-ahead submission records in a JSON-lines file, for engine calls outside a run.

Campaign segments are not steps of a run, so their submissions cannot be events of
one; they go to ``<campaigns>/jobs.jsonl`` instead. Each record is one line appended
under an exclusive ``flock`` and flushed to disk (``fsync``) before the scheduler is
asked or waited on, so a controller killed at any instant leaves every record it
relied on. The records and their reading are those of :mod:`~simwright.executors.journal`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from simwright.executors.backend import JobEnd
from simwright.executors.journal import (
    ENDED,
    INTENT,
    SUBMITTED,
    Attempt,
    Submission,
    end_payload,
    fold_attempts,
    payload,
)
from simwright.locks import waiting_lock


class FileJournal:
    """Submission records appended to ``path`` (one JSON object per line)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def intent(self, sub: Submission) -> None:
        """Record that ``sub`` is about to be submitted."""
        self._append(INTENT, payload(sub))

    def submitted(self, sub: Submission, job_id: str) -> None:
        """Record the scheduler's job id of ``sub``."""
        self._append(SUBMITTED, {**payload(sub), "job_id": job_id})

    def ended(self, sub: Submission, job_id: str | None, end: JobEnd) -> None:
        """Record how ``sub`` ended."""
        self._append(ENDED, end_payload(sub, job_id, end))

    def attempts(self, key: str) -> list[Attempt]:
        """Every recorded attempt of engine call ``key``, oldest first."""
        if not self.path.is_file():
            return []
        records = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                records.append((str(record.pop("kind")), record))
        return fold_attempts(records, key)

    def _append(self, kind: str, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"kind": kind, **data}) + "\n"
        with waiting_lock(self.path.with_suffix(".lock")), self.path.open("a") as out:
            out.write(line)
            out.flush()
            os.fsync(out.fileno())
