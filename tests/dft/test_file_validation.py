"""Validation of whole pw.x input files: valid inputs pass, truly invalid ones are refused.

The fixtures under ``tests/fixtures/pw_inputs`` are valid pw.x 6.7 inputs (each one
runs, see the last test) that the earlier validator refused: two assignments on
one line, ``occupations='tetrahedra-lin'``, ``nspin=2`` with ``from_input``
occupations, ``efield=0`` with ``lelfield=.false.``, double-quoted strings.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simwright.agents.execution.adapters import PwAdapter
from simwright.cli.dft import dft_app
from simwright.dft.file_checks import validate_text
from simwright.dft.validation import errors
from simwright.errors import ParseError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "pw_inputs"
VALID = sorted(FIXTURES.glob("*.in"))
SI = (FIXTURES / "two_assignments_per_line.in").read_text()


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_inputs_get_no_error(path: Path) -> None:
    assert errors(validate_text(path.read_text())) == []


@pytest.mark.parametrize(
    ("change", "kind", "name"),
    [
        (("ecutwfc = 12.0", "ecutwfcc = 12.0"), "unknown_variable", "ecutwfcc"),
        (("ecutwfc = 12.0", "ecutwfc = 'twelve'"), "wrong_type", "ecutwfc"),
        (("ecutwfc = 12.0", "ecutwfc = 12.0, nspin = 3"), "not_allowed", "nspin"),
        (("ATOMIC_POSITIONS alat", "ATOMIC_SPECIES_X"), "missing_namelist", "ATOMIC_POSITIONS"),
        (
            ("ecutwfc = 12.0", "ecutwfc = 12.0, london = .true., vdw_corr = 'grimme-d3'"),
            "inconsistent",
            "vdw_corr",
        ),
        (
            ("ecutwfc = 12.0", "ecutwfc = 12.0, nspin = 2, noncolin = .true."),
            "inconsistent",
            "nspin",
        ),
        (
            ("ecutwfc = 12.0", "ecutwfc = 12.0, nspin = 2"),
            "missing_dependency",
            "tot_magnetization",
        ),
        (("ecutwfc = 12.0", "ecutwfc = 12.0, ecutrho = 10.0"), "inconsistent", "ecutrho"),
        (("celldm(1) = 10.26, ", ""), "missing_dependency", "celldm(1)"),
        (("nat = 2,", "nat = 3,"), "inconsistent", "ATOMIC_POSITIONS"),
        (("&system", "&sistem"), "missing_namelist", "&SYSTEM"),
    ],
)
def test_truly_invalid_inputs_are_still_refused(
    change: tuple[str, str], kind: str, name: str
) -> None:
    old, new = change
    assert old in SI
    found = {(p.kind, p.name) for p in errors(validate_text(SI.replace(old, new, 1)))}
    assert (kind, name) in found


def test_nspin2_needs_a_moment_unless_occupations_are_given() -> None:
    metal = SI.replace(
        "ecutwfc = 12.0", "ecutwfc = 12.0, nspin = 2, occupations='smearing', degauss=0.02"
    )
    assert {p.name for p in errors(validate_text(metal))} == {"starting_magnetization"}
    zero = metal.replace("nspin = 2", "nspin = 2, starting_magnetization(1) = 0.0")
    problems = validate_text(zero)
    assert errors(problems) == [] and any(p.name == "starting_magnetization" for p in problems)


def test_paths_of_a_whole_file_are_not_reserved() -> None:
    """A pw.x file written by someone else names its folders; only the template reserves them."""
    paths = "outdir = './tmp', prefix = 'si', pseudo_dir = '/opt/pp',"
    assert (
        errors(validate_text(SI.replace("calculation = 'scf',", f"{paths} calculation = 'scf',")))
        == []
    )


def test_a_namelist_pw_skips_is_a_warning() -> None:
    """pw.x 6.7 skips a group it does not read (a later &FCP) and runs."""
    text = SI.replace("ATOMIC_SPECIES", "&fcp\n  fcp_mu = 0.1\n/\nATOMIC_SPECIES")
    [p] = validate_text(text)
    assert p.severity == "warning" and p.name == "&FCP"


def test_has_no_effect_is_a_warning_and_the_default_value_says_nothing() -> None:
    text = SI.replace("mixing_beta = 0.6", "mixing_beta = 0.6, efield = 0.01")
    [p] = validate_text(text)
    assert p.severity == "warning" and p.name == "efield" and "no effect" in p.message
    assert validate_text(SI.replace("mixing_beta = 0.6", "mixing_beta = 0.6, efield = 0.0")) == []


def test_an_unclosed_namelist_is_unreadable() -> None:
    with pytest.raises(ParseError):
        validate_text(SI.replace("mixing_beta = 0.6 /", "mixing_beta = 0.6"))


def _cli(*args: str) -> tuple[int, list[dict]]:
    res = CliRunner().invoke(dft_app, ["validate", *args, "--json"])
    return res.exit_code, [json.loads(line) for line in res.stdout.splitlines() if line.strip()]


def test_cli_validates_a_directory_one_json_line_per_file(tmp_path: Path) -> None:
    code, lines = _cli(str(FIXTURES))
    assert code == 0 and [Path(x["file"]).name for x in lines] == [p.name for p in VALID]
    assert all(x["ok"] for x in lines)
    (tmp_path / "good.in").write_text(SI)
    (tmp_path / "bad.in").write_text(SI.replace("ecutwfc", "ecutwfcc"))
    code, lines = _cli(str(tmp_path))
    assert code == 1 and [x["ok"] for x in lines] == [False, True]
    assert lines[0]["problems"][0]["suggestion"] == "ecutwfc"
    (tmp_path / "broken.in").write_text("&control\n calculation='scf'\n")
    code, lines = _cli(str(tmp_path))
    broken = [x for x in lines if Path(x["file"]).name == "broken.in"]
    assert code == 2 and len(lines) == 3 and broken[0]["error_type"] == "ParseError"


def test_cli_refuses_a_missing_path_and_still_reads_yaml(tmp_path: Path) -> None:
    code, [out] = _cli(str(tmp_path / "nowhere.in"))
    assert code == 2 and "does not exist" in out["error"]
    spec = tmp_path / "input.yaml"
    spec.write_text("system:\n  occupations: tetrahedra-lin\n")
    code, [out] = _cli(str(spec))
    assert code == 0 and out["ok"]
    res = CliRunner().invoke(dft_app, ["validate", str(FIXTURES / "tetrahedra_lin.in")])
    assert res.exit_code == 0 and "no problems found" in res.stdout


def test_the_agents_pw_gate_reads_with_the_same_parser(tmp_path: Path) -> None:
    adapter = PwAdapter(executable=None)
    script = tmp_path / "pw.in"
    script.write_text(SI)
    assert adapter.check(script, tmp_path).ok
    script.write_text(SI.replace("ecutwfc", "ecutwfcc"))
    verdict = adapter.check(script, tmp_path)
    assert not verdict.ok and "ecutwfc" in verdict.text


@pytest.mark.skipif(shutil.which("pw.x") is None, reason="pw.x is not installed")
@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_pw67_itself_accepts_every_fixture(tmp_path: Path, path: Path) -> None:
    """The fixtures are valid: pw.x 6.7 reads them and finishes (JOB DONE, no CRASH file)."""
    proc = subprocess.run(
        ["pw.x", "-in", str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "JOB DONE" in proc.stdout and not (tmp_path / "CRASH").exists()
