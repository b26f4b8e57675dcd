"""Model-written inputs of the pw.x and PACKMOL executors go through the one confinement rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.agents.execution.adapters import PackmolAdapter, PwAdapter, confined

PW = """\
&CONTROL
  calculation = 'scf'
  {control}
/
&SYSTEM
  ibrav = 2, celldm(1) = 10.2, nat = 2, ntyp = 1, ecutwfc = 12.0
/
&ELECTRONS
/
ATOMIC_SPECIES
  Si 28.086 {pseudo}
ATOMIC_POSITIONS alat
  Si 0.00 0.00 0.00
  Si 0.25 0.25 0.25
K_POINTS gamma
"""


def check_pw(tmp_path: Path, control: str = "", pseudo: str = "Si.pz-vbc.UPF") -> tuple[bool, str]:
    script = tmp_path / "pw.in"
    script.write_text(PW.format(control=control, pseudo=pseudo))
    check = PwAdapter(executable=None).check(script, tmp_path)
    return check.ok, check.text


def test_a_confined_pw_input_passes(tmp_path: Path) -> None:
    ok, text = check_pw(tmp_path, "outdir = './tmp', prefix = 'si', pseudo_dir = './pseudo'")
    assert ok, text


@pytest.mark.parametrize(
    ("control", "pseudo", "culprit"),
    [
        ("wfcdir = '/tmp/wfc'", "Si.pz-vbc.UPF", "wfcdir"),
        ("outdir = '../out'", "Si.pz-vbc.UPF", "outdir"),
        ("prefix = '../../si'", "Si.pz-vbc.UPF", "prefix"),
        ("pseudo_dir = '/usr/share/espresso/pseudo'", "Si.pz-vbc.UPF", "pseudo_dir"),
        ("", "../../../etc/Si.UPF", "ATOMIC_SPECIES"),
    ],
)
def test_pw_paths_leaving_the_folder_are_refused(
    tmp_path: Path, control: str, pseudo: str, culprit: str
) -> None:
    ok, text = check_pw(tmp_path, control, pseudo)
    assert not ok and culprit in text


def test_packmol_names_and_agent_file_names_use_the_rule(tmp_path: Path) -> None:
    script = tmp_path / "mix.inp"
    script.write_text("tolerance 2.0\noutput ../../packed.xyz\n")
    check = PackmolAdapter(executable=None).check(script, tmp_path)
    assert not check.ok and "leaves the working directory" in check.text
    assert check.security == ("path",)
    assert confined("ok.in", tmp_path) is None
    assert confined("a b.in", tmp_path) is not None
    assert confined("sub/../x.in", tmp_path) is not None
