"""The ``[executor]`` profile of config.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.errors import ParseError
from simwright.jobs import ExecutorProfile, parse_profile
from simwright.settings import settings_at


def test_default_is_the_local_pool() -> None:
    assert parse_profile({}) == ExecutorProfile()
    assert not ExecutorProfile().batch


def test_a_slurm_profile_from_config_toml(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[executor]\nkind = "slurm"\nqueue = "short"\naccount = "chem"\n'
        "gpus_per_call = 1\nwalltime_s = 7200\nretries = 3\npoll_interval_s = 0.5\n"
    )
    profile = settings_at(tmp_path, env={}).executor
    assert profile.batch
    assert (profile.queue, profile.account, profile.gpus_per_call) == ("short", "chem", 1)
    assert (profile.walltime_s, profile.retries, profile.poll_interval_s) == (7200.0, 3, 0.5)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"kind": "lsf"}, "kind must be one of local, slurm, pbs"),
        ({"partition": "x"}, "unknown \\[executor\\] key\\(s\\) partition"),
        ({"retries": -1}, "retries must be a whole number"),
        ({"walltime_s": 0}, "walltime_s must be finite and > 0"),
        ({"nodes": 0}, "nodes must be >= 1"),
        ({"queue": 3}, "queue must be a non-empty string"),
    ],
)
def test_bad_profiles_are_refused_by_name(table: dict[str, object], message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_profile(table)
