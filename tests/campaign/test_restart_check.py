"""The provenance check of a segment's restart before the next segment starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.campaign.archive import ProvenanceConflict, check_segment_restart
from simwright.campaign.repository import CampaignStore, SegmentRef, StateView
from simwright.store import Store
from simwright.store.hashing import sha256_file


def _state() -> StateView:
    return StateView(
        id=7, campaign_id="c", system="a", condition="p10", system_index=0,
        condition_index=0, status="running", chain_id="a/p10", cycles=1, local_steps=100,
        abs_step_entry=0, abs_step=100, max_local_steps=1000, next_segment_steps=None,
        start_archive_id=None, archive_id=None, stop_reason="", values_json="{}",
    )  # fmt: skip


def _codes(cstore: CampaignStore, path: Path, digest: str) -> list[str]:
    ref = SegmentRef(1, 1, str(path), digest, 100)
    with pytest.raises(ProvenanceConflict) as caught:
        check_segment_restart(cstore, _state(), ref)
    assert caught.value.refused_state_id == 7
    return [p.code for p in caught.value.problems]


def test_the_restart_as_committed_passes_and_anything_else_is_refused(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    cstore = CampaignStore(store)
    restart = tmp_path / "restart.json"
    restart.write_text('{"abs_step": 100}')
    digest = sha256_file(restart)
    check_segment_restart(cstore, _state(), SegmentRef(1, 1, str(restart), digest, 100))
    assert _codes(cstore, tmp_path / "gone.json", digest) == ["missing_file"]
    assert _codes(cstore, tmp_path, digest) == ["missing_file"]  # a folder is no restart
    restart.write_text('{"abs_step": 101}')
    assert _codes(cstore, restart, digest) == ["modified"]
    store.close()
