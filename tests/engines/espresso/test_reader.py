"""Reading pw.x input files: namelists through f90nml, cards, and the round trip with render."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk
from ase.units import Bohr

from simwright.engines.espresso.reader import parse_pw_file, read_pw_input
from simwright.engines.espresso.template import KPoints, PwInput, Species, render
from simwright.errors import ParseError, ValidationError
from simwright.structure import Structure

FIXTURES = Path(__file__).parents[2] / "fixtures" / "pw_inputs"

GOLDEN = """Free text before the first namelist is skipped, as pw.x does
&CONTROL
  calculation = "relax", tprnfor=.true. tstress=.true.  ! two on one line
  title = 'it''s / not a terminator'
/
&system ibrav = 2, celldm(1) = 10.2, nat = 2, ntyp = 1
  ecutwfc = 20, starting_magnetization(1) = 0.5, Hubbard_U(2) = 1d0
  starting_ns_eigenvalue(3,2,1) = 0.0
/
&electrons conv_thr = 1.d-8 /
&IONS
/
ATOMIC_SPECIES
  Si 28.086 Si.pz-vbc.UPF   ! a comment
ATOMIC_POSITIONS {alat}
  Si 0.00 0.00 0.00
  Si 0.25 0.25 0.25 0 0 1
K_POINTS automatic
  4 4 4 1 1 1
"""


def test_golden_file_reads_every_namelist_value_and_card() -> None:
    f = parse_pw_file(GOLDEN)
    assert f.namelist_order == ("control", "system", "electrons", "ions")
    assert f.namelists["control"] == {
        "calculation": "relax",
        "tprnfor": True,
        "tstress": True,
        "title": "it's / not a terminator",
    }
    assert f.namelists["system"] == {
        "ibrav": 2,
        "celldm(1)": 10.2,
        "nat": 2,
        "ntyp": 1,
        "ecutwfc": 20,
        "starting_magnetization(1)": 0.5,
        "Hubbard_U(2)": 1.0,
        "starting_ns_eigenvalue(3,2,1)": 0.0,
    }
    assert f.namelists["electrons"] == {"conv_thr": 1e-8}
    assert f.namelists["ions"] == {}
    assert f.cards["ATOMIC_SPECIES"].rows == (("Si", "28.086", "Si.pz-vbc.UPF"),)
    positions = f.cards["ATOMIC_POSITIONS"]
    assert positions.option == "alat" and positions.rows[1] == (
        "Si",
        "0.25",
        "0.25",
        "0.25",
        "0",
        "0",
        "1",
    )
    assert f.cards["K_POINTS"].option == "automatic"


def test_golden_file_becomes_a_pw_input() -> None:
    inp = read_pw_input(GOLDEN)
    assert inp.species == (Species("Si", "Si.pz-vbc.UPF", 28.086),)
    assert inp.kpoints == KPoints("automatic", (4, 4, 4), (1, 1, 1))
    assert inp.fixed == ((False, False, False), (True, True, False))
    alat = 10.2 * Bohr
    assert np.allclose(inp.structure.cell, np.array([[-1, 0, 1], [0, 1, 1], [-1, 1, 0]]) * alat / 2)
    assert np.allclose(inp.structure.positions[1], [0.25 * alat] * 3)
    assert "ibrav" not in inp.namelists["system"] and "celldm(1)" not in inp.namelists["system"]
    assert inp.get("electrons", "conv_thr") == 1e-8


def test_render_then_read_gives_the_same_input_back() -> None:
    inp = PwInput(
        {
            "control": {"calculation": "relax", "tprnfor": True},
            "system": {
                "ecutwfc": 30.0,
                "nspin": 2,
                "starting_magnetization(1)": 0.5,
                "occupations": "smearing",
                "degauss": 0.02,
            },
            "electrons": {"conv_thr": 1e-8, "mixing_mode": "local-TF"},
        },
        (Species("Fe", "Fe.pbe-nd-rrkjus.UPF", 55.845),),
        Structure.from_ase(bulk("Fe", "bcc", a=2.87, cubic=True)),
        KPoints("automatic", (4, 4, 4), (1, 1, 1)),
        ((True, True, True), (False, False, False)),
    )
    text = render(inp)
    back = read_pw_input(text)
    assert back.namelists == inp.namelists
    assert back.species == inp.species and back.kpoints == inp.kpoints and back.fixed == inp.fixed
    assert np.allclose(back.structure.positions, inp.structure.positions, atol=1e-9)
    assert np.allclose(back.structure.cell, inp.structure.cell, atol=1e-9)
    assert render(back) == text


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.in")), ids=lambda p: p.name)
def test_every_fixture_parses(path: Path) -> None:
    f = parse_pw_file(path.read_text())
    assert {"control", "system", "electrons"} <= set(f.namelists)
    assert "ATOMIC_SPECIES" in f.cards and "ATOMIC_POSITIONS" in f.cards


def test_two_assignments_on_one_line_are_two_variables() -> None:
    f = parse_pw_file((FIXTURES / "two_assignments_per_line.in").read_text())
    assert f.namelists["control"] == {"calculation": "scf", "tprnfor": True, "tstress": True}
    assert f.namelists["electrons"] == {"conv_thr": 1e-8, "mixing_beta": 0.6}


def test_double_quotes_are_fortran_quotes() -> None:
    f = parse_pw_file((FIXTURES / "double_quoted.in").read_text())
    assert f.get("calculation") == "relax" and f.get("ion_dynamics") == "bfgs"
    assert f.get("title") == "it's a dimer"


@pytest.mark.parametrize(
    "text",
    [
        "&control\n calculation = 'scf'\n",  # never closed
        "&control\n calculation = 'scf' 'nscf' = 3\n/\n",  # not a namelist
    ],
)
def test_unreadable_namelists_are_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_pw_file(text)


def test_what_the_template_cannot_express_is_named() -> None:
    text = GOLDEN.replace("K_POINTS automatic\n  4 4 4 1 1 1", "K_POINTS tpiba\n 1\n 0 0 0 1")
    with pytest.raises(ValidationError, match="K_POINTS tpiba"):
        read_pw_input(text)
    with pytest.raises(ValidationError, match="ATOMIC_POSITIONS"):
        read_pw_input(GOLDEN.split("ATOMIC_POSITIONS")[0])
