"""Export one run's provenance: the entry point of the command line and the service.

:func:`export_run` reads the run through a :class:`~simwright.store.reading.RunReader`,
re-hashes its files, and writes W3C PROV-JSON or an RO-Crate. It refuses
(:class:`~simwright.errors.SimwrightError`, exit code 2 in the CLI) an unknown run, an
output that already exists, and an output inside the run's own directory (the export
must not change the run it describes). Missing or changed files do not stop the
export: they are marked in it and listed in the returned :class:`ExportSummary`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simwright.errors import SimwrightError
from simwright.provenance.formats import ExportFormat
from simwright.provenance.record import RunRecord, read_record
from simwright.store.reading import RunReader


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote, and what it found wrong."""

    run_id: str
    format: ExportFormat
    output: Path
    activities: int
    """Step attempts, engine calls and decisions, plus the run itself."""
    files: int
    """Recorded files (intact ones copied into a crate)."""
    problems: tuple[tuple[str, str], ...]
    """``(path, state)`` of each recorded file that is missing or changed."""

    @property
    def ok(self) -> bool:
        """True when every recorded file was present and unchanged."""
        return not self.problems


def default_output(run_id: str, fmt: ExportFormat) -> Path:
    """The output name used when none is given (in the current directory)."""
    return Path(f"{run_id}.prov.json" if fmt is ExportFormat.PROV_JSON else f"{run_id}-ro-crate")


def check_output(output: Path, run_dir: Path) -> Path:
    """``output`` made absolute; refused when it exists or lies inside ``run_dir``."""
    target = output.expanduser().resolve()
    if target.exists():
        raise SimwrightError(f"{output} already exists: choose another --output")
    if target.is_relative_to(run_dir.resolve()):
        raise SimwrightError(f"{output} is inside the run directory {run_dir}: export elsewhere")
    if not target.parent.is_dir():
        raise SimwrightError(f"the folder of {output} does not exist")
    return target


def export_run(
    reader: RunReader,
    run_id: str,
    fmt: ExportFormat,
    output: Path | None = None,
    copy_files: bool = True,
) -> ExportSummary:
    """Write the provenance of run ``run_id`` (or a unique prefix) in format ``fmt``.

    ``copy_files=False`` makes a crate that references the run's files by their
    ``file://`` address instead of copying them (PROV-JSON never copies files).
    """
    record = read_record(reader, run_id)
    target = check_output(output or default_output(record.run.id, fmt), record.run_dir)
    if fmt is ExportFormat.PROV_JSON:
        _write_prov(record, target)
    else:
        _write_crate(record, target, copy_files)
    return ExportSummary(
        run_id=record.run.id,
        format=fmt,
        output=target,
        activities=1 + len(record.steps) + len(record.engine_calls) + len(record.decisions),
        files=len(record.artifacts),
        problems=tuple((a.row.path, a.state) for a in record.problems),
    )


def _write_prov(record: RunRecord, target: Path) -> None:
    try:
        # lazy: optional extra simwright[export] (prov)
        from simwright.provenance.prov_document import prov_json
    except ImportError as exc:
        raise SimwrightError(_MISSING.format(exc.name)) from exc
    target.write_text(prov_json(record), encoding="utf-8")


def _write_crate(record: RunRecord, target: Path, copy_files: bool) -> None:
    try:
        # lazy: optional extra simwright[export] (rocrate)
        from simwright.provenance.crate import write_crate
    except ImportError as exc:
        raise SimwrightError(_MISSING.format(exc.name)) from exc
    write_crate(record, target, copy_files)


_MISSING = "exporting needs the package {} (pip install 'simwright[export]')"
