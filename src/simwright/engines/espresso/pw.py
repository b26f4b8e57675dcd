"""Quantum ESPRESSO pw.x adapter: typed input in, typed and validated result out.

:func:`run_pw` writes ``pw.in`` from a :class:`~simwright.engines.espresso.template.PwInput`
into the working directory, copies the pseudopotential files it names (found in
an ordered list of directories) into ``pseudo/``, runs pw.x there through
:func:`~simwright.engines.base.run_subprocess` and parses the output. A run is
valid when pw.x exited 0, printed ``JOB DONE``, left no ``CRASH`` file and its SCF
(and, for a relaxation, the geometry optimisation) converged.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from simwright.engines.base import run_subprocess, write_inputs
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.live import PwFollower
from simwright.engines.espresso.parse import (
    PwOutput,
    crash_message,
    last_structure,
    read_crash,
)
from simwright.engines.espresso.template import (
    INPUT_NAME,
    OUTDIR,
    OUTPUT_NAME,
    PSEUDO_SUBDIR,
    PwInput,
    PwTemplate,
)
from simwright.engines.registry import EngineInfo
from simwright.store.records import EngineCall, tail
from simwright.structure import Structure

ENGINE_NAME = "espresso"
RELAXATIONS = frozenset({"relax", "vc-relax"})
NON_SCF = frozenset({"nscf", "bands"})
"""Calculations on a converged density: no SCF cycle, they end with the band energies."""


@dataclass(frozen=True)
class PwRun:
    """One pw.x run: its input, record, parsed output, CRASH text and final structure."""

    input: PwInput
    workdir: Path
    call: EngineCall
    output: PwOutput
    crash: str
    structure: Structure
    """The final geometry (the input geometry for a fixed-cell SCF)."""

    @property
    def problems(self) -> tuple[str, ...]:
        """Why the run is not valid (empty when it is)."""
        out: list[str] = []
        if self.call.exit_code != 0:
            out.append(f"pw.x exited with code {self.call.exit_code}")
        if self.crash:
            out.append("pw.x wrote a CRASH file: " + crash_message(self.crash).replace("\n", " | "))
        if not self.output.job_done:
            out.append("pw.x did not print JOB DONE")
        if self.input.calculation in NON_SCF:
            if self.output.job_done and not self.output.bands_done:
                out.append("pw.x did not finish the band-structure calculation")
        elif self.output.job_done and not self.output.scf_converged:
            out.append("the SCF did not converge")
        if self.input.calculation in RELAXATIONS and self.output.relax_converged is False:
            out.append("the geometry optimisation did not converge")
        return tuple(out)

    @property
    def valid(self) -> bool:
        """True when the run can be trusted (see :attr:`problems`)."""
        return not self.problems

    @property
    def output_text(self) -> str:
        """The full standard output of pw.x."""
        path = self.workdir / OUTPUT_NAME
        return path.read_text(errors="replace") if path.is_file() else ""


def locate_pseudo(name: str, dirs: Sequence[Path]) -> Path | None:
    """The first ``dirs/name`` that exists."""
    for d in dirs:
        candidate = Path(d) / name
        if candidate.is_file():
            return candidate
    return None


def stage_pseudos(inp: PwInput, workdir: Path, dirs: Sequence[Path]) -> dict[str, str]:
    """Copy the input's pseudopotential files into ``workdir/pseudo``.

    Returns file name -> source path; a file found nowhere is left out, so that
    pw.x itself reports it missing (the recovery machine then names it and the
    directories searched).
    """
    target = workdir / PSEUDO_SUBDIR
    target.mkdir(parents=True, exist_ok=True)
    staged: dict[str, str] = {}
    for sp in inp.species:
        source = locate_pseudo(sp.pseudo_file, dirs)
        if source is None:
            continue
        dest = target / sp.pseudo_file
        if not dest.exists():
            shutil.copyfile(source, dest)
        staged[sp.pseudo_file] = str(source)
    return staged


def run_pw(
    inp: PwInput,
    workdir: Path,
    *,
    launcher: PwLauncher,
    pseudo_dirs: Sequence[Path],
    keep_scratch: bool = False,
    progress: Callable[[float | None, str], None] | None = None,
) -> PwRun:
    """Write the input, stage pseudopotentials, run pw.x in ``workdir`` and parse it.

    pw.x's scratch folder (wave functions, charge density) is removed afterwards
    unless ``keep_scratch``. ``progress`` receives the SCF iteration, energy change
    and accuracy read from pw.x's output every few seconds.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "CRASH").unlink(missing_ok=True)
    template = PwTemplate()
    write_inputs(template.inputs(inp), workdir)
    staged = stage_pseudos(inp, workdir, pseudo_dirs)
    call = run_subprocess(
        "pw",
        launcher.argv(INPUT_NAME),
        workdir,
        version=launcher.version(),
        env={"OMP_NUM_THREADS": "1"},
        timeout_s=launcher.timeout_s,
        monitor=_scf_monitor(workdir / OUTPUT_NAME, progress) if progress else None,
        runner=launcher.runner,
        cores=launcher.mpi_ranks,
    )
    out_path = workdir / OUTPUT_NAME
    text = out_path.read_text(errors="replace") if out_path.is_file() else ""
    if not keep_scratch:
        shutil.rmtree(workdir / OUTDIR.removeprefix("./"), ignore_errors=True)
    crash = read_crash(workdir)
    output = template.parse(inp, workdir)
    extra = {
        **call.extra,
        "input": INPUT_NAME,
        "pseudopotentials": ", ".join(f"{k} <- {v}" for k, v in staged.items()),
        "calculation": inp.calculation,
    }
    stderr = call.stderr_tail
    if crash:
        extra["crash"] = tail(crash_message(crash), 2000)
        stderr = tail(f"{stderr}\n--- CRASH ---\n{crash_message(crash)}".lstrip("\n"))
    call = replace(call, engine=ENGINE_NAME, extra=extra, stderr_tail=stderr)
    final = last_structure(text, inp.structure) or inp.structure
    return PwRun(inp, workdir, call, output, crash, final)


def _scf_monitor(output: Path, progress: Callable[[float | None, str], None]) -> Callable[[], None]:
    """Report pw.x's SCF progress, read incrementally from its output."""
    follower = PwFollower(output)

    def report() -> None:
        live = follower.poll()
        progress(None, "pw.x setting up" if live is None else live.describe())

    return report


ENGINE = EngineInfo(
    name=ENGINE_NAME,
    description="Quantum ESPRESSO pw.x: plane-wave DFT (SCF, relax, vc-relax) from UPF files",
    launcher=PwLauncher.from_settings,
)
