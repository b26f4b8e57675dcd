"""What a subtask reports to the orchestrator: requested values and framework facts.

The values come from the executor (each traced to its file before it is
accepted) or from a protocol's result; the structure summaries (composition,
volume, density, atom pairs closer than 0.55 Å) are computed here by the framework
from the structure files the subtask produced, never by a model. Paths are
relative to the runs folder, so reports of executors and of protocol runs read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from simwright.agents.replies import OutputValue
from simwright.contract import read_structure
from simwright.structure import Structure

STRUCTURE_SUFFIXES = (".extxyz", ".xyz", ".pdb")
MAX_SANITY_ATOMS = 20_000
MAX_LISTED = 30


def single_atoms(value: Any) -> Any:
    """The ``Atoms`` of ``ase.io.read(..., index=-1)`` (typed as possibly a list)."""
    return value[-1] if isinstance(value, list) else value


def relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (as a string)."""
    return str(path.resolve().relative_to(root.resolve()))


def structure_summary(path: Path) -> dict[str, Any]:
    """The sanity summary of the last structure in ``path`` (or why there is none)."""
    try:
        if path.suffix.lower() == ".extxyz":
            structure = read_structure(path)
        else:
            # lazy: ase.io takes ~1 s to import
            from ase.io import read

            structure = Structure.from_ase(single_atoms(read(str(path), index=-1)))
    except Exception as exc:  # a file that is not a structure is reported, not raised
        return {"problem": f"not readable as a structure: {type(exc).__name__}: {exc}"}
    if len(structure) > MAX_SANITY_ATOMS:
        return {"n_atoms": len(structure), "problem": "too large for the sanity summary"}
    return structure.sanity().as_dict()


def structure_summaries(files: Sequence[Path], root: Path) -> tuple[dict[str, Any], ...]:
    """Summaries of the structure files among ``files`` (paths relative to ``root``)."""
    return tuple(
        {"file": relative(p, root), **structure_summary(p)}
        for p in files
        if p.suffix.lower() in STRUCTURE_SUFFIXES
    )


@dataclass(frozen=True)
class SubtaskReport:
    """A subtask's report: status, outputs (sources relative to the runs folder), facts."""

    subtask_id: str
    executor: str
    status: Literal["completed", "failed"]
    outputs: Mapping[str, OutputValue] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    structures: tuple[dict[str, Any], ...] = ()
    artifacts: tuple[str, ...] = ()
    summary: str = ""
    error: str = ""
    attempts: int = 1
    child_run_id: str | None = None
    folders: tuple[str, ...] = ()
    """Folders (relative to the runs folder) holding this subtask's files."""
    review_failed: bool = False
    """The review committee failed the subtask (a Malicious vote)."""

    @property
    def ok(self) -> bool:
        """Completed with every required output."""
        return self.status == "completed" and not self.missing

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "subtask_id": self.subtask_id,
            "executor": self.executor,
            "status": self.status,
            "outputs": {k: v.model_dump() for k, v in self.outputs.items()},
            "missing": list(self.missing),
            "structures": list(self.structures),
            "artifacts": list(self.artifacts),
            "summary": self.summary,
            "error": self.error,
            "attempts": self.attempts,
            "child_run_id": self.child_run_id,
            "folders": list(self.folders),
            "review_failed": self.review_failed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SubtaskReport:
        """The report recorded by :meth:`as_dict` (a resumed run reads its reports back)."""
        return cls(
            subtask_id=str(data["subtask_id"]),
            executor=str(data["executor"]),
            status="completed" if data.get("status") == "completed" else "failed",
            outputs={
                k: OutputValue.model_validate(v) for k, v in dict(data.get("outputs", {})).items()
            },
            missing=tuple(data.get("missing", ())),
            structures=tuple(data.get("structures", ())),
            artifacts=tuple(data.get("artifacts", ())),
            summary=str(data.get("summary", "")),
            error=str(data.get("error", "")),
            attempts=int(data.get("attempts", 1)),
            child_run_id=data.get("child_run_id"),
            folders=tuple(data.get("folders", ())),
            review_failed=bool(data.get("review_failed", False)),
        )

    def text(self) -> str:
        """The report as the orchestrator reads it."""
        lines = [f"subtask {self.subtask_id} ({self.executor}): {self.status}"]
        if self.error:
            lines.append(f"error: {self.error}")
        if self.summary:
            lines.append(f"summary: {self.summary}")
        for name, out in self.outputs.items():
            unit = f" {out.unit}" if out.unit else ""
            lines.append(
                f"output {name} = {out.value!r}{unit} (source {out.source}; "
                f"quantity {out.quantity or '?'})"
            )
        if self.missing:
            lines.append(f"missing outputs: {', '.join(self.missing)}")
        for s in self.structures:
            lines.append(f"structure {s.get('file')}: {_structure_text(s)}")
        shown = self.artifacts[:MAX_LISTED]
        if shown:
            more = (
                f" (+{len(self.artifacts) - len(shown)} more)"
                if len(self.artifacts) > len(shown)
                else ""
            )
            lines.append(f"files: {', '.join(shown)}{more}")
        return "\n".join(lines)


def _structure_text(s: Mapping[str, Any]) -> str:
    if "problem" in s:
        return str(s["problem"])
    volume = s.get("volume_A3")
    vol = f", volume {volume:.3f} Å³" if volume else ""
    return (
        f"{s.get('formula')} ({s.get('n_atoms')} atoms){vol}, "
        f"{s.get('n_close_pairs', 0)} pairs closer than 0.55 Å"
    )
