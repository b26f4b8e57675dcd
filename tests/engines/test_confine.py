"""The one confinement rule for file and folder names of engine inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.engines.confine import (
    Breach,
    Confinement,
    ConfinementError,
    plain_name,
    relative_name,
    shell_safe,
)


@pytest.fixture
def step(tmp_path: Path) -> Path:
    step = tmp_path / "step"
    (step / "sub").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (step / "out_link").symlink_to(tmp_path / "outside")
    (step / "in_link").symlink_to(step / "sub")
    return step


@pytest.mark.parametrize(
    ("name", "breach"),
    [
        ("", Breach.EMPTY),
        ("a\x00b", Breach.CONTROL),
        ("a\nb", Breach.CONTROL),
        ("~/x", Breach.HOME),
        ("../x", Breach.ESCAPE),
        ("sub/../x", Breach.ESCAPE),  # even one that comes back inside
        ("/etc/passwd", Breach.ABSOLUTE),
        ("out_link/x", Breach.SYMLINK),
    ],
)
def test_names_that_may_leave_the_directory_are_refused(
    step: Path, name: str, breach: Breach
) -> None:
    [violation] = Confinement(step).violations(name)
    assert violation.breach is breach
    with pytest.raises(ConfinementError):
        Confinement(step).require(name)


@pytest.mark.parametrize("name", ["x.data", "sub/x.data", "in_link/x", ".", "a b.txt"])
def test_relative_names_inside_are_accepted(step: Path, name: str) -> None:
    assert Confinement(step).violations(name) == []
    assert Confinement(step).require(name) == step / name


def test_absolute_names_inside_only_where_allowed(step: Path) -> None:
    inside = str(step / "x.data")
    assert Confinement(step).violations(inside)[0].breach is Breach.ABSOLUTE
    assert Confinement(step, allow_absolute_inside=True).violations(inside) == []
    outside = str(step.parent / "outside" / "x")
    assert Confinement(step, allow_absolute_inside=True).violations(outside)[0].breach is (
        Breach.ABSOLUTE
    )


def test_read_roots_allow_reading_never_writing(step: Path) -> None:
    library = step.parent / "outside"
    (library / "Si.sw").write_text("x")
    rule = Confinement(step, (library,))
    assert rule.violations(str(library / "Si.sw"), read=True) == []
    assert rule.violations(str(library / "Si.sw"))[0].breach is Breach.ABSOLUTE
    assert rule.violations("out_link/Si.sw", read=True) == []
    assert rule.violations("out_link/Si.sw")[0].breach is Breach.SYMLINK


def test_control_characters_may_be_let_through_for_message_words(step: Path) -> None:
    assert Confinement(step).violations("line 1\nline 2", controls=False) == []


def test_plain_relative_and_shell_safe_names() -> None:
    assert plain_name("Si.pz-vbc.UPF") is None
    for bad in ("", ".", "..", "dir/x", "/x", "~x", "a\nb"):
        assert plain_name(bad) is not None, bad
    assert relative_name("component_1_water.xyz") is None
    for bad in ("../x.xyz", "/tmp/x.xyz", "a b.xyz", "x;rm.xyz", "~x"):
        assert relative_name(bad) is not None, bad
    assert shell_safe("a-b_c.d/e=f,g@h%i*j:k+l") is None
    assert "'$'" in (shell_safe("a$b") or "")
