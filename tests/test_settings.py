"""Settings read at the edge: the remember_runs switch from the file and the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.errors import ParseError
from simwright.settings import load_settings


def test_runs_are_remembered_by_default(tmp_path: Path) -> None:
    assert load_settings({"SIMWRIGHT_HOME": str(tmp_path)}).remember_runs is True


def test_the_file_and_the_environment_switch_it_off(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("remember_runs = false\n")
    assert load_settings({"SIMWRIGHT_HOME": str(tmp_path)}).remember_runs is False
    env = {"SIMWRIGHT_HOME": str(tmp_path), "SIMWRIGHT_REMEMBER_RUNS": "yes"}
    assert load_settings(env).remember_runs is True  # the environment wins


def test_a_bad_value_is_refused_with_its_name(tmp_path: Path) -> None:
    env = {"SIMWRIGHT_HOME": str(tmp_path), "SIMWRIGHT_REMEMBER_RUNS": "sometimes"}
    with pytest.raises(ParseError, match="remember_runs"):
        load_settings(env)
