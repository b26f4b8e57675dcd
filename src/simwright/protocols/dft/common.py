"""Steps and helpers shared by the DFT protocols (``dft_scf``, ``dft_relax``, ``dft_eos``).

:class:`Recommend` turns the request into a validated pw.x input;
:class:`RunPw` runs it inside the error-recovery machine (every pw.x attempt is
recorded as an engine call, every transition as an event) and writes the
results into the file contract; :class:`Report` reads them back into a
:class:`~simwright.results.ProtocolResult`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from typing_extensions import override

from simwright.contract import SCHEMA_VERSION, read_structure, read_table
from simwright.dft.converged import ConvergedSettings, find_converged
from simwright.dft.handlers import RepairContext
from simwright.dft.knowledge_graph import load_knowledge_graph
from simwright.dft.recommender import Recommendation, recommend
from simwright.dft.recovery import RecoveryMachine, RecoveryOutcome, Transition
from simwright.dft.request import DftRequest
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.postproc import seed_scratch
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.engines.espresso.pw import PwRun, run_pw
from simwright.engines.espresso.summary import write_pw_tables
from simwright.engines.espresso.template import PwInput, render
from simwright.errors import EngineError, ValidationError
from simwright.graph import Done, RunContext, Step
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.report import report_result


def pseudo_dirs(ctx: RunContext, params: DftRequest) -> tuple[Path, ...]:
    """The system directory, ``<home>/pseudo``, then the request's extra directories."""
    return (*default_pseudo_dirs(ctx.settings.home), *(Path(d) for d in params.pseudo_dirs))


def stored_convergence(
    ctx: RunContext, params: DftRequest, rec: Recommendation
) -> ConvergedSettings | None:
    """The stored ``dft_convergence`` study of this system, functional and files."""
    return find_converged(
        ctx.settings.home,
        f"{params.structure.kind}:{params.structure.name}",
        rec.pseudos.functional,
        tuple(sp.pseudo_file for sp in rec.template.species),
    )


def _with_converged(params: DftRequest, found: ConvergedSettings) -> DftRequest:
    """``params`` with the study's cutoffs and spacing where the request states none."""
    update: dict[str, Any] = {}
    if params.ecutwfc_ry is None and params.ecutrho_ry is None:
        update.update(ecutwfc_ry=found.ecutwfc_ry, ecutrho_ry=found.ecutrho_ry)
    stated_k = params.kpoints is not None or params.gamma_point
    if not stated_k and "kspacing_inv_a" not in params.model_fields_set:
        update["kspacing_inv_a"] = found.kspacing_inv_a
    return params.model_copy(update=update)


def converged_note(ctx: RunContext, params: DftRequest, rec: Recommendation) -> str:
    """A report line on the stored convergence study ("" when there is none)."""
    found = stored_convergence(ctx, params, rec)
    if found is None:
        return ""
    how = "used" if params.use_converged else "not used (say use_converged to take them)"
    return f"converged settings: {found.describe()}; {how}"


def recommend_in_step(ctx: RunContext, params: DftRequest) -> Recommendation:
    """Recommend an input and record it: JSON summary, input preview, structure, assumptions.
    A stored convergence study of the same system and files is recorded, and taken when
    the request says ``use_converged``."""
    library = PseudoLibrary(pseudo_dirs(ctx, params))
    rec = recommend(params, library)
    found = stored_convergence(ctx, params, rec)
    if params.use_converged and found is None:
        raise ValidationError(
            f"no stored dft_convergence study of {params.structure.name} with "
            f"{rec.pseudos.functional.upper()} and these pseudopotentials: run one first "
            f"(e.g. 'convergence study of {params.structure.name} with "
            f"{rec.pseudos.functional.upper()}')"
        )
    if found is not None:
        if params.use_converged:
            rec = recommend(_with_converged(params, found), library)
        ctx.event("converged_settings", converged_note(ctx, params, rec))
    summary = ctx.workdir / "recommendation.json"
    summary.write_text(json.dumps(rec.as_dict(), indent=2, default=str, ensure_ascii=False))
    ctx.artifact(summary, "recommendation", "structure, pseudopotentials, conditions, parameters")
    preview = ctx.workdir / "pw.in"
    preview.write_text(render(rec.template))
    ctx.artifact(preview, "input", "the recommended pw.x input")
    ctx.structure(rec.structure, "initial.extxyz")
    for note in rec.assumed:
        ctx.event("assumed", note)
    ctx.rule("recommender", f"{len(rec.parameters)} parameters, {len(rec.assumed)} assumed")
    return rec


def run_with_recovery(
    ctx: RunContext,
    params: DftRequest,
    template: PwInput,
    valence: float,
    workdir: Path,
    *,
    keep_scratch: bool = False,
    seed: Path | None = None,
) -> RecoveryOutcome:
    """Run ``template`` through the recovery machine, recording attempts and transitions.

    ``keep_scratch`` keeps pw.x's saved data for a later run or tool; ``seed`` is the
    folder of a run whose saved data each attempt starts from (nscf and bands runs).
    """
    dirs = pseudo_dirs(ctx, params)
    timeout_s = ctx.settings.limits.engine_timeout_s
    launcher = replace(PwLauncher.from_settings(ctx.settings, timeout_s=timeout_s), runner=ctx.jobs)

    def runner(inp: PwInput, where: Path) -> PwRun:
        ctx.progress(None, f"pw.x {inp.calculation} in {where.name}")
        if seed is not None:
            seed_scratch(seed, where)
        return run_pw(
            inp,
            where,
            launcher=launcher,
            pseudo_dirs=dirs,
            keep_scratch=keep_scratch,
            progress=ctx.progress,
        )

    def on_transition(t: Transition) -> None:
        ctx.event(
            "dft_transition",
            f"{t.source} -> {t.target}: {t.reason}"[:500],
            rule=t.rule,
            attempt=t.attempt,
        )

    machine = RecoveryMachine(
        runner,
        RepairContext(load_knowledge_graph(), valence, dirs),
        on_transition=on_transition,
        on_run=lambda run: ctx.engine_call(run.call),
    )
    return machine.run(template, workdir)


def record_recovery(ctx: RunContext, outcome: RecoveryOutcome, name: str) -> ArtifactRef:
    """Write the machine's transitions and attempts as JSON and record the deciding rule."""
    data: dict[str, Any] = {
        "status": outcome.status,
        "message": outcome.message,
        "zero_shot": outcome.zero_shot,
        "repairs": list(outcome.repairs),
        "attempts": [
            {
                "index": a.index,
                "workdir": a.run.workdir.name,
                "exit_code": a.run.call.exit_code,
                "problems": list(a.run.problems),
                "diagnosis": a.diagnosis.code if a.diagnosis else None,
                "repair": a.repair,
            }
            for a in outcome.attempts
        ],
        "transitions": [
            {"from": t.source, "to": t.target, "reason": t.reason, "rule": t.rule}
            for t in outcome.transitions
        ],
    }
    path = ctx.workdir / name
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False))
    ref = ctx.artifact(path, "recovery", "transitions of the error-recovery machine")
    rule = outcome.repairs[-1] if outcome.repairs else "zero_shot"
    ctx.rule(f"dft_recovery:{rule}", outcome.message)
    return ref


def require_success(outcome: RecoveryOutcome) -> PwRun:
    """The valid run, or an :class:`EngineError` carrying the diagnosis and output tail."""
    if outcome.status == "success" and outcome.run is not None:
        return outcome.run
    last = outcome.attempts[-1].run if outcome.attempts else None
    tail = (last.crash or last.call.stdout_tail) if last is not None else ""
    raise EngineError(f"pw.x could not be brought to a valid result: {outcome.message}", tail=tail)


@dataclass(frozen=True)
class Recommend(Step):
    """Build the structure and recommend a validated pw.x input."""

    params: DftRequest

    @override
    def run(self, ctx: RunContext) -> RunPw:
        rec = recommend_in_step(ctx, self.params)
        note = converged_note(ctx, self.params, rec)
        return RunPw(self.params, rec.template, rec.valence_electrons, note)


@dataclass(frozen=True)
class RunPw(Step):
    """Run pw.x inside the error-recovery machine and write the results."""

    params: DftRequest
    template: PwInput
    valence_electrons: float
    converged: str = ""

    @override
    def run(self, ctx: RunContext) -> Report:
        outcome = run_with_recovery(
            ctx, self.params, self.template, self.valence_electrons, ctx.workdir
        )
        recovery = record_recovery(ctx, outcome, "recovery.json")
        run = require_success(outcome)
        tables = write_pw_tables(run, ctx.workdir, ctx.producer)
        summary = ctx.artifact(tables.summary, "table", "pw.x results", SCHEMA_VERSION)
        forces = (
            ctx.artifact(tables.forces, "table", "forces", SCHEMA_VERSION)
            if tables.forces
            else None
        )
        relax = (
            ctx.artifact(tables.relax, "table", "relaxation energies", SCHEMA_VERSION)
            if tables.relax
            else None
        )
        structure = ctx.structure(run.structure, "final.extxyz", "structure after pw.x")
        output = ctx.artifact(run.workdir / "pw.stdout", "log", "pw.x output of the valid run")
        return Report(
            self.params,
            summary,
            forces,
            relax,
            structure,
            recovery,
            output,
            len(outcome.attempts),
            tuple(outcome.repairs),
            run.output.site_magnetization,
            run.structure.symbols,
            self.converged,
        )


def _optional(values: dict[str, Quantity], name: str, value: float, unit: str, src: str) -> None:
    if math.isfinite(value):
        values[name] = Quantity(value, unit, source=src)


def summary_values(
    ctx: RunContext,
    summary: ArtifactRef,
    forces: ArtifactRef | None,
    n_atoms: int,
    volume: float | None,
) -> dict[str, Quantity]:
    """Quantities read back from the summary and forces tables."""
    t = read_table(ctx.path(summary))
    src = summary.path
    values = {
        "energy": Quantity(float(t["energy"][0]), "eV", source=src),
        "energy_per_atom": Quantity(float(t["energy_per_atom"][0]), "eV", source=src),
    }
    _optional(values, "fermi_energy", float(t["fermi_energy"][0]), "eV", src)
    _optional(values, "homo", float(t["homo"][0]), "eV", src)
    homo, lumo = float(t["homo"][0]), float(t["lumo"][0])
    if math.isfinite(homo) and math.isfinite(lumo):
        values["band_gap"] = Quantity(lumo - homo, "eV", source=src)
    _optional(values, "pressure", float(t["pressure"][0]), "bar", src)
    _optional(values, "total_magnetization", float(t["total_magnetization"][0]), "mu_B", src)
    values["scf_iterations"] = Quantity(float(t["n_scf_iterations"][0]), "1", source=src)
    if forces is not None:
        f = read_table(ctx.path(forces))["force"]
        values["max_force"] = Quantity(float(np.abs(f).max()), "eV/Å", source=forces.path)
    if volume is not None:
        values["volume_per_atom"] = Quantity(volume / n_atoms, "Å^3", source=src)
    return values


RESIDUAL_PRESSURE_LIMIT_BAR = 1000.0
"""|P| above which a vc-relax result is flagged (bar): twice pw.x's press_conv_thr of
0.5 kbar, leaving room for the Pulay stress of the final SCF in a fresh basis."""


def residual_pressure_notes(
    ctx: RunContext, calculation: str, values: dict[str, Quantity], source: str
) -> list[str]:
    """Record the residual pressure of a variable-cell relaxation; a note (and an event)
    when it is above :data:`RESIDUAL_PRESSURE_LIMIT_BAR`."""
    if calculation != "vc-relax" or "pressure" not in values:
        return []
    residual = abs(values["pressure"].value)
    values["residual_pressure"] = Quantity(residual, "bar", source=source)
    if residual <= RESIDUAL_PRESSURE_LIMIT_BAR:
        return []
    note = (
        f"residual pressure {residual / 1000:.2f} kbar is above "
        f"{RESIDUAL_PRESSURE_LIMIT_BAR / 1000:g} kbar: the cell is not relaxed in the final "
        "basis (Pulay stress); raise ecutwfc by about 30 % or run vc-relax again from it"
    )
    ctx.event("warning", note, rule="dft_residual_pressure")
    return [note]


def site_moment_values(
    moments: tuple[float, ...], symbols: tuple[str, ...], source: str
) -> dict[str, Quantity]:
    """Per element, the mean |moment| of its atoms (μB, pw.x's integration spheres)."""
    if not moments or len(moments) != len(symbols):
        return {}
    out = {}
    for element in dict.fromkeys(symbols):
        ms = [abs(m) for m, s in zip(moments, symbols, strict=True) if s == element]
        out[f"magnetic_moment_{element}"] = Quantity(float(np.mean(ms)), "mu_B", source=source)
    return out


@dataclass(frozen=True)
class Report(Step):
    """Write the report and return the result."""

    params: DftRequest
    summary: ArtifactRef
    forces: ArtifactRef | None
    relax: ArtifactRef | None
    structure: ArtifactRef
    recovery: ArtifactRef
    output: ArtifactRef
    pw_runs: int
    repairs: tuple[str, ...]
    site_moments: tuple[float, ...] = ()
    symbols: tuple[str, ...] = ()
    converged: str = ""

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        final = read_structure(ctx.path(self.structure))
        values = summary_values(ctx, self.summary, self.forces, len(final), final.volume_a3)
        values["pw_runs"] = Quantity(float(self.pw_runs), "1", source=self.recovery.path)
        values.update(site_moment_values(self.site_moments, self.symbols, self.output.path))
        p = self.params
        notes = residual_pressure_notes(ctx, p.calculation, values, self.summary.path)
        if self.converged:
            notes.append(self.converged)
        what = f"{p.calculation} of {final.formula}"
        summary = f"{what}: E = {values['energy'].value:.6f} eV"
        if "fermi_energy" in values:
            summary += f", E_F = {values['fermi_energy'].value:.3f} eV"
        if self.repairs:
            summary += f" (repaired: {', '.join(self.repairs)})"
        files = tuple(
            a
            for a in (
                self.summary,
                self.forces,
                self.relax,
                self.structure,
                self.recovery,
                self.output,
            )
            if a is not None
        )
        return Done(
            report_result(
                ctx,
                title=f"DFT {what}",
                summary=summary,
                values=values,
                artifacts=files,
                method=(
                    f"Quantum ESPRESSO pw.x, {p.calculation}; input recommended by simwright "
                    f"(see recommendation.json); {self.pw_runs} pw.x run(s) in the "
                    "error-recovery machine (see recovery.json)."
                ),
                notes=notes,
            )
        )


STEPS: tuple[type[Step], ...] = (Recommend, RunPw, Report)
"""The steps of the single-run DFT protocols, entry first."""
