"""Quantum ESPRESSO post-processing tools shipped beside pw.x: ``bands.x``, ``dos.x``,
``projwfc.x``, ``pp.x``.

Each tool reads the data pw.x saved in ``./tmp`` under the prefix ``pwscf`` (the
template's fixed places). :func:`tool_input` writes the one namelist a tool reads
(the paths are set here and refused in ``values``); :func:`run_tool` runs it in a
working directory that holds pw.x's scratch (:func:`seed_scratch` copies it from
the run that wrote it), and :class:`ToolRun` says whether it can be trusted.
The readers of their output files live in :mod:`.postproc_files`.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from simwright.engines.base import EngineCall, run_subprocess
from simwright.engines.espresso.launcher import pw_version
from simwright.engines.espresso.template import OUTDIR, PREFIX, Value, format_value
from simwright.errors import ValidationError

Tool = Literal["bands", "dos", "projwfc", "pp"]
"""A post-processing tool: ``bands.x``, ``dos.x``, ``projwfc.x``, ``pp.x``."""

NAMELIST: dict[Tool, str] = {
    "bands": "BANDS",
    "dos": "DOS",
    "projwfc": "PROJWFC",
    "pp": "INPUTPP",
}
"""The namelist each tool reads (pp.x reads a second one, ``&PLOT``)."""

TOOL_PATHS: dict[Tool, frozenset[str]] = {
    "bands": frozenset({"filband", "filp"}),
    "dos": frozenset({"fildos"}),
    "projwfc": frozenset({"filpdos", "filproj"}),
    "pp": frozenset({"filplot", "fileout"}),
}
"""Output-file variables of each tool; :func:`tool_input` accepts only plain names."""

SCRATCH = OUTDIR.removeprefix("./")


@dataclass(frozen=True)
class ToolRun:
    """One run of a post-processing tool: its record and why it failed (empty if it did not)."""

    tool: Tool
    workdir: Path
    call: EngineCall
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        """True when the tool exited 0 and printed ``JOB DONE``."""
        return not self.problems


def _check_paths(tool: Tool, values: Mapping[str, Value]) -> None:
    for name, value in values.items():
        key = name.lower()
        if key in ("outdir", "prefix"):
            raise ValidationError(f"{tool}.x: {name} is set by simwright")
        if key in TOOL_PATHS[tool] and (
            not isinstance(value, str) or "/" in value or value.startswith(".")
        ):
            raise ValidationError(f"{tool}.x: {name} must be a plain file name, got {value!r}")


def _namelist(name: str, values: Mapping[str, Value]) -> str:
    lines = "".join(f"  {k} = {format_value(v)}\n" for k, v in values.items())
    return f"&{name}\n{lines}/\n"


def tool_input(
    tool: Tool, values: Mapping[str, Value], plot: Mapping[str, Value] | None = None
) -> str:
    """The namelist text of ``tool`` with ``outdir`` and ``prefix`` set to pw.x's places
    (``plot``: pp.x's ``&PLOT`` namelist)."""
    _check_paths(tool, values)
    text = _namelist(NAMELIST[tool], {"outdir": OUTDIR, "prefix": PREFIX, **values})
    if plot is not None:
        _check_paths(tool, plot)
        text += _namelist("PLOT", plot)
    return text


def seed_scratch(source: Path, target: Path) -> None:
    """Copy pw.x's scratch folder of the run in ``source`` into ``target`` (created)."""
    origin = source / SCRATCH
    if not origin.is_dir():
        raise ValidationError(f"no pw.x scratch data in {source}; run pw.x with keep_scratch")
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(origin, target / SCRATCH, dirs_exist_ok=True)


def run_tool(
    tool: Tool,
    values: Mapping[str, Value],
    workdir: Path,
    *,
    plot: Mapping[str, Value] | None = None,
    executable: str | None = None,
    timeout_s: float | None = None,
) -> ToolRun:
    """Write ``<tool>.in`` and run ``<tool>.x -in <tool>.in`` in ``workdir``."""
    exe = executable or f"{tool}.x"
    if shutil.which(exe) is None:
        raise ValidationError(
            f"{exe} is not installed; it comes with pw.x in Debian's quantum-espresso package"
        )
    name = f"{tool}.in"
    (workdir / name).write_text(tool_input(tool, values, plot))
    call = run_subprocess(
        tool,
        [exe, "-in", name],
        workdir,
        version=pw_version(),
        env={"OMP_NUM_THREADS": "1"},
        timeout_s=timeout_s,
    )
    text = (workdir / f"{tool}.stdout").read_text(errors="replace")
    problems: list[str] = []
    if call.exit_code != 0:
        problems.append(f"{tool}.x exited with code {call.exit_code}")
    if "JOB DONE" not in text:
        problems.append(f"{tool}.x did not print JOB DONE")
    crash = workdir / "CRASH"
    if crash.is_file():
        lines = [ln.strip() for ln in crash.read_text(errors="replace").splitlines()]
        problems.append(
            f"{tool}.x wrote a CRASH file: "
            + " | ".join(ln for ln in lines if ln and not ln.startswith("%"))
        )
    return ToolRun(tool, workdir, call, tuple(problems))
