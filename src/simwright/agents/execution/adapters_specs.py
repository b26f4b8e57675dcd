"""The ASE and analysis executors author typed YAML specs, not Python.

Arbitrary Python written by a model could do anything; a spec can only do what
its schema allows. ``check`` validates the YAML against the schema (and the
calculator against the elements, the input files against the working directory);
``run`` performs it in-process and writes a JSON result (and, for ASE, the final
structure as extended XYZ) that the fabrication guard can trace values to.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
import yaml
from ase.eos import EquationOfState
from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from simwright.agents.execution.adapters import Check, JobResult, confined
from simwright.agents.review.reports import single_atoms
from simwright.analysis.convergence import fit_line
from simwright.contract import read_table, write_structure
from simwright.engines.ase.calculators import CalculatorSpec, energies, relax, single_point
from simwright.errors import SimwrightError
from simwright.store.records import EngineCall
from simwright.structure import Structure

_STRICT = ConfigDict(frozen=True, extra="forbid")


class BulkSpec(BaseModel):
    """A bulk crystal from ASE's ``bulk``."""

    model_config = _STRICT

    kind: Literal["bulk"]
    element: str = Field(min_length=1, max_length=3)
    lattice: Literal["fcc", "bcc", "sc", "diamond", "hcp"]
    a_a: float = Field(gt=0, le=20)
    cubic: bool = True
    repeat: tuple[int, int, int] = (1, 1, 1)


class FileSpec(BaseModel):
    """A structure file in the working directory."""

    model_config = _STRICT

    kind: Literal["file"]
    path: str


class AseTask(BaseModel):
    """An ASE task: a single point, a relaxation or an energy-volume scan."""

    model_config = _STRICT

    task: Literal["single_point", "relax", "eos_scan"]
    structure: Annotated[BulkSpec | FileSpec, Field(discriminator="kind")]
    calculator: Literal["emt", "lj"] = "emt"
    fmax_ev_a: float = Field(default=0.05, gt=0, le=5)
    max_steps: int = Field(default=200, ge=1, le=5000)
    strain_percent: float = Field(default=5.0, gt=0, le=20)
    n_points: int = Field(default=9, ge=5, le=51)


class AnalysisTask(BaseModel):
    """An analysis of a contract table: statistics of a column or a straight-line fit."""

    model_config = _STRICT

    operation: Literal["table_stats", "linear_fit"]
    table: str
    column: str
    x_column: str | None = None
    start_fraction: float = Field(default=0.0, ge=0, lt=1)
    output: str = Field(default="analysis.json", pattern=r"^[A-Za-z0-9_.\-]+\.json$")


def _load(script: Path, model: type[BaseModel]) -> tuple[Any, str | None]:
    try:
        data = yaml.safe_load(script.read_text())
        return model.model_validate(data), None
    except yaml.YAMLError as exc:
        return None, f"not valid YAML: {exc}"
    except PydanticValidationError as exc:
        return None, "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'spec'}: {e['msg']}" for e in exc.errors()
        )


def _structure(spec: BulkSpec | FileSpec, workdir: Path) -> Any:
    if isinstance(spec, FileSpec):
        # lazy: ase.io takes ~1 s to import
        from ase.io import read

        return Structure.from_ase(single_atoms(read(str(workdir / spec.path), index=-1)))
    # lazy: ase.build takes ~1 s to import
    from ase.build import bulk

    atoms = bulk(spec.element, spec.lattice, a=spec.a_a, cubic=spec.cubic and spec.lattice != "hcp")
    return Structure.from_ase(atoms.repeat(spec.repeat))


@dataclass(frozen=True)
class AseAdapter:
    """ASE tasks from YAML specs, run in-process with EMT or Lennard-Jones."""

    name: str = "ase"
    docs: str | None = "ase"
    suffixes: tuple[str, ...] = (".yaml", ".yml")
    gated: bool = False

    def check(self, script: Path, workdir: Path) -> Check:
        """Schema, structure file, and the calculator's elements."""
        task, problem = _load(script, AseTask)
        if problem:
            return Check(False, problem)
        if isinstance(task.structure, FileSpec):
            why = confined(task.structure.path, workdir)
            if why:
                return Check(False, why, ("path",))
            if not (workdir / task.structure.path).is_file():
                return Check(False, f"structure file {task.structure.path!r} does not exist")
        try:
            structure = _structure(task.structure, workdir)
            CalculatorSpec(task.calculator, {}).check_elements(structure.symbols)
        except (SimwrightError, ValueError, KeyError) as exc:
            return Check(False, str(exc))
        return Check(True, f"ok: {task.task} of {structure.sanity().text()}")

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Run the task; write ``result.json`` and ``final.extxyz``."""
        task: AseTask = AseTask.model_validate(yaml.safe_load(script.read_text()))
        calc = CalculatorSpec(task.calculator, {})
        structure = _structure(task.structure, workdir)
        calls: list[EngineCall] = []
        try:
            if task.task == "relax":
                structure, steps, call = relax(
                    structure, calc, fmax_ev_a=task.fmax_ev_a, max_steps=task.max_steps
                )
                calls.append(call)
            result: dict[str, Any] = {"task": task.task, "n_atoms": len(structure)}
            if task.task == "relax":
                result["relax_steps"] = steps
            if task.task == "eos_scan":
                result.update(_scan(structure, calc, task, calls, energies))
            else:
                point, call = single_point(structure, calc)
                calls.append(call)
                result["energy_ev"] = point.energy_ev
                result["energy_per_atom_ev"] = point.energy_ev / len(structure)
                result["max_force_ev_a"] = float(np.abs(point.forces_ev_a).max())
        except SimwrightError as exc:
            return JobResult(False, f"ASE failed: {exc}", tuple(calls))
        if any(structure.pbc):
            result["volume_a3"] = float(abs(np.linalg.det(structure.cell)))
        (workdir / "result.json").write_text(json.dumps(result, indent=1))
        write_structure(workdir / "final.extxyz", structure, producer="agent-ase")
        return JobResult(
            True, f"result.json: {json.dumps(result)}; final.extxyz written", tuple(calls)
        )


def _scan(
    structure: Any, calc: Any, task: AseTask, calls: list[EngineCall], energies: Any
) -> dict[str, Any]:
    scales = np.linspace(
        1 - task.strain_percent / 100, 1 + task.strain_percent / 100, task.n_points
    )
    strained = [
        structure.with_positions(structure.positions * s, structure.cell * s) for s in scales
    ]
    e, call = energies(strained, calc)
    calls.append(call)
    volumes = [abs(float(np.linalg.det(s.cell))) for s in strained]
    v0, e0, b = EquationOfState(volumes, list(e)).fit()
    return {
        "volumes_a3": volumes,
        "energies_ev": [float(x) for x in e],
        "v0_a3": float(v0),
        "e0_ev": float(e0),
        "b0_ev_a3": float(b),
        "a0_a": float(v0 ** (1 / 3)) if task.structure.kind == "bulk" else None,
    }


@dataclass(frozen=True)
class AnalysisAdapter:
    """Analyses of contract tables from YAML specs."""

    name: str = "analysis"
    docs: str | None = None
    suffixes: tuple[str, ...] = (".yaml", ".yml")
    gated: bool = False

    def check(self, script: Path, workdir: Path) -> Check:
        """Schema, table file inside ``workdir``, columns present."""
        task, problem = _load(script, AnalysisTask)
        if problem:
            return Check(False, problem)
        why = confined(task.table, workdir)
        if why:
            return Check(False, why, ("path",))
        try:
            table = read_table(workdir / task.table)
        except (SimwrightError, OSError) as exc:
            return Check(False, f"cannot read table {task.table!r}: {exc}")
        wanted = [c for c in (task.column, task.x_column) if c]
        missing = [c for c in wanted if c not in table.names]
        if missing:
            return Check(
                False, f"no column(s) {', '.join(missing)}; columns: {', '.join(table.names)}"
            )
        if task.operation == "linear_fit" and not task.x_column:
            return Check(False, "linear_fit needs x_column")
        return Check(True, f"ok: {task.operation} of {task.column} ({table.n_rows} rows)")

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Compute and write the JSON result."""
        start = time.perf_counter()
        task: AnalysisTask = AnalysisTask.model_validate(yaml.safe_load(script.read_text()))
        table = read_table(workdir / task.table)
        first = int(task.start_fraction * table.n_rows)
        y = np.asarray(table[task.column], float)[first:]
        result: dict[str, Any] = {
            "operation": task.operation,
            "column": task.column,
            "n": int(y.size),
        }
        if task.operation == "table_stats":
            result.update(
                mean=float(y.mean()),
                std=float(y.std(ddof=1)) if y.size > 1 else 0.0,
                min=float(y.min()),
                max=float(y.max()),
                last=float(y[-1]),
            )
        else:
            assert task.x_column is not None
            x = np.asarray(table[task.x_column], float)[first:]
            fit = fit_line(x, y)
            result.update(slope=fit.slope, intercept=fit.intercept, r2=fit.r2)
        (workdir / task.output).write_text(json.dumps(result, indent=1))
        call = EngineCall("analysis", task.operation, "", 0, time.perf_counter() - start)
        return JobResult(True, f"{task.output}: {json.dumps(result)}", (call,))
