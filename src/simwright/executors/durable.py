"""One step attempt's engine calls on a batch scheduler, surviving the controller's death.

Each engine call of a step gets a deterministic key, ``<run>/<seq>/<n>`` (the n-th call
the step makes: steps are deterministic, so a re-attempt makes the same calls in the
same order; a campaign segment's prefix is ``<campaign>/<system>/<condition>/<seed>``),
and each attempt of it a deterministic job name. Before submitting,
:class:`DurableRunner` reads the journal (:mod:`simwright.executors.journal`):

- a recorded attempt with the same inputs that has not ended is **re-attached** (found by
  its job id, or by its name when the controller died before recording the id) — never
  submitted again;
- one whose engine already ran to its end with exit code 0 is **collected**: its outputs
  are copied into the new attempt's folder; so is a continuable job stopped at its wall
  time or requeued (exit 124: the caller continues from its restart files); one that
  failed is run again (a new submission: a resumed run retries a failed call);
- an unfinished one whose inputs differ (another fingerprint) is cancelled;
- one the scheduler cancelled, preempted or lost (no exit code) is **resubmitted** as the
  next attempt, at most ``retries`` times.

The job records the executor, job id and name, the scheduler's state history and the
earlier job ids in the engine-call record (``extra``); stdout and stderr tails come from
the job's own files like those of a local call.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Final

from simwright.errors import EngineError
from simwright.executors.backend import BatchBackend, JobEnd
from simwright.executors.journal import Attempt, Ending, Submission, SubmissionJournal
from simwright.jobs import STOPPED_EXIT, EngineJob, JobOutcome
from simwright.processes import PID_FILE

NEVER_SUBMITTED: Final = "NEVER_SUBMITTED"
"""The end recorded for an intent the scheduler never received (not a lost job)."""
SUPERSEDED: Final = "SUPERSEDED"
"""The end recorded for a job cancelled because the call's inputs changed."""

_NAME_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_.-]")
_SKIP_COPY: Final = frozenset({PID_FILE})


def job_name(key: str, attempt: int) -> str:
    """The job name of attempt ``attempt`` of call ``key``: ``sw-<run>-<seq>-<n>-a<k>``."""
    return _NAME_UNSAFE.sub("-", f"sw-{key.replace('/', '-')}-a{attempt}")


def fingerprint(job: EngineJob) -> str:
    """A hash of what the call computes: command, added environment, and the files in its
    folder when it is submitted (outputs of the call itself excluded); not the folder path."""
    digest = hashlib.sha256()
    digest.update("\0".join(job.argv).encode())
    for name, value in sorted(job.env.items()):
        digest.update(f"\0{name}={value}".encode())
    skip = {job.stdout_path.name, job.stderr_path.name, PID_FILE}
    for path in sorted(p for p in job.workdir.iterdir() if p.is_file() and p.name not in skip):
        digest.update(f"\0{path.name}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


class DurableRunner:
    """Runs the engine calls of one step attempt (or campaign segment) on ``backend``, with
    write-ahead ``journal`` records; the n-th call's key is ``<key_prefix>/<n>``."""

    def __init__(
        self,
        backend: BatchBackend,
        journal: SubmissionJournal,
        key_prefix: str,
        *,
        retries: int = 2,
    ) -> None:
        self.backend = backend
        self.journal = journal
        self.key_prefix = key_prefix
        self.retries = retries
        self._calls = 0

    def run(
        self,
        job: EngineJob,
        monitor: Callable[[], None] | None = None,
        monitor_every_s: float = 2.0,
    ) -> JobOutcome:
        """Run ``job`` on the scheduler, re-attaching to or collecting a recorded attempt."""
        self._calls += 1
        key = f"{self.key_prefix}/{self._calls}"
        mark = fingerprint(job)
        attempts = self.journal.attempts(key)
        self._cancel_superseded(attempts, mark)
        ours = [a for a in attempts if a.submission.fingerprint == mark]
        lost = [a for a in ours if _lost(a)]
        ids = [a.submission.job_id for a in ours if a.submission.job_id]
        last = ours[-1] if ours else None
        if last is not None and last.ending is not None and _collectable(job, last.ending):
            _copy_outputs(Path(last.submission.workdir), job.workdir)
            ended = last.ending
            assert ended.exit_code is not None
            return self._outcome(last.submission, ended.exit_code, ended.history, ids,
                                 len(lost), "collected",
                                 JobEnd(ended.state, ended.exit_code).stopped_by)  # fmt: skip
        if last is not None and last.ending is None:
            end = self._reattach(job, last, ids, monitor, monitor_every_s)
            if end is not None and end.engine_finished:
                assert end.exit_code is not None
                _copy_outputs(Path(last.submission.workdir), job.workdir)
                return self._outcome(last.submission, end.exit_code, end.describe_history(),
                                     ids, len(lost), "re-attached", end.stopped_by)  # fmt: skip
            if end is not None:
                lost.append(last)
        number = max((a.submission.attempt for a in attempts), default=0)
        return self._submit_until_done(job, key, mark, number, ids, len(lost),
                                       monitor, monitor_every_s)  # fmt: skip

    def _cancel_superseded(self, attempts: list[Attempt], mark: str) -> None:
        """Cancel unfinished jobs of this call whose inputs differ from this attempt's."""
        for attempt in attempts:
            sub = attempt.submission
            if sub.fingerprint != mark and attempt.ending is None and sub.job_id:
                self.backend.cancel(sub.job_id)
                self.journal.ended(sub, sub.job_id, JobEnd(SUPERSEDED, None))

    def _reattach(
        self,
        job: EngineJob,
        last: Attempt,
        ids: list[str],
        monitor: Callable[[], None] | None,
        monitor_every_s: float,
    ) -> JobEnd | None:
        """Follow a recorded, unfinished attempt (its id joins ``ids``); None when it never
        reached the scheduler."""
        sub = last.submission
        job_id = sub.job_id or self.backend.find(sub.job_name)
        if job_id is None:
            self.journal.ended(sub, None, JobEnd(NEVER_SUBMITTED, None))
            return None
        if sub.job_id is None:
            self.journal.submitted(sub, job_id)
            ids.append(job_id)
        end = self.backend.wait(job, job_id, monitor, monitor_every_s)
        self.journal.ended(sub, job_id, end)
        return end

    def _submit_until_done(
        self,
        job: EngineJob,
        key: str,
        mark: str,
        number: int,
        ids: list[str],
        lost: int,
        monitor: Callable[[], None] | None,
        monitor_every_s: float,
    ) -> JobOutcome:
        while True:
            if lost > self.retries:
                raise EngineError(
                    f"{self.backend.name} jobs of {job.engine} ({', '.join(ids)}) were cancelled "
                    f"or lost {lost} times; the retry budget ({self.retries}) is spent"
                )
            number += 1
            sub = Submission(key, number, job_name(key, number), mark, str(job.workdir),
                             self.backend.name)  # fmt: skip
            self.journal.intent(sub)
            job_id = self.backend.submit(job, sub.job_name)
            self.journal.submitted(sub, job_id)
            ids.append(job_id)
            end = self.backend.wait(job, job_id, monitor, monitor_every_s)
            self.journal.ended(sub, job_id, end)
            if end.exit_code is not None:
                return self._outcome(sub, end.exit_code, end.describe_history(), ids, lost,
                                     "submitted", end.stopped_by)  # fmt: skip
            lost += 1

    def _outcome(
        self,
        sub: Submission,
        exit_code: int,
        history: str,
        ids: list[str],
        lost: int,
        how: str,
        stopped_by: str = "",
    ) -> JobOutcome:
        return JobOutcome(
            exit_code,
            {
                **({"stopped_by": stopped_by} if stopped_by else {}),
                "executor": self.backend.name,
                "job_id": ids[-1] if ids else "",
                "job_name": sub.job_name,
                "job_key": sub.key,
                "job_states": history,
                "job_ids": " ".join(ids),
                "resubmissions": str(lost),
                "collection": how,
            },
        )


def _collectable(job: EngineJob, ending: Ending) -> bool:
    """True when a recorded end is collected rather than run again: the engine ran to
    its end with exit code 0, or a continuable job was stopped early (its restart files
    are where the caller continues from, not a reason to start over)."""
    return ending.exit_code == 0 or (job.continuable and ending.exit_code == STOPPED_EXIT)


def _lost(attempt: Attempt) -> bool:
    """True for a job the scheduler ended without the engine finishing (counts against
    the retry budget)."""
    end = attempt.ending
    return end is not None and end.exit_code is None and end.state != NEVER_SUBMITTED


def _copy_outputs(source: Path, target: Path) -> None:
    """Copy what a job left in ``source`` into ``target`` (fresh modification times, so the
    engine's readers take them as this attempt's outputs); nothing when they are one folder."""
    if source.resolve() == target.resolve() or not source.is_dir():
        return
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.name in _SKIP_COPY:
            continue
        if path.is_dir():
            shutil.copytree(path, target / path.name, dirs_exist_ok=True,
                            copy_function=_replace_file)  # fmt: skip
        elif path.is_file():
            _replace_file(path, target / path.name)


def _replace_file(source: str | Path, target: str | Path) -> None:
    """Copy ``source`` over ``target``: a new file, never written through a hard link (a
    potential file linked from the catalogue), nothing when they are one file."""
    destination = Path(target)
    if destination.exists():
        if destination.samefile(source):
            return
        destination.unlink()
    shutil.copyfile(source, destination)
