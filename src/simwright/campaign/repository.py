"""Transactional reads and writes of campaign records on the provenance store.

Each public write is one transaction, so a process killed at any moment leaves
the records before or after it, never between: a segment row and the state's
counters, an event and the state's ``needs_review``, a review and its effect,
are written together. A state is read as a :class:`StateView` value and updated
only if its status is still the one read (compare-and-set), after
:func:`check_transition`. Other rows are returned detached; treat them as values.
The write of every cycle (:meth:`CampaignStore.add_segment`) runs on the database
driver itself (:mod:`simwright.store.raw_writes`), on the connection
:meth:`CampaignStore.holding` keeps while a campaign runs; everything else goes
through SQLAlchemy.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final, cast

from sqlalchemy import Connection, Table, bindparam, func, select
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from simwright.campaign.status import CampaignError, StateStatus, check_transition
from simwright.campaign.stored_paths import PATH_COLUMNS, CampaignPaths
from simwright.store.models import utcnow
from simwright.store.models_campaign import (
    CampaignArchiveRow,
    CampaignEventRow,
    CampaignReviewRow,
    CampaignRow,
    CampaignSegmentRow,
    CampaignStateRow,
)
from simwright.store.raw_writes import RawCompareAndSet, RawConnection, RawInsert, RawTransaction
from simwright.store.store import Store

StateFields = dict[str, Any]
"""Columns of a state to set, by name (``status`` is checked as a transition)."""

SegmentFields = dict[str, Any]
"""Columns of a new segment record, by name."""


@dataclass(frozen=True)
class StateView:
    """One campaign state as a value (a snapshot of its record)."""

    id: int
    campaign_id: str
    system: str
    condition: str
    system_index: int
    condition_index: int
    status: str
    chain_id: str
    cycles: int
    local_steps: int
    abs_step_entry: int | None
    abs_step: int | None
    max_local_steps: int
    next_segment_steps: int | None
    start_archive_id: int | None
    archive_id: int | None
    stop_reason: str
    values_json: str


STATE_FIELDS: Final = tuple(f.name for f in fields(StateView))
_STATE_COLUMNS: Final = tuple(getattr(CampaignStateRow, name) for name in STATE_FIELDS)


@dataclass(frozen=True)
class SegmentRef:
    """The committed restart of a segment: what the next segment or the archive reads."""

    id: int
    seq: int
    restart_path: str
    restart_sha256: str
    abs_end: int | None

    @classmethod
    def of(cls, row: CampaignSegmentRow) -> SegmentRef:
        """The reference of a segment record."""
        return cls(row.id, row.seq, row.restart_path, row.restart_sha256, row.abs_end)


_STATES = cast(Table, CampaignStateRow.__table__)
_SEGMENTS = cast(Table, CampaignSegmentRow.__table__)
_UPDATE_STATE = _STATES.update().where(
    _STATES.c.id == bindparam("b_id"), _STATES.c.status == bindparam("b_status")
)
"""Compare-and-set update of a state: only while its status is the one read."""
_UPDATE_SEGMENT = _SEGMENTS.update().where(_SEGMENTS.c.id == bindparam("b_id"))
_STATE_NAMES: Final = frozenset(STATE_FIELDS)
_SEGMENT_PATHS: Final = PATH_COLUMNS[CampaignSegmentRow]


def _view(row: Any) -> StateView:
    return StateView(**{name: row[i] for i, name in enumerate(STATE_FIELDS)})


class CampaignStore:
    """Campaign tables of a :class:`~simwright.store.Store`.

    A campaign's directory is recorded relative to the store's campaigns root, the
    paths inside it (segment folders, restarts, archives, events) relative to that
    directory; rows are returned with them absolute (:mod:`simwright.store.paths`).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)
        self.paths = CampaignPaths(store.roots.campaigns, self._sessions)
        dialect = store.engine.dialect
        self._insert_segment = RawInsert(_SEGMENTS, dialect)
        self._set_state_raw = RawCompareAndSet(_STATES, dialect, guard="status")
        self._held: RawConnection | None = None
        self._holders = 0
        self._hold_lock = threading.Lock()

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Hold one database connection for the cycles' writes while the block runs
        (a campaign's run): no connection checkout per cycle. Nests; thread-safe."""
        with self._hold_lock:
            if self._holders == 0:
                self._held = RawConnection(self.store.engine)
            self._holders += 1
        try:
            yield
        finally:
            with self._hold_lock:
                self._holders -= 1
                if self._holders == 0 and self._held is not None:
                    self._held.close()
                    self._held = None

    @contextmanager
    def _raw(self) -> Iterator[RawTransaction]:
        """One raw transaction: on the held connection, or on one checked out for it."""
        held = self._held
        if held is not None:
            with held.transaction() as tx:
                yield tx
            return
        connection = RawConnection(self.store.engine)
        try:
            with connection.transaction() as tx:
                yield tx
        finally:
            connection.close()

    def directory(self, campaign_id: str) -> Path:
        """The absolute directory of a campaign."""
        return self.paths.directory(campaign_id)

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    # -- campaigns ------------------------------------------------------------
    def create(self, campaign: CampaignRow, states: Sequence[CampaignStateRow]) -> None:
        """Insert a campaign and all its states."""
        directory = self.paths.recorded(campaign)
        with self._write() as s:
            s.add(campaign)
            s.flush()
            s.add_all(states)
        set_committed_value(campaign, "workdir", str(directory))

    def campaign(self, campaign_id: str) -> CampaignRow:
        """The campaign whose id is ``campaign_id`` or starts with it (unambiguously)."""
        with self._sessions() as s:
            exact = s.get(CampaignRow, campaign_id)
            if exact is not None:
                return self.paths.campaign(exact)
            q = select(CampaignRow).where(CampaignRow.id.startswith(campaign_id))
            rows = s.scalars(q).all()
        if not rows:
            raise CampaignError(f"no campaign with id {campaign_id!r}")
        if len(rows) > 1:
            ids = ", ".join(r.id for r in rows)
            raise CampaignError(f"campaign id {campaign_id!r} is ambiguous: {ids}")
        return self.paths.campaign(rows[0])

    def campaigns(self, limit: int = 50, offset: int = 0) -> list[CampaignRow]:
        """Campaigns, newest first, a page at a time."""
        with self._sessions() as s:
            q = (
                select(CampaignRow)
                .order_by(CampaignRow.created_at.desc(), CampaignRow.id.desc())
                .limit(limit)
                .offset(offset)
            )
            return [self.paths.campaign(r) for r in s.scalars(q).all()]

    def set_campaign_status(self, campaign_id: str, status: str) -> None:
        """Set a campaign's overall status."""
        with self._write() as s:
            row = _get(s, CampaignRow, campaign_id)
            row.status = status
            row.updated_at = utcnow()

    # -- states -----------------------------------------------------------------
    def states(self, campaign_id: str) -> list[StateView]:
        """All states of a campaign, system by system along the path."""
        with self._sessions() as s:
            q = (
                select(*_STATE_COLUMNS)
                .where(CampaignStateRow.campaign_id == campaign_id)
                .order_by(CampaignStateRow.system_index, CampaignStateRow.condition_index)
            )
            return [_view(row) for row in s.execute(q)]

    def state(self, state_id: int) -> StateView:
        """One state by id."""
        with self._sessions() as s:
            row = s.execute(select(*_STATE_COLUMNS).where(CampaignStateRow.id == state_id)).first()
        if row is None:
            raise CampaignError(f"no campaign state {state_id}")
        return _view(row)

    def update_state(self, state: StateView, **changes: Any) -> StateView:
        """Set fields of one state (a status change must be an allowed transition)."""
        with self.store.engine.begin() as conn:
            return _set_state(conn, state, changes)

    # -- segments ---------------------------------------------------------------
    def segments(
        self, state_id: int, chain_id: str, status: str | None = "completed"
    ) -> list[CampaignSegmentRow]:
        """Segment attempts of a state on one chain (completed ones by default), in order."""
        with self._sessions() as s:
            q = select(CampaignSegmentRow).where(
                CampaignSegmentRow.state_id == state_id, CampaignSegmentRow.chain_id == chain_id
            )
            if status is not None:
                q = q.where(CampaignSegmentRow.status == status)
            rows = s.scalars(q.order_by(CampaignSegmentRow.seq, CampaignSegmentRow.id)).all()
            return [self.paths.absolute(r) for r in rows]

    def last_completed(self, state_id: int, chain_id: str) -> CampaignSegmentRow | None:
        """The latest completed segment of a state on one chain (None before the first)."""
        with self._sessions() as s:
            q = (
                select(CampaignSegmentRow)
                .where(
                    CampaignSegmentRow.state_id == state_id,
                    CampaignSegmentRow.chain_id == chain_id,
                    CampaignSegmentRow.status == "completed",
                )
                .order_by(CampaignSegmentRow.seq.desc())
                .limit(1)
            )
            row = s.scalars(q).first()
            return None if row is None else self.paths.absolute(row)

    def attempts(self, state_id: int, chain_id: str, seq: int) -> list[CampaignSegmentRow]:
        """Every recorded attempt at segment ``seq`` of a state on one chain."""
        with self._sessions() as s:
            q = select(CampaignSegmentRow).where(
                CampaignSegmentRow.state_id == state_id,
                CampaignSegmentRow.chain_id == chain_id,
                CampaignSegmentRow.seq == seq,
            )
            return [
                self.paths.absolute(r) for r in s.scalars(q.order_by(CampaignSegmentRow.attempt))
            ]

    def campaign_segments(self, campaign_id: str) -> list[CampaignSegmentRow]:
        """Every segment attempt of a campaign, in the order they were recorded."""
        with self._sessions() as s:
            q = select(CampaignSegmentRow).where(CampaignSegmentRow.campaign_id == campaign_id)
            return [self.paths.absolute(r) for r in s.scalars(q.order_by(CampaignSegmentRow.id))]

    def add_segment(
        self,
        segment: SegmentFields,
        state: StateView,
        *,
        via: StateStatus | None = None,
        **changes: Any,
    ) -> tuple[int, StateView]:
        """Insert a segment attempt and update its state in one transaction: (id, state).

        ``via`` is a status the state passes through on the way (``analyzing``).
        """
        segment = dict(segment)
        self.paths.relative_fields(state.campaign_id, segment, _SEGMENT_PATHS)
        values = _checked(state, changes, via) if changes else None
        with self._raw() as tx:
            segment_id = tx.insert(self._insert_segment, segment)
            if values is None:
                return segment_id, state
            stamped = {**values, "updated_at": utcnow()}
            if not tx.compare_and_set(self._set_state_raw, stamped, state.id, state.status):
                raise _changed_by_someone_else(state)
        return segment_id, _with(state, values)

    def update_segment(
        self, segment_id: int, state: StateView, changes: StateFields, **segment: Any
    ) -> StateView:
        """Set fields of a segment (its analysis, decision) and of its state, at once."""
        with self.store.engine.begin() as conn:
            conn.execute(_UPDATE_SEGMENT, {"b_id": segment_id, **segment})
            return _set_state(conn, state, changes)

    def segments_with_restart(self, sha256: str) -> list[CampaignSegmentRow]:
        """Segments (of any campaign) whose restart file had this content hash."""
        with self._sessions() as s:
            q = select(CampaignSegmentRow).where(CampaignSegmentRow.restart_sha256 == sha256)
            return [self.paths.absolute(r) for r in s.scalars(q)]

    # -- archives ---------------------------------------------------------------
    def add_archive(
        self, archive: CampaignArchiveRow, state: StateView, **changes: Any
    ) -> StateView:
        """Insert an archive and point its state at it, in one transaction."""
        path = archive.path
        archive.path = self.paths.relative(archive.campaign_id, path)
        with self._write() as s:
            s.add(archive)
            s.flush()
            new_state = _set_state(s.connection(), state, {**changes, "archive_id": archive.id})
        set_committed_value(archive, "path", path)
        return new_state

    def archive(self, archive_id: int) -> CampaignArchiveRow | None:
        """One archive by id (None when there is none)."""
        with self._sessions() as s:
            row = s.get(CampaignArchiveRow, archive_id)
            return None if row is None else self.paths.absolute(row)

    def archives_with(self, sha256: str) -> list[CampaignArchiveRow]:
        """Archives (of any campaign) with this content hash."""
        with self._sessions() as s:
            q = select(CampaignArchiveRow).where(CampaignArchiveRow.sha256 == sha256)
            return [self.paths.absolute(r) for r in s.scalars(q)]

    # -- events and reviews -------------------------------------------------------
    def add_event(
        self, event: CampaignEventRow, state: StateView | None, changes: StateFields | None
    ) -> None:
        """Insert an event and (optionally) move its state, in one transaction."""
        directory = event.directory
        event.directory = self.paths.relative(event.campaign_id, directory)
        with self._write() as s:
            s.add(event)
            if state is not None and changes:
                _set_state(s.connection(), state, changes)
        set_committed_value(event, "directory", directory)

    def events(self, campaign_id: str, status: str | None = None) -> list[CampaignEventRow]:
        """Events of a campaign in the order they were raised."""
        with self._sessions() as s:
            q = select(CampaignEventRow).where(CampaignEventRow.campaign_id == campaign_id)
            if status is not None:
                q = q.where(CampaignEventRow.status == status)
            rows = s.scalars(q.order_by(CampaignEventRow.created_at, CampaignEventRow.id))
            return [self.paths.absolute(r) for r in rows]

    def event(self, event_id: str) -> CampaignEventRow:
        """One event by id."""
        with self._sessions() as s:
            return self.paths.absolute(_get(s, CampaignEventRow, event_id))

    def first_with_fingerprint(self, campaign_id: str, fingerprint: str) -> CampaignEventRow | None:
        """The earliest event of the campaign with this fingerprint."""
        with self._sessions() as s:
            q = (
                select(CampaignEventRow)
                .where(
                    CampaignEventRow.campaign_id == campaign_id,
                    CampaignEventRow.fingerprint == fingerprint,
                )
                .order_by(CampaignEventRow.created_at)
                .limit(1)
            )
            row = s.scalars(q).first()
            return None if row is None else self.paths.absolute(row)

    def add_review(
        self,
        review: CampaignReviewRow,
        *,
        model_call: bool,
        resolution: dict[str, Any] | None = None,
        changes: Sequence[tuple[StateView, StateFields]] = (),
        superseded: Sequence[int] = (),
    ) -> None:
        """Record a review, count a model call, resolve the event, move states: at once."""
        with self._write() as s:
            s.add(review)
            if model_call:
                _get(s, CampaignRow, review.campaign_id).model_calls += 1
            if resolution is not None:
                event = _get(s, CampaignEventRow, review.event_id)
                event.status = "resolved"
                event.resolved_at = utcnow()
                event.resolution_json = json.dumps(resolution, default=str)
            for state, fields in changes:
                _set_state(s.connection(), state, fields)
            for archive_id in superseded:
                _get(s, CampaignArchiveRow, archive_id).status = "superseded"

    def reviews(self, campaign_id: str) -> list[CampaignReviewRow]:
        """All reviews of a campaign, in order."""
        with self._sessions() as s:
            q = select(CampaignReviewRow).where(CampaignReviewRow.campaign_id == campaign_id)
            return list(s.scalars(q.order_by(CampaignReviewRow.id)).all())

    def model_calls(
        self, campaign_id: str, *, system: str | None = None, kind: str | None = None
    ) -> int:
        """Model reviews of a campaign, optionally only for one system and event kind."""
        with self._sessions() as s:
            q = (
                select(func.count(CampaignReviewRow.id))
                .join(CampaignEventRow, CampaignEventRow.id == CampaignReviewRow.event_id)
                .where(
                    CampaignReviewRow.campaign_id == campaign_id,
                    CampaignReviewRow.reviewer_kind == "model",
                )
            )
            if system is not None:
                q = q.where(CampaignEventRow.system == system)
            if kind is not None:
                q = q.where(CampaignEventRow.kind == kind)
            return int(s.scalar(q) or 0)


def _get(session: Session, model: type[Any], key: Any) -> Any:
    row = session.get(model, key)
    if row is None:
        raise CampaignError(f"no {model.__tablename__} record {key!r}")
    return row


def _checked(state: StateView, changes: StateFields, via: StateStatus | None) -> StateFields:
    """``changes`` to a state, checked: known fields, an allowed status transition."""
    values = dict(changes)
    if not _STATE_NAMES.issuperset(values):
        unknown = values.keys() - _STATE_NAMES
        raise CampaignError(f"campaign state has no field(s) {', '.join(sorted(unknown))}")
    if "status" in values:
        passed = check_transition(state.status, via) if via is not None else state.status
        values["status"] = str(check_transition(passed, values["status"]))
    return values


def _changed_by_someone_else(state: StateView) -> CampaignError:
    return CampaignError(
        f"state {state.system}/{state.condition} is no longer {state.status}: "
        "it was changed by someone else"
    )


def _with(state: StateView, values: StateFields) -> StateView:
    """``state`` with ``values`` (already checked field names): a new value."""
    fields_ = dict(state.__dict__)
    fields_.update(values)
    return StateView(**fields_)


def _set_state(
    conn: Connection, state: StateView, changes: StateFields, via: StateStatus | None = None
) -> StateView:
    """Update one state if it is still as ``state`` says (compare-and-set on its status)."""
    values = _checked(state, changes, via)
    params = {**values, "updated_at": utcnow(), "b_id": state.id, "b_status": state.status}
    result = conn.execute(_UPDATE_STATE, params)
    if result.rowcount != 1:
        raise _changed_by_someone_else(state)
    return _with(state, values)
