"""Continuing a LAMMPS segment stopped at its wall time from its last periodic restart.

A segment whose spec writes periodic restarts (``restart_every``: the
``snapshot.<step>.restart`` files of NPT equilibrations) and that was stopped at its
wall time (exit code 124: a local timeout, or a batch job the scheduler ended with
TIMEOUT) can go on from the newest snapshot it wrote, for the steps that remained, as a
new engine call. :func:`plan_continuation` decides whether that is possible (and says
why not, naming the wall time); :func:`join_thermo` joins the thermo tables of the
stopped parts and the final one into the table of one uninterrupted segment.

Segments that write other time series (trajectory, heat current, pressure tensor) are
not continued: those files would need splicing at the restart's step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from simwright.contract import Column, Table, write_table
from simwright.engines.lammps.launcher import LammpsError, LammpsLauncher, LammpsResult
from simwright.engines.lammps.log import RUN_COLUMN, parse_log
from simwright.engines.lammps.segment import run_segment
from simwright.engines.lammps.templates import LOG_NAME, SNAPSHOT_PATTERN, MDSpec
from simwright.errors import ParseError
from simwright.forcefields.base import ForceField
from simwright.jobs import STOPPED_EXIT
from simwright.store.records import EngineCall
from simwright.structure import Structure

WALLTIME_EXIT: Final = STOPPED_EXIT
"""The exit code of an engine call stopped at its wall time (local or batch) or requeued."""


@dataclass(frozen=True)
class StoppedPart:
    """One part of a segment stopped at its wall time: its thermo (log kept as
    ``log_path``), the snapshot the next part starts from and the steps that remained."""

    log_path: Path
    thermo: Table
    restart: Path
    restart_step: int
    end_step: int
    call: EngineCall

    @property
    def stopped_by(self) -> str:
        """``wall time`` or ``requeue``."""
        return self.call.extra.get("stopped_by", "wall time")

    @property
    def job_id(self) -> str:
        """The stopped job's id (empty for a local call)."""
        return self.call.extra.get("job_id", "")

    @property
    def steps_remaining(self) -> int:
        """Steps from the snapshot to the segment's end."""
        return self.end_step - self.restart_step


def walltime_exceeded(exc: LammpsError) -> bool:
    """True when the failed call was stopped before its end: at its wall time, or
    requeued by the scheduler (``extra['stopped_by']``)."""
    return exc.call.exit_code == WALLTIME_EXIT


def stop_reason(call: EngineCall) -> str:
    """``hit its wall time`` or ``was requeued by the scheduler``."""
    if call.extra.get("stopped_by") == "requeue":
        return "was requeued by the scheduler"
    return "hit its wall time"


def run_continuing(
    launcher: LammpsLauncher,
    spec: MDSpec,
    forcefield: ForceField,
    workdir: Path,
    *,
    structure: Structure | None = None,
    restart: Path | None = None,
    timeout_s: float | None = None,
    budget: int = 2,
    progress: Callable[[float | None, str], None] | None = None,
) -> tuple[LammpsResult, list[StoppedPart]]:
    """Run a segment; each time it is stopped at its wall time, continue it from its newest
    snapshot for the remaining steps (at most ``budget`` times). The result's thermo is
    the whole segment's; the stopped parts are returned for the record."""
    parts: list[StoppedPart] = []
    current, start_structure, start_restart = spec, structure, restart
    while True:
        try:
            result = run_segment(launcher, current, forcefield, workdir,
                                 structure=start_structure, restart=start_restart,
                                 timeout_s=timeout_s, progress=progress)  # fmt: skip
        except LammpsError as exc:
            if not walltime_exceeded(exc):
                raise
            part = plan_continuation(exc, spec, workdir, parts, budget)
            parts.append(part)
            current = dataclasses.replace(spec, steps=part.steps_remaining, create_velocities=False)
            start_structure, start_restart = None, part.restart
            continue
        break
    if not parts:
        return result, parts
    thermo = join_thermo(parts, result.thermo)
    last = parts[-1]
    extra = {
        **result.call.extra,
        "continuation": str(len(parts)),
        "continued_from": last.restart.name,
        "steps_remaining": str(last.steps_remaining),
        "stopped_job_ids": " ".join(p.job_id for p in parts if p.job_id),
        "stopped_by": " ".join(p.stopped_by.replace(" ", "-") for p in parts),
    }
    return dataclasses.replace(
        result,
        thermo=thermo,
        thermo_path=write_table(result.thermo_path, thermo),
        call=dataclasses.replace(result.call, extra=extra),
    ), parts


def plan_continuation(
    exc: LammpsError, spec: MDSpec, workdir: Path, earlier: list[StoppedPart], budget: int
) -> StoppedPart:
    """The part ``exc`` stopped, with the snapshot to continue from; raises a
    :class:`LammpsError` naming the wall time when the segment cannot continue."""
    where = f"LAMMPS {spec.ensemble} segment of {spec.steps} steps {stop_reason(exc.call)}"
    if spec.restart_every == 0:
        raise _refused(exc, f"{where} and writes no periodic restarts: it cannot continue")
    if not spec.continuable:
        raise _refused(exc, f"{where}; it writes time series that cannot be continued")
    if len(earlier) >= budget:
        raise _refused(
            exc, f"{where} {len(earlier) + 1} times; the retry budget ({budget}) is spent"
        )
    n = len(earlier) + 1
    kept = workdir / f"log.walltime{n}.lammps"
    (workdir / LOG_NAME).replace(kept)
    try:
        thermo = parse_log(kept)
    except ParseError:
        raise _refused(
            exc, f"{where} before its first thermo output: nothing to continue"
        ) from None
    first = int(thermo["step"][0])
    end = earlier[0].end_step if earlier else first + spec.steps
    # LAMMPS writes a step's restart before its thermo line: a snapshot at or before the
    # last logged step is complete, a newer one may have been cut while being written
    logged = int(thermo["step"][-1])
    found = [(s, p) for s, p in snapshots_in(workdir) if first < s < end and s <= logged]
    if not found:
        raise _refused(exc, f"{where} before writing a restart after step {first}")
    step, path = found[-1]
    return StoppedPart(kept, thermo, path, step, end, exc.call)


def snapshots_in(workdir: Path) -> list[tuple[int, Path]]:
    """Periodic restart files in ``workdir`` as (absolute step, path), in step order."""
    head, tail = SNAPSHOT_PATTERN.split("*")
    found = []
    for path in workdir.glob(SNAPSHOT_PATTERN):
        middle = path.name[len(head) : len(path.name) - len(tail)]
        if middle.isdigit():
            found.append((int(middle), path))
    return sorted(found)


def join_thermo(parts: list[StoppedPart], last: Table) -> Table:
    """The thermo of the whole segment: each stopped part up to (not including) the step
    the next part restarted from, then ``last``; run blocks numbered on."""
    pieces = []
    for index, part in enumerate(parts):
        keep = np.asarray(part.thermo["step"]) < part.restart_step
        pieces.append((part.thermo, keep, index))
    pieces.append((last, np.ones(last.n_rows, dtype=bool), len(parts)))
    columns = []
    for column in last.columns:
        chunks = []
        for table, keep, offset in pieces:
            values = _values(table, column.name, table.n_rows)[keep]
            chunks.append(values + offset if column.name == RUN_COLUMN else values)
        columns.append(Column(column.name, np.concatenate(chunks), column.unit, column.description))
    links = tuple(p.log_path.name for p in parts) + last.links
    return Table(
        name=last.name,
        columns=tuple(columns),
        description=f"{last.description}, continued after {len(parts)} wall-time stop(s)",
        producer=last.producer,
        links=links,
    )


def _values(table: Table, name: str, n_rows: int) -> np.ndarray:
    if name in table.names:
        return np.asarray(table[name])
    return np.full(n_rows, np.nan)


def _refused(exc: LammpsError, message: str) -> LammpsError:
    return LammpsError(f"{message} ({exc})", tail=exc.tail, call=exc.call)
