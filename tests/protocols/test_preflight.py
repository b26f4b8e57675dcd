"""The preflight: every check before a run exists, and the estimates it refuses with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from simwright.protocols import load_protocols
from simwright.protocols.estimate import DCD_BYTES_PER_ATOM, DCD_FRAME_OVERHEAD, Estimate
from simwright.protocols.preflight import PreflightError, preflight
from simwright.settings import Limits, Settings

PROTOCOLS = load_protocols()


def _check(name: str, raw: dict, settings: Settings):
    proto = PROTOCOLS[name]
    return preflight(proto, proto.validate(raw), settings)


def test_infinite_numbers_are_refused(settings: Settings) -> None:
    checked = _check("lattice_constant", {"element": "Cu", "a_guess_a": float("inf")}, settings)
    assert not checked.ok
    assert checked.problems == ("a_guess_a: inf is not a finite number",)
    with pytest.raises(PreflightError, match="refused before any run was created"):
        checked.require()


def test_an_unknown_calculator_names_the_allowed_ones(settings: Settings) -> None:
    checked = _check("lattice_constant", {"element": "Cu", "calculator": "os:fork"}, settings)
    (problem,) = checked.problems
    assert "unknown calculator 'os:fork'; allowed: emt, lj, sevennet, chgnet" in problem


def test_the_installation_allow_list_admits_a_plugin(settings: Settings) -> None:
    raw = {"element": "Cu", "calculator": "helpers.slowcalc:SlowEMT"}
    assert not _check("lattice_constant", raw, settings).ok
    allowed = replace(settings, plugins=("helpers.slowcalc:SlowEMT",))
    assert _check("lattice_constant", raw, allowed).ok


def test_a_long_run_with_dense_dumps_is_refused_with_its_estimate(settings: Settings) -> None:
    raw = {"production_ps": 1e6, "dump_interval_fs": 5}
    checked = _check("diffusivity", raw, settings)
    est = checked.estimate
    assert est is not None and est.atoms == 216 * 3
    production_frames = 1e6 * 1000 / 5
    frame = est.atoms * DCD_BYTES_PER_ATOM + DCD_FRAME_OVERHEAD
    assert est.output_bytes >= production_frames * frame > 1e12
    assert est.md_steps > 1e6 * 1000 / 2  # production alone at 2 fs
    assert any("exceeds the limit of 20 GB" in p for p in checked.problems)
    assert any("core-hours exceed the limit of 48" in p for p in checked.problems)
    with pytest.raises(PreflightError) as refused:
        checked.require()
    assert "DCD frames" in str(refused.value) and "TB" in str(refused.value)


def test_the_demo_fits_and_gets_a_wall_time_limit_per_engine_call(settings: Settings) -> None:
    checked = _check("diffusivity", {}, settings)
    assert checked.ok, checked.problems
    est = checked.estimate
    assert est is not None and est.md_steps == 200 + 10_000 + 50_000 + 2 * 25_000
    assert est.output_bytes < 1e8 and est.core_hours < 1
    assert {"lmp", "packmol"} <= set(checked.executables)
    limits = settings.limits
    assert checked.call_limit_s == max(
        limits.min_walltime_s, limits.walltime_factor * est.longest_call_core_s
    )
    run_settings = checked.run_settings(settings)
    assert run_settings.limits.engine_timeout_s == checked.call_limit_s


def test_limits_come_from_settings(settings: Settings) -> None:
    tight = replace(settings, limits=Limits(max_core_hours=0.01, engine_walltime_s=5.0))
    checked = _check("diffusivity", {}, tight)
    assert any("exceed the limit of 0.01" in p for p in checked.problems)
    assert checked.call_limit_s == 5.0


def test_missing_executables_say_how_to_install_them(settings: Settings) -> None:
    broken = replace(settings, engine_paths={"lmp": "/nonexistent/lmp", "pw.x": "/no/pw.x"})
    md = _check("diffusivity", {}, broken)
    assert md.problems == (
        "the executable 'lmp' is missing at the configured path '/nonexistent/lmp': "
        "install it with pip install 'simwright[md]'",
    )
    dft = _check("dft_scf", {"formula": "Si"}, broken)
    assert "'pw.x' is missing" in dft.problems[0]
    assert "apt-get install quantum-espresso" in dft.problems[0]


def test_a_reserved_override_is_refused_before_the_run(settings: Settings) -> None:
    raw = {"formula": "Si", "overrides": {"system": {"nat": 5}}}
    checked = _check("dft_scf", raw, settings)
    assert checked.problems == ("nat are set by simwright's template; remove them from the input",)
    fine = _check("dft_scf", {"formula": "Si"}, settings)
    assert fine.ok and fine.estimate is not None and fine.estimate.scf_cycles == 1


def test_dft_estimate_counts_the_eos_volumes(settings: Settings) -> None:
    checked = _check("dft_eos", {"formula": "Si", "n_points": 7}, settings)
    assert checked.ok, checked.problems
    est = checked.estimate
    assert est is not None and est.engine_calls == 7 and est.atoms == 2


def test_call_limit_has_a_floor_and_a_factor() -> None:
    est = Estimate(atoms=10, longest_call_core_s=100.0)
    assert est.call_limit_s(Limits(walltime_factor=10, min_walltime_s=60)) == 1000.0
    assert est.call_limit_s(Limits(walltime_factor=10, min_walltime_s=5000)) == 5000.0
    assert est.call_limit_s(Limits(engine_walltime_s=7.0)) == 7.0


def test_config_toml_limits_and_plugins(tmp_path: Path) -> None:
    from simwright.errors import ParseError
    from simwright.settings import settings_at

    (tmp_path / "config.toml").write_text(
        '[plugins]\nallow = ["pkg.mod:Calc"]\n[limits]\nmax_output_gb = 1.5\nmax_core_hours = 2\n'
    )
    s = settings_at(tmp_path, env={})
    assert s.plugins == ("pkg.mod:Calc",)
    assert s.limits.max_output_gb == 1.5 and s.limits.max_core_hours == 2.0
    (tmp_path / "config.toml").write_text("[limits]\nmax_disk = 3\n")
    with pytest.raises(ParseError, match="unknown \\[limits\\] key"):
        settings_at(tmp_path, env={})
    (tmp_path / "config.toml").write_text('[plugins]\nallow = ["not a path"]\n')
    with pytest.raises(ParseError, match="not 'module:attr'"):
        settings_at(tmp_path, env={})
