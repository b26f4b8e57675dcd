"""Re-hash the files a run recorded and tell which are missing or changed.

Every artifact row holds the file's path (relative to the run directory), sha256 and
size at the moment it was recorded. :func:`verify_run` compares each with the file on
disk now; ``simwright verify`` prints the result and ``simwright show`` flags the files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from simwright.store.hashing import sha256_file
from simwright.store.reading import ArtifactFields, RunFields, RunReader

FileState = Literal["ok", "missing", "changed"]


def check_file(path: Path, sha256: str) -> FileState:
    """``ok`` when ``path`` is a file with content hash ``sha256``, else what is wrong."""
    if not path.is_file():
        return "missing"
    try:
        digest = sha256_file(path)
    except OSError:
        return "missing"
    return "ok" if digest == sha256 else "changed"


@dataclass(frozen=True)
class ArtifactCheck:
    """One recorded artifact compared with the file on disk."""

    path: str
    kind: str
    step_id: int | None
    sha256: str
    state: FileState


@dataclass(frozen=True)
class RunIntegrity:
    """Every recorded artifact of a run, checked."""

    run_id: str
    run_dir: str
    checks: tuple[ArtifactCheck, ...]

    @property
    def ok(self) -> bool:
        """True when every recorded file is present and unchanged."""
        return all(c.state == "ok" for c in self.checks)

    @property
    def problems(self) -> tuple[ArtifactCheck, ...]:
        """The missing or changed files."""
        return tuple(c for c in self.checks if c.state != "ok")

    def state_of(self, path: str) -> FileState:
        """The state of the artifact recorded at ``path`` (``ok`` if not recorded)."""
        for c in self.checks:
            if c.path == path:
                return c.state
        return "ok"


def check_artifact(run_dir: Path, row: ArtifactFields) -> ArtifactCheck:
    """Re-hash one recorded artifact."""
    state = check_file(run_dir / row.path, row.sha256)
    return ArtifactCheck(row.path, row.kind, row.step_id, row.sha256, state)


def verify_run(store: RunReader, run: RunFields) -> RunIntegrity:
    """Re-hash every artifact ``run`` recorded."""
    run_dir = Path(run.workdir)
    checks = tuple(check_artifact(run_dir, a) for a in store.artifacts(run.id))
    return RunIntegrity(run.id, run.workdir, checks)
