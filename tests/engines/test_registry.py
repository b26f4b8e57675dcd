"""The engine contract and registry: every in-tree engine is registered, its launcher
follows the contract, and a missing engine is refused by name before a run starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from ase.build import bulk

from simwright.engines.base import EngineLauncher
from simwright.engines.espresso.template import KPoints, PwInput, PwTemplate, Species, render
from simwright.engines.lammps.templates import DataStart, MDSpec, MDTemplate, render_input
from simwright.engines.packmol import PackmolTemplate, PackSpec, render_packmol_input
from simwright.engines.packmol.template import component_file_names
from simwright.engines.registry import load_engines
from simwright.forcefields import get_forcefield
from simwright.molecules import get_molecule
from simwright.settings import Settings
from simwright.structure import Structure


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path)


def test_every_in_tree_engine_is_registered_and_found_here(settings: Settings) -> None:
    engines = load_engines()
    in_tree = {"ase", "espresso", "lammps", "packmol", "pormake", "zeo++", "pyscf", "xtb"}
    assert set(engines) == in_tree
    for info in engines.values():
        launcher = info.launcher(settings)
        assert isinstance(launcher, EngineLauncher) and launcher.name == info.name
        status = info.status(settings)
        assert status.available and status.version, status
    assert engines["ase"].launcher(settings).argv() == []  # in-process
    assert engines["pyscf"].launcher(settings).argv() == []  # in-process, extra [molecules]
    assert engines["espresso"].launcher(settings).argv()[-2:] == ["-in", "pw.in"]


def test_an_engine_configured_at_a_missing_path_is_reported_unavailable(tmp_path: Path) -> None:
    broken = Settings(home=tmp_path, engine_paths={"lmp": str(tmp_path / "no-lmp")})
    status = load_engines()["lammps"].status(broken)
    assert not status.available and status.problem
    assert load_engines()["packmol"].status(broken).available  # the others are there


def test_templates_render_what_the_pure_functions_render() -> None:
    water = get_molecule("water")
    spec = PackSpec(((water, 3),), box_a=12.0)
    files = PackmolTemplate().inputs(spec)
    names = component_file_names(spec)
    assert files["packmol.inp"] == render_packmol_input(spec, names, 12.0)
    assert files[names[0]].splitlines()[0] == str(water.n_atoms)
    md = MDSpec("nvt", 10, 1.0, temperature_k=100.0)
    ff = get_forcefield("lj_argon")
    start = DataStart("system.data", (True, True, True))
    assert MDTemplate(ff, start).inputs(md) == {"in.lammps": render_input(md, ff, start)}


def test_pw_template_renders_the_input_and_reads_an_absent_output(tmp_path: Path) -> None:
    inp = PwInput(
        {"control": {"calculation": "scf"}, "system": {"ecutwfc": 16.0}},
        (Species("Si", "Si.pz-vbc.UPF"),),
        Structure.from_ase(bulk("Si", "diamond", a=5.43)),
        KPoints(mesh=(2, 2, 2)),
    )
    assert PwTemplate().inputs(inp) == {"pw.in": render(inp)}
    assert PwTemplate().parse(inp, tmp_path).energy_ev is None  # pw.x wrote nothing here
