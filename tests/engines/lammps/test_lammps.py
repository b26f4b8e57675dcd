"""LAMMPS adapter and force fields: templates against golden files, parsers on canned
logs, and real LAMMPS runs on tiny systems with physics checks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ase.build import bulk

from helpers import paths
from simwright.contract import dcd_header, read_table, read_trajectory_manifest
from simwright.engines.lammps.data import lammps_box, read_data_structure, write_data_file
from simwright.engines.lammps.log import parse_heat_flux, parse_log
from simwright.engines.lammps.segment import (
    ENGINE,
    LammpsError,
    LammpsLauncher,
    LammpsResult,
    find_lmp,
    parse_help,
    run_segment,
)
from simwright.engines.lammps.templates import (
    DataStart,
    MDSpec,
    RestartStart,
    fs_to_ps,
    render_input,
)
from simwright.errors import EngineError, ParseError, ValidationError
from simwright.forcefields import (
    EV_PER_KJ_MOL,
    assign_types,
    forcefield_names,
    get_forcefield,
    lj_argon,
    spce,
)
from simwright.settings import Settings
from simwright.structure import Structure
from simwright.units import KB_EV_K

GOLDEN = paths.GOLDEN / "lammps"
UPDATE_GOLDEN = os.environ.get("SIMWRIGHT_UPDATE_GOLDEN") == "1"


# --- systems ----------------------------------------------------------------------------


def water_grid(n: int = 4, spacing_a: float = 3.1) -> Structure:
    """n³ SPC/E-shaped water molecules on a cubic grid (about 1 g/cm³ at 3.1 Å)."""
    half = np.deg2rad(109.47 / 2)
    h1 = np.array([np.sin(half), np.cos(half), 0.0])
    h2 = np.array([-np.sin(half), np.cos(half), 0.0])
    symbols: list[str] = []
    positions: list[np.ndarray] = []
    molecules: list[int] = []
    for index, cell in enumerate(np.ndindex(n, n, n), start=1):
        oxygen = np.array(cell) * spacing_a + 0.5
        symbols += ["O", "H", "H"]
        positions += [oxygen, oxygen + h1, oxygen + h2]
        molecules += [index] * 3
    return Structure(
        tuple(symbols),
        np.array(positions),
        np.eye(3) * n * spacing_a,
        (True,) * 3,
        tuple(molecules),
    )


def argon_fcc(reduced_density: float = 0.8, repeat: int = 4) -> Structure:
    """fcc argon (4·repeat³ atoms) at a reduced density ρσ³ (0.8: about 1.34 g/cm³)."""
    sigma = 3.405
    a = (4.0 / (reduced_density / sigma**3)) ** (1.0 / 3.0)
    return Structure.from_ase(bulk("Ar", "fcc", a=a, cubic=True).repeat(repeat))


@pytest.fixture(scope="module")
def launcher() -> LammpsLauncher:
    return LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE_GOLDEN:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, (
        f"{name} differs from the golden file; if the change is intended, "
        "rerun with SIMWRIGHT_UPDATE_GOLDEN=1 and review the diff"
    )


# --- force fields -----------------------------------------------------------------------


def test_spce_parameters_follow_berendsen_1987() -> None:
    ff = get_forcefield("SPC/E")
    oxygen, hydrogen = ff.atom_types
    assert (oxygen.element, oxygen.charge_e, hydrogen.charge_e) == ("O", -0.8476, 0.4238)
    assert oxygen.lj.sigma_a == 3.166
    assert oxygen.lj.epsilon_ev == pytest.approx(0.650 * EV_PER_KJ_MOL)
    assert oxygen.lj.epsilon_ev == pytest.approx(6.7368e-3, rel=1e-4)
    assert hydrogen.lj.epsilon_ev == 0.0
    assert ff.bond_types[0].length_a == 1.0 and ff.bond_types[0].rigid
    assert ff.angle_types[0].angle_deg == 109.47
    assert ff.pair_style.cutoff_a == 9.0 and ff.pair_style.coulomb
    assert ff.kspace is not None and ff.kspace.accuracy == 1e-4
    assert ff.constraint is not None and ff.rigid
    assert "Berendsen" in ff.reference
    assert oxygen.charge_e + 2 * hydrogen.charge_e == pytest.approx(0.0)


def test_lj_argon_follows_rahman_1964() -> None:
    ff = lj_argon()
    (argon,) = ff.atom_types
    assert argon.lj.epsilon_ev == pytest.approx(119.8 * KB_EV_K)
    assert argon.lj.sigma_a == 3.405 and argon.mass_amu == 39.948
    assert ff.pair_style.cutoff_a == pytest.approx(2.5 * 3.405)
    assert ff.kspace is None and ff.constraint is None
    assert "Rahman" in ff.reference


def test_unknown_forcefield_lists_known_names() -> None:
    with pytest.raises(ValidationError, match="known: lj_argon, nacl_tosi_fumi, opls_acetonitrile"):
        get_forcefield("tip4p")
    assert forcefield_names() == (
        "lj_argon",
        "nacl_tosi_fumi",
        "opls_acetonitrile",
        "opls_ethanol",
        "opls_methanol",
        "spce",
        "tip3p",
        "tip4p2005",
    )


def test_mixing_rules() -> None:
    ff = spce()
    assert ff.pair("OW", "HW").epsilon_ev == 0.0
    assert ff.pair("OW", "OW") == ff.atom_types[0].lj
    assert [(i, j) for i, j, _ in ff.pair_table()] == [(1, 1), (1, 2), (2, 2)]


def test_typing_water_gives_types_bonds_angles() -> None:
    water = water_grid(2)
    topology = assign_types(water, spce())
    assert topology.type_ids[:6] == (1, 2, 2, 1, 2, 2)
    assert topology.molecule_ids[:6] == (1, 1, 1, 2, 2, 2)
    assert len(topology.bonds) == 16 and len(topology.angles) == 8
    assert topology.bonds[:2] == ((1, 0, 1), (1, 0, 2))
    assert topology.angles[0] == (1, 1, 0, 2)
    assert topology.net_charge_e == pytest.approx(0.0, abs=1e-9)


def test_typing_rejects_unknown_molecules() -> None:
    water = water_grid(2)
    broken = Structure(water.symbols, water.positions, water.cell, water.pbc, None)
    with pytest.raises(ValidationError, match="no molecule ids"):
        assign_types(broken, spce())
    with pytest.raises(ValidationError, match="matches no molecule of force field 'lj_argon'"):
        assign_types(water, lj_argon())


# --- data files -------------------------------------------------------------------------


def test_data_file_round_trip_of_a_triclinic_cell(tmp_path: Path) -> None:
    atoms = bulk("Ar", "fcc", a=5.26).repeat((2, 2, 2))  # primitive cell: triclinic
    structure = Structure.from_ase(atoms)
    box = lammps_box(structure.cell)
    assert box.triclinic
    write_data_file(structure, lj_argon(), tmp_path / "ar.data")
    text = (tmp_path / "ar.data").read_text()
    assert "xy xz yz" in text and "Atoms  # full" in text
    back = read_data_structure(tmp_path / "ar.data", {1: "Ar"})
    assert back.symbols == structure.symbols
    assert np.allclose(np.linalg.norm(back.cell, axis=1), np.linalg.norm(structure.cell, axis=1))
    assert back.volume_a3 == pytest.approx(structure.volume_a3)
    d_old = np.linalg.norm(structure.positions[1:] - structure.positions[0], axis=1)
    d_new = np.linalg.norm(back.positions[1:] - back.positions[0], axis=1)
    assert np.allclose(d_old, d_new, atol=1e-6)


def test_data_file_of_water_has_charges_bonds_angles(tmp_path: Path) -> None:
    write_data_file(water_grid(2), spce(), tmp_path / "w.data")
    text = (tmp_path / "w.data").read_text()
    assert "24 atoms" in text and "16 bonds" in text and "8 angles" in text
    assert "1 1 1 -0.847600 " in text and "2 1 2 0.423800 " in text
    assert "\nAngles\n\n1 1 2 1 3\n" in text


def test_left_handed_cell_is_refused() -> None:
    with pytest.raises(ValidationError, match="right-handed"):
        lammps_box(np.diag([1.0, 1.0, -1.0]))


# --- templates --------------------------------------------------------------------------


def test_spce_nvt_template_matches_golden_file() -> None:
    spec = MDSpec(
        "nvt",
        1000,
        2.0,
        temperature_k=298.15,
        tdamp_fs=200.0,
        thermo_every=50,
        dump_every=100,
        seed=4242,
        zero_momentum=True,
        create_velocities=True,
        heat_flux_every=5,
    )
    check_golden("spce_nvt.in", render_input(spec, spce(), DataStart()))


def test_argon_npt_continuation_matches_golden_file() -> None:
    spec = MDSpec("npt", 200, 1.0, temperature_k=120.0, pressure_bar=1.01325, dump_every=50)
    text = render_input(spec, lj_argon(), RestartStart("../seg1/final.restart"))
    check_golden("argon_npt_restart.in", text)
    assert "reset_timestep" not in text and "read_data" not in text


def test_fs_to_ps() -> None:
    assert fs_to_ps(2.0) == pytest.approx(0.002)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"ensemble": "nvt", "steps": 0, "temperature_k": 300.0}, "steps"),
        ({"ensemble": "nvt", "steps": 10, "timestep_fs": -1.0, "temperature_k": 300.0}, "timestep"),
        ({"ensemble": "nvt", "steps": 10}, "temperature_k"),
        ({"ensemble": "nvt", "steps": 10, "temperature_k": -5.0}, "temperature_k"),
        ({"ensemble": "npt", "steps": 10, "temperature_k": 300.0}, "pressure_bar"),
        ({"ensemble": "nve", "steps": 10, "pressure_bar": 1.0}, "pressure_bar"),
        ({"ensemble": "nve", "steps": 10, "create_velocities": True}, "temperature_k"),
        ({"ensemble": "minimize", "steps": 10, "zero_momentum": True}, "zero_momentum"),
        ({"ensemble": "nve", "steps": 10, "dump_every": -1}, "dump_every"),
        ({"ensemble": "nve", "steps": 10, "thermo_every": 0}, "thermo_every"),
        ({"ensemble": "nve", "steps": 10, "tdamp_fs": 0.0}, "tdamp_fs"),
        ({"ensemble": "nvx", "steps": 10}, "ensemble"),
    ],
)
def test_spec_validation_names_the_field(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError, match=f"MDSpec.{field}"):
        MDSpec(**kwargs)


def test_kspace_needs_a_periodic_box_and_paths_are_checked() -> None:
    spec = MDSpec("nve", 10)
    with pytest.raises(ValidationError, match="periodic"):
        render_input(spec, spce(), DataStart(pbc=(True, True, False)))
    with pytest.raises(ValidationError, match="spaces"):
        render_input(spec, lj_argon(), RestartStart("my run/final.restart"))
    slab = render_input(spec, lj_argon(), DataStart(pbc=(True, True, False)))
    assert "boundary        p p m" in slab


# --- log parsing ------------------------------------------------------------------------


def test_parse_log_joins_runs_and_skips_warnings() -> None:
    table = parse_log(GOLDEN / "two_runs.log")
    assert table.n_rows == 6
    assert list(table["step"]) == [0, 50, 100, 100, 150, 200]
    assert list(table["run"]) == [0, 0, 0, 1, 1, 1]
    assert table["time"] == pytest.approx([0, 100, 200, 200, 300, 400])  # ps -> fs
    units = {c.name: c.unit for c in table.columns}
    assert units == {
        "step": "1",
        "time": "fs",
        "temperature": "K",
        "pressure": "bar",
        "potential_energy": "eV",
        "kinetic_energy": "eV",
        "total_energy": "eV",
        "volume": "Å^3",
        "density": "g/cm^3",
        "run": "1",
    }
    assert table["temperature"][-1] == 121.75


def test_parse_log_without_thermo_is_a_parse_error(tmp_path: Path) -> None:
    (tmp_path / "log.lammps").write_text("LAMMPS (22 Jul 2025)\nERROR: Unknown command\n")
    with pytest.raises(ParseError, match="no thermo output"):
        parse_log(tmp_path / "log.lammps")


def test_parse_help_reads_version_and_packages() -> None:
    text = (
        "\nLarge-scale Atomic/Molecular Massively Parallel Simulator - 22 Jul 2025 - Update 4\n"
        "\nInstalled packages:\n\nKSPACE MANYBODY MOLECULE \nOPENMP RIGID \n\nList of styles\n"
    )
    info = parse_help(text)
    assert info.version == "22 Jul 2025 - Update 4"
    assert info.openmp and "RIGID" in info.packages and "List" not in info.packages


# --- launcher ---------------------------------------------------------------------------


def test_launcher_argv_and_env(launcher: LammpsLauncher) -> None:
    assert launcher.version()[:2].isdigit()
    argv = launcher.argv()
    assert argv[0] == str(launcher.executable)
    assert argv[-4:] == ["-in", "in.lammps", "-log", "log.lammps"]
    assert argv[1:5] == ["-sf", "omp", "-pk", "omp"]  # the wheel ships OPENMP
    parallel = LammpsLauncher(launcher.executable, mpi_ranks=2, omp_threads=1)
    assert parallel.argv()[1:3] == ["-np", "2"] and parallel.argv()[0].endswith("mpirun")
    assert launcher.env()["OMP_NUM_THREADS"] == "1"
    assert Path(launcher.env()["LAMMPS_POTENTIALS"]).is_dir()
    with pytest.raises(ValidationError):
        LammpsLauncher(launcher.executable, mpi_ranks=0)
    assert ENGINE.name == "lammps" and ENGINE.status(Settings(home=Path.home())).available


def test_engine_crash_raises_with_log_tail(launcher: LammpsLauncher, tmp_path: Path) -> None:
    script = "units metal\natom_style full\npair_style bogus/style 2.5\n"
    with pytest.raises(EngineError) as info:
        launcher.run(script, tmp_path)
    error = info.value
    assert isinstance(error, LammpsError)
    assert "ERROR" in error.tail and "bogus/style" in error.tail
    assert error.call.exit_code != 0 and error.call.engine == "lammps"
    assert "bogus" in str(error)


# --- real runs --------------------------------------------------------------------------


def test_lj_argon_nve_conserves_energy(launcher: LammpsLauncher, tmp_path: Path) -> None:
    argon = argon_fcc()  # 256 atoms, ρσ³ = 0.8
    spec = MDSpec(
        "nve", 2000, 2.0, temperature_k=240.0, create_velocities=True, thermo_every=20, seed=7
    )
    result = run_segment(launcher, spec, lj_argon(), tmp_path, structure=argon)
    thermo = result.thermo
    n = len(argon)
    assert list(thermo["step"][[0, -1]]) == [0, 2000]
    assert thermo["time"][-1] == pytest.approx(4000.0)
    # the fcc start melts: potential energy moves by far more than the total energy
    pe, total = thermo["potential_energy"], thermo["total_energy"]
    assert (pe.max() - pe.min()) / n > 5e-3
    drift = np.abs(total - total[0]).max() / n
    assert drift < 1e-5, f"total energy moved by {drift:.2e} eV/atom over 4 ps"
    assert 100.0 < thermo["temperature"][-1] < 200.0
    stored = read_table(result.thermo_path)
    assert stored.names == thermo.names
    assert result.structure is not None and result.structure.symbols == argon.symbols


def test_spce_water_nvt_with_shake_and_pppm(launcher: LammpsLauncher, tmp_path: Path) -> None:
    water = water_grid(4)  # 64 molecules
    spec = MDSpec(
        "nvt",
        300,
        2.0,
        temperature_k=300.0,
        create_velocities=True,
        zero_momentum=True,
        thermo_every=50,
        dump_every=100,
        heat_flux_every=10,
        seed=11,
    )
    result = run_segment(launcher, spec, spce(), tmp_path, structure=water)
    thermo = result.thermo
    units = {c.name: c.unit for c in thermo.columns}
    assert units["time"] == "fs" and units["temperature"] == "K"
    assert units["pressure"] == "bar" and units["potential_energy"] == "eV"
    assert units["volume"] == "Å^3" and units["density"] == "g/cm^3"
    assert thermo["time"] == pytest.approx(np.arange(0, 601, 100.0))
    assert thermo["density"] == pytest.approx(1.0042, abs=1e-3)
    assert thermo["volume"][0] == pytest.approx(water.volume_a3)
    assert np.all(np.isfinite(thermo["potential_energy"]))
    assert thermo["potential_energy"][-1] < thermo["potential_energy"][0]  # the grid relaxes
    assert 150.0 < thermo["temperature"][-1] < 700.0
    _check_rigid_water(result)
    flux = read_table(result.heat_flux_path) if result.heat_flux_path else None
    assert flux is not None and flux.n_rows == 31
    assert flux.column("jx").unit == "eV*Å/fs" and flux["time"][-1] == pytest.approx(600.0)
    # SHAKE, PPPM and the thermostat carry over a continuation from the restart file,
    # here on two MPI ranks
    more = MDSpec("nvt", 100, 2.0, temperature_k=300.0, thermo_every=50, dump_every=100)
    parallel = LammpsLauncher(launcher.executable, mpi_ranks=2, omp_threads=1)
    assert result.restart_path is not None
    cont = run_segment(parallel, more, spce(), tmp_path / "more", restart=result.restart_path)
    assert cont.call.extra["mpi_ranks"] == "2" and cont.call.command.split()[1:3] == ["-np", "2"]
    assert list(cont.thermo["step"]) == [300, 350, 400]
    assert cont.thermo["potential_energy"][0] == pytest.approx(
        thermo["potential_energy"][-1], rel=1e-6
    )
    _check_rigid_water(cont)


def _check_rigid_water(result: LammpsResult) -> None:
    final = result.structure
    assert final is not None and final.molecule_ids is not None
    assert final.symbols[:3] == ("O", "H", "H")
    atoms = final.to_ase()
    for o in range(0, len(final), 3):
        r1, r2 = atoms.get_distances(o, [o + 1, o + 2], mic=True)
        assert r1 == pytest.approx(1.0, abs=1e-3) and r2 == pytest.approx(1.0, abs=1e-3)
        assert atoms.get_angle(o + 1, o, o + 2, mic=True) == pytest.approx(109.47, abs=0.1)


def test_restart_continues_steps_and_trajectory(launcher: LammpsLauncher, tmp_path: Path) -> None:
    argon = argon_fcc(repeat=3)  # 108 atoms
    first = MDSpec(
        "nvt", 200, 2.0, temperature_k=120.0, create_velocities=True, thermo_every=50, dump_every=50
    )
    seg1 = run_segment(launcher, first, lj_argon(), tmp_path / "seg1", structure=argon)
    assert seg1.restart_path is not None
    again = MDSpec("nvt", 200, 2.0, temperature_k=120.0, thermo_every=50, dump_every=50)
    seg2 = run_segment(launcher, again, lj_argon(), tmp_path / "seg2", restart=seg1.restart_path)

    assert list(seg1.thermo["step"]) == [0, 50, 100, 150, 200]
    assert list(seg2.thermo["step"]) == [200, 250, 300, 350, 400]
    assert seg2.thermo["time"][-1] == pytest.approx(800.0)
    # the continuation starts from exactly the state the first segment ended in
    for name in ("potential_energy", "kinetic_energy"):
        assert seg2.thermo[name][0] == pytest.approx(seg1.thermo[name][-1], rel=1e-8)

    assert seg1.dcd_path is not None and seg2.dcd_path is not None
    h1, h2 = dcd_header(seg1.dcd_path), dcd_header(seg2.dcd_path)
    steps1 = h1["istart"] + h1["nsavc"] * np.arange(h1["n_frames_in_file"])
    steps2 = h2["istart"] + h2["nsavc"] * np.arange(h2["n_frames_in_file"])
    assert list(np.concatenate([steps1, steps2])) == list(range(0, 401, 50))

    assert seg2.manifest_path is not None
    manifest = read_trajectory_manifest(seg2.manifest_path)
    assert (manifest.n_frames, manifest.n_atoms, manifest.unwrapped) == (4, 108, True)
    assert manifest.timestep_fs == 2.0 and manifest.frame_interval_steps == 50
    assert (seg2.workdir / manifest.topology).is_file()


def test_heat_flux_parser_on_a_canned_file(tmp_path: Path) -> None:
    path = tmp_path / "heat_flux.dat"
    path.write_text(
        "# Time-averaged data for fix heat_flux_out\n"
        "# TimeStep c_heat_flux[1] c_heat_flux[2] c_heat_flux[3] c_heat_flux[4] "
        "c_heat_flux[5] c_heat_flux[6]\n"
        "0 1000 -2000 3000 10 20 30\n10 500 0 0 1 2 3\n"
    )
    table = parse_heat_flux(path, timestep_fs=2.0)
    assert list(table["step"]) == [0, 10]
    assert table["time"] == pytest.approx([0.0, 20.0])
    assert table["jx"] == pytest.approx([1.0, 0.5])  # eV·Å/ps -> eV·Å/fs
    assert table["jcz"] == pytest.approx([0.03, 0.003])
    path.write_text("0 1 2\n")
    with pytest.raises(ParseError):
        parse_heat_flux(path)


def test_rerun_in_the_same_folder_reports_only_new_files(
    launcher: LammpsLauncher, tmp_path: Path
) -> None:
    argon = argon_fcc(repeat=2)
    dumped = MDSpec("nve", 20, 2.0, temperature_k=100.0, create_velocities=True, dump_every=10)
    first = run_segment(launcher, dumped, lj_argon(), tmp_path, structure=argon)
    assert first.dcd_path is not None and first.manifest_path is not None
    quiet = MDSpec("minimize", 20, write_restart=False)
    second = run_segment(launcher, quiet, lj_argon(), tmp_path, structure=argon)
    assert second.dcd_path is None and second.restart_path is None
    assert second.manifest_path is None and second.data_path is not None


def test_missing_executable_is_an_engine_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot run"):
        LammpsLauncher(tmp_path / "no-lmp").version()


def test_steps_done_reads_the_current_run_block(tmp_path: Path) -> None:
    from simwright.engines.lammps.log import steps_done

    log = tmp_path / "log.lammps"
    assert steps_done(log) is None
    log.write_text("LAMMPS (22 Jul 2025)\nStep Temp PotEng\n 200 1.0 -3\n 250 1.1 -3\n 300 1 -3\n")
    assert steps_done(log) == 100
