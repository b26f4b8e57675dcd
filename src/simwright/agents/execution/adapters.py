"""One adapter per engine behind the executors' shared tools: check a script, run it.

``check`` is deterministic: the safety policy and the dry run for LAMMPS
(:func:`~simwright.engines.lammps.safety.check.check_lammps_script`), a keyword and path
allowlist for PACKMOL, the pw.x parameter knowledge graph
(:func:`~simwright.dft.validation.validate_input`) plus path confinement for pw.x,
schema validation for the YAML specs of ASE and analysis
(:mod:`simwright.agents.execution.adapters_specs`). ``security`` names the findings that are
safety violations (they convene the critic committee). ``run`` runs a checked
script in the executor's working directory (``cwd=workdir``), with a timeout.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from simwright.dft.file_checks import validate_pw_file
from simwright.dft.validation import errors
from simwright.engines.base import run_subprocess
from simwright.engines.confine import Confinement, plain_name, shell_safe
from simwright.engines.espresso.parse import parse_output
from simwright.engines.espresso.reader import parse_pw_file
from simwright.engines.lammps.launcher import LammpsError, LammpsLauncher
from simwright.engines.lammps.safety.check import check_lammps_script, wheel_potentials_dir
from simwright.errors import EngineError, ParseError
from simwright.store.records import EngineCall

SAFETY_RULES = frozenset(
    {
        "forbidden-command",
        "forbidden-style",
        "forbidden-variable",
        "variable-command",
        "compressed-file",
        "source-written",
        "run-every",
        "jump-file",
    }
)
"""LAMMPS findings that are safety violations, not mistakes (also every ``path-*`` rule)."""


@dataclass(frozen=True)
class Check:
    """The verdict on a script: ok, the findings as text, safety rules hit, engine calls."""

    ok: bool
    text: str
    security: tuple[str, ...] = ()
    engine_calls: tuple[EngineCall, ...] = ()


@dataclass(frozen=True)
class JobResult:
    """How a job ended: ok, a short account for the executor, engine calls."""

    ok: bool
    text: str
    engine_calls: tuple[EngineCall, ...] = ()


class EngineAdapter(Protocol):
    """What an executor needs from its engine."""

    @property
    def name(self) -> str:
        """The executor's name (``lammps``, ``ase``...)."""
        ...

    @property
    def docs(self) -> str | None:
        """The engine's name in the documentation library (None: no docs)."""
        ...

    @property
    def suffixes(self) -> tuple[str, ...]:
        """The file name endings of its scripts."""
        ...

    @property
    def gated(self) -> bool:
        """Whether the critic committee reviews a script before its job runs."""
        ...

    def check(self, script: Path, workdir: Path) -> Check:
        """Check ``script`` for a run in ``workdir``."""
        ...

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Run a checked ``script`` in ``workdir``."""
        ...


def _is_safety(rule: str) -> bool:
    return rule in SAFETY_RULES or rule.startswith("path-")


# -- LAMMPS ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LammpsAdapter:
    """LAMMPS: safety policy + dry run; runs through :class:`LammpsLauncher`."""

    lmp: Path | None
    max_steps: int | None = None
    timeout_s: float = 1800.0
    threads: int = 1
    name: str = "lammps"
    docs: str | None = "lammps"
    suffixes: tuple[str, ...] = (".lammps", ".in")
    gated: bool = True

    def check(self, script: Path, workdir: Path) -> Check:
        """Static policy, then (with ``lmp``) the dry run."""
        report = check_lammps_script(
            script,
            workdir,
            lmp=self.lmp,
            dry_run=self.lmp is not None,
            max_steps=self.max_steps,
            potentials_dir=wheel_potentials_dir(),
        )
        security = tuple(sorted({f.rule for f in report.findings if _is_safety(f.rule)}))
        calls = (report.dry_run,) if report.dry_run is not None else ()
        if report.ok:
            how = "dry run passed" if self.lmp is not None else "static checks passed"
            warn = f"\n{report.format()}" if report.warnings else ""
            return Check(True, f"ok: {how} ({report.total_steps} MD steps){warn}", (), calls)
        return Check(False, report.format(), security, calls)

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Run the script; the thermo table goes to ``thermo.h5``."""
        if self.lmp is None:
            return JobResult(False, "LAMMPS (lmp) is not installed")
        launcher = LammpsLauncher(self.lmp, mpi_ranks=1, omp_threads=self.threads)
        try:
            result = launcher.run(script.read_text(), workdir, timeout_s=self.timeout_s)
        except LammpsError as exc:
            return JobResult(False, f"LAMMPS failed: {exc}\n{exc.tail[-1500:]}", (exc.call,))
        except EngineError as exc:
            return JobResult(False, f"LAMMPS failed: {exc}")
        thermo = result.thermo
        last = {name: float(thermo[name][-1]) for name in thermo.names if thermo.n_rows}
        text = (
            f"LAMMPS finished in {result.call.wall_s:.1f} s; thermo.h5 holds "
            f"{thermo.n_rows} rows of {', '.join(thermo.names)}; last row: {json.dumps(last)}"
        )
        return JobResult(True, text, (result.call,))


# -- PACKMOL ----------------------------------------------------------------------------
PACKMOL_KEYWORDS = frozenset(
    "tolerance seed randominitialpoint filetype output structure end number inside outside "
    "over below above fixed center centerofmass constrain_rotation atoms radius fscale "
    "short_radius short_radius_scale resnumbers changechains chain segid discale maxit nloop "
    "nloop0 movefrac movebadrandom add_amber_ter add_box_sides writeout writebad check "
    "sidemax precision avoid_overlap connect pbc restart_from restart_to use_short_tol".split()
)
_FILE_KEYWORDS = frozenset({"output", "structure", "restart_from", "restart_to"})


def confined(name: str, workdir: Path) -> str | None:
    """Why the file name ``name`` may not be used in ``workdir`` (None when it may).

    The one confinement rule (:mod:`simwright.engines.confine`) plus
    shell-safe characters: a model-written name is relative, has no ``..``,
    no link out of ``workdir``, no blank, quote or control character.
    """
    why = Confinement(workdir).why(name)
    if why:
        return f"file name {name!r} leaves the working directory: {why}"
    return shell_safe(name)


@dataclass(frozen=True)
class PackmolAdapter:
    """PACKMOL: a keyword allowlist and confined file names; runs ``packmol < input``."""

    executable: Path | None
    timeout_s: float = 600.0
    name: str = "packmol"
    docs: str | None = None
    suffixes: tuple[str, ...] = (".inp",)
    gated: bool = False

    def check(self, script: Path, workdir: Path) -> Check:
        """Keywords from the allowlist, file names inside ``workdir``, inputs present."""
        problems: list[str] = []
        security: set[str] = set()
        outputs = 0
        for number, line in enumerate(script.read_text().splitlines(), start=1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            key = words[0].lower()
            if key not in PACKMOL_KEYWORDS:
                problems.append(f"line {number}: unknown PACKMOL keyword {words[0]!r}")
                continue
            if key in _FILE_KEYWORDS and len(words) > 1:
                why = confined(words[1], workdir)
                if why:
                    problems.append(f"line {number}: {why}")
                    security.add("path")
                elif key == "structure" and not (workdir / words[1]).is_file():
                    problems.append(f"line {number}: structure file {words[1]!r} does not exist")
                outputs += key == "output"
        if outputs != 1:
            problems.append("the input needs exactly one 'output' line")
        if problems:
            return Check(False, "\n".join(problems), tuple(sorted(security)))
        return Check(True, "ok: keywords and file names checked (PACKMOL has no dry run)")

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Run PACKMOL with the script on standard input."""
        if self.executable is None:
            return JobResult(False, "PACKMOL is not installed")
        call = run_subprocess(
            "packmol", [str(self.executable)], workdir, stdin_path=script, timeout_s=self.timeout_s
        )
        ok = call.exit_code == 0 and "Success!" in call.stdout_tail
        tail = call.stdout_tail[-1200:] if ok else (call.stdout_tail + call.stderr_tail)[-2000:]
        return JobResult(ok, f"PACKMOL exit code {call.exit_code}\n{tail}", (call,))


# -- pw.x -----------------------------------------------------------------------------
_PW_FOLDERS = ("outdir", "pseudo_dir", "wfcdir", "input_xml_schema_file")
_PW_PLAIN = ("prefix", "dmft_prefix")
_CARDS = re.compile(
    r"^\s*(ATOMIC_SPECIES|ATOMIC_POSITIONS|K_POINTS|CELL_PARAMETERS|OCCUPATIONS|"
    r"CONSTRAINTS|ATOMIC_VELOCITIES|ATOMIC_FORCES|ADDITIONAL_K_POINTS|SOLVENTS|HUBBARD)\b",
    re.IGNORECASE,
)


def pw_path_problems(
    namelists: dict[str, dict[str, object]], text: str, workdir: Path
) -> list[str]:
    """Why the paths of a model-written pw.x input leave ``workdir`` (empty when none do).

    Folders (``outdir``, ``pseudo_dir``, ``wfcdir``) and ``input_xml_schema_file``
    must be confined names, ``prefix`` and each ATOMIC_SPECIES file a plain name.
    """
    problems: list[str] = []
    for values in namelists.values():
        for key, value in values.items():
            base = key.split("(")[0].lower()
            if base in _PW_FOLDERS:
                why = confined(str(value).rstrip("/") or ".", workdir)
            elif base in _PW_PLAIN:
                why = plain_name(str(value))
            else:
                continue
            if why:
                problems.append(f"{key}: {why}")
    for name in _species_files(text):
        why = plain_name(name)
        if why:
            problems.append(f"ATOMIC_SPECIES: pseudopotential {why}")
    return problems


def _species_files(text: str) -> list[str]:
    """The pseudopotential file of each line of the ATOMIC_SPECIES card."""
    files: list[str] = []
    inside = False
    for line in text.splitlines():
        card = _CARDS.match(line)
        if card:
            inside = card.group(1).upper() == "ATOMIC_SPECIES"
            continue
        words = line.split("!", 1)[0].split("#", 1)[0].split()
        if inside and len(words) >= 3:
            files.append(words[2])
    return files


@dataclass(frozen=True)
class PwAdapter:
    """pw.x: the parameter knowledge graph and confined paths; runs ``pw.x -in``."""

    executable: str | None
    timeout_s: float = 3600.0
    name: str = "pwx"
    docs: str | None = "pwx"
    suffixes: tuple[str, ...] = (".in", ".pwi")
    gated: bool = False

    def check(self, script: Path, workdir: Path) -> Check:
        """Namelists against the knowledge graph; path variables inside ``workdir``."""
        try:
            text = script.read_text()
            parsed = parse_pw_file(text)
        except (ParseError, OSError, UnicodeDecodeError) as exc:
            return Check(False, f"not a readable pw.x input: {exc}")
        namelists: dict[str, dict[str, object]] = {
            nl: dict(values) for nl, values in parsed.namelists.items()
        }
        problems = [p.message for p in errors(validate_pw_file(parsed))]
        paths = pw_path_problems(namelists, text, workdir)
        if problems or paths:
            return Check(False, "\n".join(problems + paths), ("path",) if paths else ())
        return Check(True, "ok: the namelists agree with the pw.x parameter graph")

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Run pw.x; its facts go to ``pw_result.json``."""
        if self.executable is None or shutil.which(self.executable) is None:
            return JobResult(False, "pw.x is not installed")
        call = run_subprocess(
            "pw",
            [self.executable, "-in", script.name],
            workdir,
            env={"OMP_NUM_THREADS": "1", "ESPRESSO_TMPDIR": "./"},  # outdir unset: cwd
            timeout_s=self.timeout_s,
        )
        out = parse_output((workdir / "pw.stdout").read_text(errors="replace"))
        facts = {
            "job_done": out.job_done,
            "scf_converged": out.scf_converged,
            "energy_ev": out.energy_ev,
            "pressure_bar": out.pressure_bar,
            "fermi_energy_ev": out.fermi_energy_ev,
        }
        (workdir / "pw_result.json").write_text(json.dumps(facts, indent=1))
        ok = call.exit_code == 0 and out.job_done
        return JobResult(
            ok, f"pw.x exit code {call.exit_code}; pw_result.json: {json.dumps(facts)}", (call,)
        )
