"""PACKMOL adapter: pack rigid molecules into a periodic cubic box.

:func:`pack` joins the pure template
(:class:`~simwright.engines.packmol.template.PackmolTemplate`) and the launcher
(:class:`~simwright.engines.packmol.launcher.PackmolLauncher`): it writes the inputs,
runs ``packmol < packmol.inp`` in the working directory and reads the output.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from simwright.engines.base import run_subprocess, write_inputs
from simwright.engines.packmol.launcher import (
    ENGINE_NAME,
    PackmolLauncher,
    find_packmol,
    version_in_output,
)
from simwright.engines.packmol.spec import PackSpec, box_edge_a
from simwright.engines.packmol.template import (
    INPUT_NAME,
    OUTPUT_NAME,
    PackmolTemplate,
    min_intermolecular_distance_a,
)
from simwright.engines.registry import EngineInfo
from simwright.errors import EngineError
from simwright.jobs import JobRunner
from simwright.store.records import EngineCall
from simwright.structure import Structure


@dataclass(frozen=True)
class PackResult:
    """A packed periodic structure with the record of the PACKMOL call."""

    structure: Structure
    call: EngineCall
    box_a: float
    input_path: Path
    output_path: Path
    min_intermolecular_distance_a: float = field(default=float("inf"))


def pack(
    spec: PackSpec,
    workdir: Path,
    *,
    executable: Path | None = None,
    timeout_s: float | None = 600.0,
    runner: JobRunner | None = None,
) -> PackResult:
    """Run PACKMOL for ``spec`` in ``workdir`` and return the packed periodic structure.

    ``runner`` (a step's ``ctx.jobs``) decides where the call runs (docs/cluster.md).

    Raises :class:`EngineError` (with PACKMOL's output tail) when PACKMOL fails, finds no
    packing, or writes something that is not the requested molecules.
    """
    workdir = Path(workdir)
    template = PackmolTemplate()
    paths = write_inputs(template.inputs(spec), workdir)
    output_path = workdir / OUTPUT_NAME
    for stale in (output_path, workdir / f"{OUTPUT_NAME}_FORCED"):
        stale.unlink(missing_ok=True)
    launcher = PackmolLauncher(executable if executable is not None else find_packmol())
    box = box_edge_a(spec)
    call = run_subprocess(
        ENGINE_NAME,
        launcher.argv(),
        workdir,
        stdin_path=paths[INPUT_NAME],
        timeout_s=timeout_s,
        runner=runner,
    )
    call = replace(
        call,
        version=version_in_output(workdir / f"{ENGINE_NAME}.stdout"),
        extra={**call.extra, "stdin": INPUT_NAME, "box_a": f"{box:.6f}"},
    )
    _check_success(call, output_path)
    structure = template.parse(spec, workdir)
    d_min = min_intermolecular_distance_a(structure, cutoff_a=max(4.0, 1.5 * spec.tolerance_a))
    return PackResult(structure, call, box, paths[INPUT_NAME], output_path, d_min)


def _check_success(call: EngineCall, output_path: Path) -> None:
    tail = (call.stdout_tail + "\n" + call.stderr_tail).strip()
    if call.exit_code == 124:
        raise EngineError("PACKMOL timed out", tail=tail)
    if call.exit_code != 0 or "Success!" not in call.stdout_tail:
        raise EngineError(
            f"PACKMOL found no packing (exit code {call.exit_code}); "
            "try a larger box, a smaller tolerance or more loops",
            tail=tail,
        )
    if not output_path.is_file():
        raise EngineError(f"PACKMOL reported success but wrote no {output_path.name}", tail=tail)


ENGINE = EngineInfo(
    name=ENGINE_NAME,
    description="PACKMOL: packs rigid molecules into a periodic cubic box (subprocess)",
    launcher=PackmolLauncher.from_settings,
)
"""The entry point of the ``simwright.engines`` group for PACKMOL."""
