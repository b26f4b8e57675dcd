"""Paths of campaign records: relative in the store, absolute in the rows read back.

A campaign's directory is recorded relative to the store's campaigns root; the paths
inside it (segment folders, restarts, archives, event folders) relative to that
directory (:mod:`simwright.store.paths`). :class:`CampaignPaths` converts both ways
for :class:`~simwright.campaign.repository.CampaignStore`, remembering each campaign's
directory once it is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from simwright.campaign.status import CampaignError
from simwright.store.models_campaign import (
    CampaignArchiveRow,
    CampaignEventRow,
    CampaignRow,
    CampaignSegmentRow,
)
from simwright.store.paths import from_stored, to_stored

RowT = TypeVar("RowT", CampaignSegmentRow, CampaignArchiveRow, CampaignEventRow)

PATH_COLUMNS: Final = {
    CampaignSegmentRow: ("workdir", "restart_path"),
    CampaignArchiveRow: ("path",),
    CampaignEventRow: ("directory",),
}
"""Columns holding paths, recorded relative to the campaign directory."""


class CampaignPaths:
    """Converts the paths of campaign rows (``root``: the campaigns root, None: absolute)."""

    def __init__(self, root: Path | None, sessions: sessionmaker[Session]) -> None:
        self.root = root
        self._sessions = sessions
        self._dirs: dict[str, Path] = {}

    def directory(self, campaign_id: str) -> Path:
        """The absolute directory of a campaign (looked up once, then remembered)."""
        found = self._dirs.get(campaign_id)
        if found is None:
            with self._sessions() as s:
                stored = s.scalar(select(CampaignRow.workdir).where(CampaignRow.id == campaign_id))
            if stored is None:
                raise CampaignError(f"no campaign with id {campaign_id!r}")
            found = self._dirs[campaign_id] = Path(from_stored(stored, self.root))
        return found

    def recorded(self, campaign: CampaignRow) -> Path:
        """Make a new campaign row's directory relative (to insert it); the absolute one."""
        directory = Path(campaign.workdir)
        campaign.workdir = to_stored(directory, self.root)
        self._dirs[campaign.id] = directory
        return directory

    def campaign(self, row: CampaignRow) -> CampaignRow:
        """A campaign row read back, with its directory absolute."""
        directory = self._dirs.get(row.id)
        if directory is None:
            directory = self._dirs[row.id] = Path(from_stored(row.workdir, self.root))
        set_committed_value(row, "workdir", str(directory))
        return row

    def absolute(self, row: RowT) -> RowT:
        """A segment, archive or event row read back, with its paths absolute."""
        root = self.directory(row.campaign_id)
        for name in PATH_COLUMNS[type(row)]:
            set_committed_value(row, name, from_stored(getattr(row, name), root))
        return row

    def relative(self, campaign_id: str, path: str) -> str:
        """``path`` as recorded for the campaign ``campaign_id``."""
        return to_stored(path, self.directory(campaign_id))

    def relative_fields(
        self, campaign_id: str, values: dict[str, Any], names: Sequence[str]
    ) -> None:
        """Make the paths among ``values`` relative to the campaign directory (in place)."""
        for name in names:
            if name in values:
                values[name] = self.relative(campaign_id, values[name])
