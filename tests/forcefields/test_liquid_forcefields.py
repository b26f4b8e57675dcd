"""TIP3P, TIP4P/2005, SPC/E's LJ tail option and Tosi–Fumi NaCl: parameters from their
papers, rendered inputs that pass the safety policy, and short real LAMMPS runs with
physics checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk

from simwright.engines.lammps.segment import LammpsLauncher, check_template, find_lmp, run_segment
from simwright.engines.lammps.templates import DataStart, MDSpec, render_input
from simwright.errors import ValidationError
from simwright.forcefields import (
    ForceField,
    KSpace,
    PairStyle,
    Tip4pSite,
    get_forcefield,
    nacl_tosi_fumi,
    spce,
    tip3p,
    tip4p2005,
)
from simwright.structure import Structure
from simwright.units import KB_EV_K

EV_PER_KCAL_MOL = 4.184 / 96.48533212
BAR_PER_EV_A3 = 1.602176634e6


@pytest.fixture(scope="module")
def launcher() -> LammpsLauncher:
    return LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1)


def water_grid(n: int, spacing_a: float, r_oh: float, angle_deg: float) -> Structure:
    half = np.deg2rad(angle_deg / 2)
    h1 = r_oh * np.array([np.sin(half), np.cos(half), 0.0])
    h2 = r_oh * np.array([-np.sin(half), np.cos(half), 0.0])
    symbols: list[str] = []
    positions: list[np.ndarray] = []
    molecules: list[int] = []
    for index, cell in enumerate(np.ndindex(n, n, n), start=1):
        oxygen = np.array(cell) * spacing_a + 0.5
        symbols += ["O", "H", "H"]
        positions += [oxygen, oxygen + h1, oxygen + h2]
        molecules += [index] * 3
    cell = np.eye(3) * n * spacing_a
    return Structure(tuple(symbols), np.array(positions), cell, (True,) * 3, tuple(molecules))


def test_tip3p_is_the_original_jorgensen_1983_model() -> None:
    ff = get_forcefield("TIP3P")
    oxygen, hydrogen = ff.atom_types
    assert (oxygen.charge_e, hydrogen.charge_e) == (-0.834, 0.417)
    assert oxygen.lj.sigma_a == pytest.approx(3.1507, abs=1e-4)
    assert oxygen.lj.epsilon_ev == pytest.approx(0.1521 * EV_PER_KCAL_MOL, rel=1e-3)
    assert hydrogen.lj.epsilon_ev == 0.0  # not the CHARMM variant
    assert (ff.bond_types[0].length_a, ff.angle_types[0].angle_deg) == (0.9572, 104.52)
    assert ff.rigid and ff.constraint is not None and "J. Chem. Phys. 79, 926" in ff.reference


def test_tip4p2005_follows_abascal_vega_2005_with_the_tip4p_styles() -> None:
    ff = get_forcefield("TIP4P/2005")
    oxygen, hydrogen = ff.atom_types
    assert hydrogen.charge_e == 0.5564 and oxygen.charge_e == pytest.approx(-1.1128)
    assert oxygen.lj.epsilon_ev == pytest.approx(93.2 * KB_EV_K)
    assert oxygen.lj.sigma_a == 3.1589
    assert ff.tip4p is not None and ff.tip4p.om_distance_a == 0.1546
    assert ff.kspace is not None and ff.kspace.style == "pppm/tip4p"
    text = render_input(MDSpec("nvt", 10, temperature_k=298.0), ff, DataStart())
    assert "pair_style      lj/cut/tip4p/long 1 2 1 1 0.1546 9\n" in text
    assert "kspace_style    pppm/tip4p 0.0001" in text
    assert "fix             constrain all shake 0.0001 20 0 b 1 a 1" in text


def test_a_tip4p_site_needs_its_pair_style_and_solver() -> None:
    ff = tip4p2005()
    with pytest.raises(ValidationError, match="TIP4P site needs"):
        ForceField(**{**_fields(ff), "kspace": KSpace(1e-4)})
    with pytest.raises(ValidationError, match="TIP4P site needs"):
        ForceField(**{**_fields(ff), "pair_style": PairStyle("lj/cut/coul/long", 9.0)})
    with pytest.raises(ValidationError, match="O–M distance"):
        Tip4pSite("OW", "HW", "OH", "HOH", 1.5)


def _fields(ff: ForceField) -> dict[str, object]:
    return {name: getattr(ff, name) for name in ff.__dataclass_fields__}


def test_tosi_fumi_nacl_parameters_and_born_coefficients() -> None:
    ff = get_forcefield("NaCl")
    na_cl = ff.born("Cl", "Na")
    assert na_cl.a_ev == pytest.approx(0.338e-19 / 1.602176634e-19)
    assert (na_cl.rho_a, na_cl.sigma_a) == (0.317, pytest.approx(2.755))
    assert na_cl.c_ev_a6 == pytest.approx(11.2 * 0.6241509, rel=1e-6)
    assert ff.born("Na", "Na").a_ev == pytest.approx(1.25 * na_cl.a_ev)
    text = render_input(MDSpec("nvt", 10, temperature_k=1200.0), ff, DataStart())
    # LAMMPS' born adds +D/r^8: the attractive Tosi–Fumi term is written as −D
    assert "pair_coeff      1 2 0.2109630067 0.317 2.755 6.990490163 -8.675697614" in text


def test_unknown_water_model_is_refused_by_name() -> None:
    with pytest.raises(ValidationError, match=r"'tip5p'.*known:.*tip3p, tip4p2005"):
        get_forcefield("tip5p")


def test_tosi_fumi_lattice_energy_of_rock_salt(launcher: LammpsLauncher, tmp_path: Path) -> None:
    crystal = Structure.from_ase(bulk("NaCl", "rocksalt", a=5.64, cubic=True).repeat(2))
    spec = MDSpec("nve", 1, 1.0, thermo_every=1, write_restart=False)
    result = run_segment(launcher, spec, nacl_tosi_fumi(cutoff_a=5.6), tmp_path, structure=crystal)
    per_pair = result.thermo["potential_energy"][0] / 32
    # Tosi and Fumi fitted the lattice energy, about −7.9 eV per ion pair (−766 kJ/mol)
    assert -8.3 < per_pair < -7.5


def test_tip3p_and_tip4p2005_run_rigid_with_shake(launcher: LammpsLauncher, tmp_path: Path) -> None:
    water = water_grid(3, 3.1, 0.9572, 104.52)
    spec = MDSpec(
        "nvt", 100, 2.0, temperature_k=298.0, create_velocities=True, thermo_every=50, seed=3
    )
    for ff in (tip3p(cutoff_a=4.6), tip4p2005(cutoff_a=4.6)):
        result = run_segment(launcher, spec, ff, tmp_path / ff.name, structure=water)
        pe = result.thermo["potential_energy"]
        assert np.all(np.isfinite(pe)) and pe[-1] / 27 < -0.1  # hydrogen-bonded, eV/molecule
        final = result.structure
        assert final is not None
        atoms = final.to_ase()
        for o in range(0, len(final), 3):
            assert atoms.get_distance(o, o + 1, mic=True) == pytest.approx(0.9572, abs=1e-3)
            assert atoms.get_angle(o + 1, o, o + 2, mic=True) == pytest.approx(104.52, abs=0.1)


@pytest.mark.parametrize("name", ["tip3p", "tip4p2005", "nacl_tosi_fumi"])
def test_rendered_inputs_pass_the_safety_policy(name: str, tmp_path: Path) -> None:
    ff = get_forcefield(name)
    specs = (
        MDSpec("minimize", 50),
        MDSpec("npt", 10, temperature_k=300.0, pressure_bar=1.0, dump_every=5),
        MDSpec("nvt", 10, temperature_k=300.0, pressure_tensor_every=2, heat_flux_every=2),
    )
    for spec in specs:
        check_template(render_input(spec, ff, DataStart()), tmp_path)  # raises if refused
    assert (tmp_path / "in.lammps").read_text().count(ff.pair_style.kind) == 1


def test_spce_has_the_lj_tail_correction_by_default_and_says_so() -> None:
    on, off = get_forcefield("SPC/E"), spce(tail=False)
    assert on.pair_style.tail and not off.pair_style.tail
    spec = MDSpec("nvt", 10, temperature_k=298.0)
    assert "pair_modify     shift no tail yes\n" in render_input(spec, on, DataStart())
    assert "pair_modify     shift no tail no\n" in render_input(spec, off, DataStart())
    assert "tail correction on (pair_modify shift no tail yes)" in on.pair_style.describe()
    assert "tail correction off" in off.pair_style.describe() and "off" in off.description


def test_spce_tail_correction_matches_the_analytic_lj_tail(
    launcher: LammpsLauncher, tmp_path: Path
) -> None:
    """LAMMPS' energy and pressure with the tail minus without it equal the mean-field
    integrals of the O–O LJ beyond the cutoff: E = (8/3)πNρεσ³[(σ/r_c)⁹/3 − (σ/r_c)³],
    P = (16/3)πρ²εσ³[(2/3)(σ/r_c)⁹ − (σ/r_c)³]."""
    water = water_grid(3, 3.1, 1.0, 109.47)
    spec = MDSpec("nve", 1, 1.0, thermo_every=1, write_restart=False)
    thermo = {
        tail: run_segment(
            launcher, spec, spce(cutoff_a=4.6, tail=tail), tmp_path / str(tail), structure=water
        ).thermo
        for tail in (True, False)
    }
    oxygen = spce().atom_types[0].lj
    assert oxygen is not None
    n, volume = 27, (3 * 3.1) ** 3
    rho, x = n / volume, oxygen.sigma_a / 4.6
    eps_sigma3 = oxygen.epsilon_ev * oxygen.sigma_a**3
    e_tail = 8.0 / 3.0 * np.pi * n * rho * eps_sigma3 * (x**9 / 3.0 - x**3)
    p_tail = 16.0 / 3.0 * np.pi * rho**2 * eps_sigma3 * (2.0 / 3.0 * x**9 - x**3)
    d_energy = thermo[True]["potential_energy"][0] - thermo[False]["potential_energy"][0]
    d_pressure = thermo[True]["pressure"][0] - thermo[False]["pressure"][0]
    assert e_tail < 0 and d_energy == pytest.approx(e_tail, rel=1e-4)
    assert d_pressure == pytest.approx(p_tail * BAR_PER_EV_A3, rel=1e-3)
