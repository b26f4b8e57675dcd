"""pw.x adapter without pw.x: the input template, UPF headers, the pseudopotential library
and the output parser on canned text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk
from ase.units import Bohr, Ry

from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.parse import crash_message, last_structure, parse_output
from simwright.engines.espresso.pseudo import functional_family, read_upf_header
from simwright.engines.espresso.pseudo_library import (
    MissingPseudopotentialError,
    PseudoLibrary,
    check_same_functional,
)
from simwright.engines.espresso.template import KPoints, PwInput, Species, format_value, render
from simwright.errors import ParseError, ValidationError
from simwright.settings import Settings
from simwright.structure import Structure


def si2() -> Structure:
    return Structure.from_ase(bulk("Si", "diamond", a=5.43))


def write_upf_v2(
    path: Path,
    element: str,
    functional: str,
    *,
    kind: str = "US",
    z: float = 4.0,
    rel: str = "scalar",
    wfc: float = 0.0,
    rho: float = 0.0,
) -> Path:
    paw = "T" if kind == "PAW" else "F"
    us = "T" if kind in ("US", "PAW") else "F"
    so = "T" if rel == "full" else "F"
    path.write_text(
        '<UPF version="2.0.1">\n<PP_INFO>made for a test</PP_INFO>\n'
        f'<PP_HEADER element="{element}" pseudo_type="{kind}" relativistic="{rel}"\n'
        f' is_ultrasoft="{us}" is_paw="{paw}" is_coulomb="F" has_so="{so}"\n'
        f' core_correction="F" functional="{functional}" z_valence="{z}"\n'
        f' wfc_cutoff="{wfc}" rho_cutoff="{rho}"/>\n</UPF>\n'
    )
    return path


V1_HEADER = """<PP_INFO>
 test
</PP_INFO>
<PP_HEADER>
   0                   Version Number
  Pt                   Element
   US                  Ultrasoft pseudopotential
    T                  Nonlinear Core Correction
 SLA  PW   PBX  PBC    PBE  Exchange-Correlation functional
   10.00000000000      Z valence
  -89.74702787920      Total energy
     27.476    227.928 Suggested cutoff for wfc and rho
    2                  Max angular momentum component
</PP_HEADER>
<PP_ADDINFO>
</PP_ADDINFO>
"""


# --- template ------------------------------------------------------------------------------


def test_render_writes_namelists_cards_and_managed_variables() -> None:
    inp = PwInput(
        {
            "control": {"calculation": "relax", "tprnfor": True},
            "system": {"ecutwfc": 20.0},
            "electrons": {"mixing_beta": 0.3},
            "ions": {},
        },
        (Species("Si", "Si.pz-vbc.UPF"),),
        si2(),
        KPoints(mesh=(4, 4, 4), shift=(1, 1, 1)),
        fixed=((True, True, True), (False, False, False)),
    )
    text = render(inp)
    expected_start = (
        "&CONTROL\n  pseudo_dir = './pseudo'\n  outdir = './tmp'\n  prefix = 'pwscf'\n"
        "  calculation = 'relax'\n  tprnfor = .true.\n/\n"
        "&SYSTEM\n  ibrav = 0\n  nat = 2\n  ntyp = 1\n  ecutwfc = 20.0\n/\n"
        "&ELECTRONS\n  mixing_beta = 0.3\n/\n&IONS\n/\n"
        "ATOMIC_SPECIES\n  Si 28.085000 Si.pz-vbc.UPF\n"
        "CELL_PARAMETERS angstrom\n"
    )
    assert text.startswith(expected_start)
    assert "&CELL" not in text
    assert "  Si 0.0000000000 0.0000000000 0.0000000000 0 0 0\n" in text
    assert "  Si 1.3575000000 1.3575000000 1.3575000000 1 1 1\n" in text
    assert text.endswith("K_POINTS automatic\n  4 4 4 1 1 1\n")


def test_template_refuses_managed_variables_missing_species_and_bad_namelists() -> None:
    with pytest.raises(ValidationError, match="set by simwright"):
        render(PwInput({"system": {"nat": 2}}, (Species("Si", "x.UPF"),), si2()))
    with pytest.raises(ValidationError, match="no species"):
        PwInput({}, (Species("C", "C.UPF"),), si2())
    with pytest.raises(ValidationError, match="unknown namelist"):
        PwInput({"foo": {}}, (Species("Si", "x.UPF"),), si2())
    with pytest.raises(ValidationError, match="k-point"):
        KPoints(mesh=(0, 1, 1))


def test_values_are_written_as_fortran_reads_them() -> None:
    assert format_value(True) == ".true." and format_value(False) == ".false."
    assert format_value(3) == "3" and format_value(1e-8) == "1e-08"
    assert format_value("it's") == "'it''s'"
    assert KPoints("gamma").render() == "K_POINTS gamma\n"


def test_with_values_adds_replaces_and_removes() -> None:
    inp = PwInput({"system": {"ecutwfc": 20.0, "nbnd": 4}}, (Species("Si", "x.UPF"),), si2())
    new = inp.with_values(
        {"system": {"nbnd": None, "ecutwfc": 25.0}, "electrons": {"conv_thr": 1e-9}}
    )
    assert new.namelists["system"] == {"ecutwfc": 25.0}
    assert new.get("electrons", "conv_thr") == 1e-9
    assert inp.get("system", "nbnd") == 4  # the original is unchanged


def test_launcher_uses_mpirun_with_root_permission_only_when_asked() -> None:
    assert PwLauncher().argv() == ["pw.x", "-in", "pw.in"]
    mpi = PwLauncher(mpi_ranks=2, as_root=True, mpirun="mpirun").argv()
    assert mpi == ["mpirun", "--allow-run-as-root", "-np", "2", "pw.x", "-in", "pw.in"]
    beside = PwLauncher(mpi_ranks=2, as_root=False).argv()  # the mpirun installed with pw.x
    assert beside[0].endswith("mpirun") and beside[1:] == ["-np", "2", "pw.x", "-in", "pw.in"]
    assert "--allow-run-as-root" not in PwLauncher(mpi_ranks=2, as_root=False).argv()
    settings = Settings(home=Path("/tmp"), mpi_ranks=4, engine_paths={"pw.x": "/opt/qe/pw.x"})
    launcher = PwLauncher.from_settings(settings)
    assert launcher.executable == "/opt/qe/pw.x" and launcher.mpi_ranks == 4


# --- pseudopotential headers ----------------------------------------------------------------


def test_functional_family_from_header_strings() -> None:
    assert functional_family(" SLA  PZ   NOGX NOGC") == "lda"
    assert functional_family("SLA PW PBX PBC PBE") == "pbe"
    assert functional_family("SLA-PW-PBX-PBC") == "pbe"
    assert functional_family("PBE") == "pbe"
    assert functional_family("SLA PW PSX PSC") == "pbesol"
    assert functional_family("SLA PW PBE PBE") == "pbe"


def test_upf_headers_are_read_not_file_names(tmp_path: Path) -> None:
    # a file named like a PBE potential whose header says LDA is an LDA potential
    info = read_upf_header(
        write_upf_v2(
            tmp_path / "Si.pbe-misnamed.UPF",
            "Si",
            "SLA PZ NOGX NOGC",
            kind="NC",
            wfc=24.0,
            rho=96.0,
        )
    )
    assert (info.element, info.functional, info.kind) == ("Si", "lda", "NC")
    assert (info.wfc_cutoff_ry, info.rho_cutoff_ry) == (24.0, 96.0)
    v1 = tmp_path / "whatever.UPF"
    v1.write_text(V1_HEADER)
    pt = read_upf_header(v1)
    assert (pt.element, pt.functional, pt.kind, pt.upf_version) == ("Pt", "pbe", "US", 1)
    assert pt.fully_relativistic and pt.wfc_cutoff_ry == pytest.approx(27.476)
    bad = tmp_path / "notupf"
    bad.write_text("hello")
    with pytest.raises(ParseError, match="PP_HEADER"):
        read_upf_header(bad)


def test_core_hole_potentials_are_recognised(tmp_path: Path) -> None:
    normal = read_upf_header(write_upf_v2(tmp_path / "a.UPF", "Rh", "PBE", z=9.0))
    excited = read_upf_header(write_upf_v2(tmp_path / "b.UPF", "Rh", "PBE", z=10.0))
    assert not normal.excited_core and excited.excited_core


# --- the library ----------------------------------------------------------------------------


@pytest.fixture
def library_dirs(tmp_path: Path) -> tuple[Path, Path]:
    system, user = tmp_path / "system", tmp_path / "user"
    system.mkdir()
    user.mkdir()
    write_upf_v2(system / "Si.lda.UPF", "Si", "SLA PZ NOGX NOGC", kind="NC")
    write_upf_v2(system / "Si.pbe.UPF", "Si", "PBE", kind="US", wfc=44.0, rho=175.0)
    write_upf_v2(system / "Al.lda.UPF", "Al", "SLA PZ NOGX NOGC", kind="NC", z=3.0)
    write_upf_v2(system / "Pt.rel.UPF", "Pt", "PBE", kind="US", z=10.0, rel="full")
    write_upf_v2(user / "O.pbe.UPF", "O", "PBE", kind="PAW", z=6.0, wfc=50.0, rho=400.0)
    return system, user


def test_library_prefers_the_requested_functional_and_reports_substitutions(library_dirs) -> None:
    lib = PseudoLibrary(library_dirs)
    si = lib.select(["Si"], "pbe")
    assert si.pseudos[0].name == "Si.pbe.UPF" and not si.spin_orbit and not si.assumed
    assert si.cutoffs_ry() == (44.0, 176.0)
    al = lib.select(["Al"])  # no PBE Al: LDA, reported
    assert al.functional == "lda" and any("LDA" in a for a in al.assumed)
    assert al.cutoffs_ry() == (30.0, 120.0)  # floor for files without a suggestion
    sio = lib.select(["Si", "O"])  # O comes from the user library
    assert [p.name for p in sio.pseudos] == ["Si.pbe.UPF", "O.pbe.UPF"]
    assert sio.cutoffs_ry() == (50.0, 400.0)


def test_fully_relativistic_files_switch_on_spin_orbit(library_dirs) -> None:
    lib = PseudoLibrary(library_dirs)
    pt = lib.select(["Pt"], "pbe")
    assert pt.spin_orbit and any("spin-orbit" in a for a in pt.assumed)
    with pytest.raises(ValidationError, match="spin-orbit"):
        lib.select(["Pt"], "pbe", spin_orbit=False)


def test_missing_pseudopotential_names_element_functional_and_directories(library_dirs) -> None:
    lib = PseudoLibrary(library_dirs)
    with pytest.raises(MissingPseudopotentialError) as info:
        lib.select(["Al"], "pbe")
    message = str(info.value)
    assert "PBE" in message and "Al" in message and "lda" in message
    assert all(str(d) in message for d in library_dirs)
    with pytest.raises(MissingPseudopotentialError, match="no usable Mo file"):
        lib.select(["Mo"])


def test_mixing_functionals_is_refused(library_dirs) -> None:
    lib = PseudoLibrary(library_dirs)
    with pytest.raises(ValidationError, match="cannot be mixed"):
        check_same_functional([lib.by_name("Si.lda.UPF"), lib.by_name("O.pbe.UPF")])


# --- the output parser ----------------------------------------------------------------------

CANNED = """
     Program PWSCF v.6.7MaX starts on 30Nov2026 at 18:47:20
     number of electrons       =         8.00
     number of Kohn-Sham states=            8
     iteration #  1     ecut=    25.00 Ry     beta= 0.30
     iteration #  2     ecut=    25.00 Ry     beta= 0.30
     the Fermi energy is    12.7842 ev

!    total energy              =     -55.80348870 Ry
     total magnetization       =     2.30 Bohr mag/cell
     absolute magnetization    =     2.47 Bohr mag/cell

     convergence has been achieved in   2 iterations

     Forces acting on atoms (cartesian axes, Ry/au):

     atom    1 type  1   force =     0.01000000    0.00000000   -0.02000000

     Total force =     0.000000     Total SCF correction =     0.000000


     Computing stress (Cartesian axis) and pressure

          total   stress  (Ry/bohr**3)                   (kbar)     P=      -62.01
  -0.00042152  -0.00000000  -0.00000000          -62.01       -0.00       -0.00
  -0.00000000  -0.00042152  -0.00000000           -0.00      -62.01       -0.00
  -0.00000000  -0.00000000  -0.00042152           -0.00       -0.00      -62.01

     PWSCF        :      1.23s CPU      1m 2.50s WALL

   JOB DONE.
"""


def test_parser_converts_units_at_the_edge() -> None:
    out = parse_output(CANNED)
    assert out.job_done and out.version == "6.7MaX" and out.scf_converged
    assert out.energy_ev == pytest.approx(-55.80348870 * Ry)
    assert out.fermi_energy_ev == pytest.approx(12.7842)
    assert out.forces_ev_a is not None
    assert out.forces_ev_a[0] == pytest.approx(np.array([0.01, 0.0, -0.02]) * Ry / Bohr)
    assert out.stress_bar is not None and out.stress_bar[0, 0] == pytest.approx(-62010.0)
    assert out.pressure_bar == pytest.approx(-62010.0)
    assert out.total_magnetization == pytest.approx(2.3)
    assert out.scf_iterations == (2,) and out.n_bands == 8 and out.n_electrons == 8.0
    assert out.wall_s == pytest.approx(62.5)
    assert out.relax_converged is None


def test_parser_reads_unconverged_scf_and_relaxation_geometry() -> None:
    text = (
        "     convergence NOT achieved after   2 iterations: stopping\n"
        "     BFGS Geometry Optimization\n"
        "     The maximum number of steps has been reached.\n"
        "CELL_PARAMETERS (alat= 10.00000000)\n"
        "   0.0 0.5 0.5\n   0.5 0.0 0.5\n   0.5 0.5 0.0\n\n"
        "ATOMIC_POSITIONS (angstrom)\n"
        "Si 0.1 0.0 0.0\nSi 1.4 1.4 1.4\n"
    )
    out = parse_output(text)
    assert not out.scf_converged and out.max_steps_reached and out.relax_converged is False
    final = last_structure(text, si2())
    assert final is not None
    assert final.positions[0] == pytest.approx([0.1, 0.0, 0.0])
    assert final.cell[0, 1] == pytest.approx(5.0 * Bohr)


def test_crash_message_drops_the_frame() -> None:
    crash = (
        " %%%%%%%%%%\n     task #         0\n     from setup : error #         1\n"
        "     too few bands\n %%%%%%%%%%\n"
    )
    assert crash_message(crash) == "from setup : error #         1\ntoo few bands"
