"""The entry point parses with the one branch of the application that the call names."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import typer.main

from simwright.cli.main import app, app_for

FULL: Any = typer.main.get_command(app)  # a group (typer ships its own click)


def _params(command: Any) -> list[tuple[str | None, tuple[str, ...]]]:
    return [(p.name, tuple(p.opts)) for p in command.params]


def test_each_top_level_name_gets_the_same_command_alone() -> None:
    for name, full in FULL.commands.items():
        slim: Any = typer.main.get_command(app_for([name, "--help"]))
        assert list(slim.commands) == [name]
        assert _params(slim.commands[name]) == _params(full)
        assert slim.commands[name].help == full.help
        if hasattr(full, "commands"):
            assert sorted(slim.commands[name].commands) == sorted(full.commands)


def test_top_level_help_unknown_names_and_leading_options_use_the_whole_app() -> None:
    for argv in ([], ["--help"], ["no-such-command"]):
        whole: Any = typer.main.get_command(app_for(argv))
        assert sorted(whole.commands) == sorted(FULL.commands)


def test_the_script_answers_through_the_branch() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "simwright", "version", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"simwright"' in done.stdout
    unknown = subprocess.run(
        [sys.executable, "-m", "simwright", "no-such-command"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert unknown.returncode == 2
    assert "No such command" in unknown.stderr
