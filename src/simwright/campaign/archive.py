"""Archives of accepted states and the provenance checks of every restart a segment reads.

When a state is accepted its final restart is copied to
``archive/<system>/<chain>/<nn>-<condition>.restart`` with a lineage sidecar
(``.lineage.json``) and an archive record: content hash (sha256), the segment it
is the restart of, the archive the state started from, system, condition and
chain. The next condition starts only from that authoritative archive, after
checking that the record is of this campaign, system, predecessor condition and
the predecessor's current chain, not superseded, that the file's hash is the recorded one and
that the sidecar agrees. A file that fails is identified by its hash — a stale
archive of an earlier chain, another system's archive, an intermediate restart
that was never accepted, or a file changed after archiving — and refused with
:class:`ProvenanceConflict`, which the runner turns into a PROVENANCE_CONFLICT event.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from simwright.campaign.events import read_json, write_json
from simwright.campaign.repository import CampaignStore, SegmentRef, StateView
from simwright.campaign.status import CampaignError, StateStatus
from simwright.store.hashing import sha256_file
from simwright.store.models_campaign import CampaignArchiveRow

AUTHORITATIVE: Final = "authoritative"
SUPERSEDED: Final = "superseded"
LINEAGE_SUFFIX: Final = ".lineage.json"


@dataclass(frozen=True)
class ProvenanceProblem:
    """One reason a restart is refused: a short code and an explanation."""

    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        """A JSON-ready dictionary."""
        return {"code": self.code, "message": self.message}


class ProvenanceConflict(CampaignError):
    """A restart is not on the accepted chain; ``refused_state_id`` owns the refused file."""

    def __init__(
        self, problems: Sequence[ProvenanceProblem], *, refused_state_id: int, path: str
    ) -> None:
        text = "; ".join(p.message for p in problems)
        super().__init__(f"restart {path} refused: {text}")
        self.problems = tuple(problems)
        self.refused_state_id = refused_state_id
        self.path = path

    @property
    def signature(self) -> str:
        """The problem codes, for the event's fingerprint."""
        return "provenance|" + ",".join(sorted({p.code for p in self.problems}))

    def details(self) -> dict[str, Any]:
        """The conflict as event details."""
        return {
            "refused_path": self.path,
            "refused_state_id": self.refused_state_id,
            "problems": [p.as_dict() for p in self.problems],
        }


def archive_path(campaign_dir: Path, state: StateView, source: Path) -> Path:
    """Where the accepted restart of ``state`` is archived."""
    suffix = "".join(source.suffixes) or ".restart"
    name = f"{state.condition_index + 1:02d}-{state.condition}{suffix}"
    return campaign_dir / "archive" / state.system / state.chain_id / name


def lineage_path(archive: Path) -> Path:
    """The lineage sidecar of an archived restart."""
    return archive.with_name(archive.name + LINEAGE_SUFFIX)


def archive_state(
    cstore: CampaignStore,
    campaign_dir: Path,
    state: StateView,
    segment: SegmentRef,
) -> StateView:
    """Copy the accepted state's last restart into the archive and record it (-> archived)."""
    source = Path(segment.restart_path)
    check_segment_restart(cstore, state, segment)
    target = archive_path(campaign_dir, state, source)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)
    digest = sha256_file(target)
    if digest != segment.restart_sha256:
        raise CampaignError(f"archive copy {target} differs from its source {source}")
    row = CampaignArchiveRow(
        campaign_id=state.campaign_id,
        state_id=state.id,
        system=state.system,
        condition=state.condition,
        chain_id=state.chain_id,
        path=str(target),
        sha256=digest,
        size=target.stat().st_size,
        abs_step=segment.abs_end,
        restart_of=segment.id,
        derived_from=state.start_archive_id,
        status=AUTHORITATIVE,
    )
    write_json(lineage_path(target), _lineage(row, segment))
    return cstore.add_archive(row, state, status=StateStatus.ARCHIVED)


def _lineage(row: CampaignArchiveRow, segment: SegmentRef) -> dict[str, Any]:
    return {
        "schema": "simwright.campaign.lineage/1",
        "campaign_id": row.campaign_id,
        "system": row.system,
        "condition": row.condition,
        "chain_id": row.chain_id,
        "sha256": row.sha256,
        "abs_step": row.abs_step,
        "restart_of": {"segment_id": segment.id, "seq": segment.seq, "path": segment.restart_path},
        "derived_from": row.derived_from,
    }


def check_inheritance(
    cstore: CampaignStore, state: StateView, predecessor: StateView
) -> CampaignArchiveRow:
    """The predecessor's authoritative archive, after every provenance check on it."""
    path = "(no archive)"
    if predecessor.status != StateStatus.ARCHIVED or predecessor.archive_id is None:
        problem = ProvenanceProblem(
            "not_archived", f"{predecessor.system}/{predecessor.condition} has no accepted archive"
        )
        raise ProvenanceConflict([problem], refused_state_id=predecessor.id, path=path)
    archive = cstore.archive(predecessor.archive_id)
    if archive is None:
        problem = ProvenanceProblem(
            "missing_record", f"archive {predecessor.archive_id} is unknown"
        )
        raise ProvenanceConflict([problem], refused_state_id=predecessor.id, path=path)
    check_archive(cstore, archive, state, predecessor)
    return archive


def check_archive(
    cstore: CampaignStore,
    archive: CampaignArchiveRow,
    state: StateView,
    predecessor: StateView,
) -> None:
    """Raise :class:`ProvenanceConflict` unless ``archive`` may start ``state``."""
    problems = _record_problems(archive, state, predecessor)
    problems += _file_problems(cstore, archive)
    if problems:
        raise ProvenanceConflict(problems, refused_state_id=predecessor.id, path=archive.path)


def _record_problems(
    archive: CampaignArchiveRow, state: StateView, predecessor: StateView
) -> list[ProvenanceProblem]:
    expected = {
        "campaign_id": state.campaign_id,
        "system": state.system,
        "condition": predecessor.condition,
        "chain_id": predecessor.chain_id,
    }
    problems = [
        ProvenanceProblem(
            "stale_chain" if key == "chain_id" else f"wrong_{key.removesuffix('_id')}",
            f"the archive record is of {key} {getattr(archive, key)!r}, expected {value!r}",
        )
        for key, value in expected.items()
        if getattr(archive, key) != value
    ]
    if archive.status != AUTHORITATIVE:
        problems.append(
            ProvenanceProblem("superseded", f"archive {archive.id} is {archive.status}")
        )
    return problems


def _file_problems(cstore: CampaignStore, archive: CampaignArchiveRow) -> list[ProvenanceProblem]:
    path = Path(archive.path)
    if not path.is_file():
        return [ProvenanceProblem("missing_file", f"archived restart {path} is missing")]
    digest = sha256_file(path)
    if digest != archive.sha256:
        return [identify(cstore, digest, archive.system, archive.chain_id)]
    sidecar = lineage_path(path)
    try:
        lineage = read_json(sidecar)
    except (OSError, ValueError):
        return [ProvenanceProblem("lineage_mismatch", f"lineage record {sidecar} is unreadable")]
    keys = ("sha256", "system", "condition", "chain_id", "campaign_id")
    wrong = [k for k in keys if lineage.get(k) != getattr(archive, k)]
    if wrong:
        message = f"lineage record {sidecar.name} disagrees with the archive on {', '.join(wrong)}"
        return [ProvenanceProblem("lineage_mismatch", message)]
    return []


def identify(cstore: CampaignStore, digest: str, system: str, chain_id: str) -> ProvenanceProblem:
    """What a file with content hash ``digest`` is, judged from the records of the store."""
    for known in cstore.archives_with(digest):
        where = f"{known.system}/{known.condition} (chain {known.chain_id}, {known.status})"
        if known.system != system:
            return ProvenanceProblem("other_system", f"the file is the archive of {where}")
        if known.chain_id != chain_id:
            return ProvenanceProblem("stale_chain", f"the file is a stale archive of {where}")
        return ProvenanceProblem("wrong_archive", f"the file is the archive of {where}")
    segments = cstore.segments_with_restart(digest)
    if segments:
        seg = segments[0]
        owner = cstore.state(seg.state_id)
        code = "other_system" if owner.system != system else "not_accepted"
        message = (
            f"the file is the restart of segment {seg.seq} of {owner.system}/{owner.condition} "
            f"(chain {seg.chain_id}), not an accepted archive"
        )
        return ProvenanceProblem(code, message)
    return ProvenanceProblem(
        "modified", f"sha256 {digest[:12]}… matches no recorded restart: changed after archiving"
    )


def check_segment_restart(cstore: CampaignStore, state: StateView, segment: SegmentRef) -> None:
    """Raise :class:`ProvenanceConflict` unless a segment's restart is as committed."""
    path = Path(segment.restart_path)
    try:
        digest = sha256_file(path)  # no separate stat: opening it says whether it is there
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        problem = ProvenanceProblem(
            "missing_file", f"restart {path} of segment {segment.seq} is missing"
        )
        raise ProvenanceConflict([problem], refused_state_id=state.id, path=str(path)) from None
    if digest != segment.restart_sha256:
        problem = identify(cstore, digest, state.system, state.chain_id)
        if problem.code in ("not_accepted", "wrong_archive"):
            problem = ProvenanceProblem(
                "modified", f"restart of segment {segment.seq} was replaced: {problem.message}"
            )
        raise ProvenanceConflict([problem], refused_state_id=state.id, path=str(path))
