"""Requests in words and YAML specs for the liquid protocols, through the real resolver,
and their registration as entry points."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from helpers import paths
from simwright.errors import ParseError
from simwright.knowledge.planner.resolver import resolve, resolve_request
from simwright.knowledge.requests import load_spec
from simwright.protocols.registry import Protocol

LIQUID_PROTOCOLS = ("liquid_structure", "density", "viscosity", "ionic_conductivity")


def _declared_protocols() -> dict[str, Protocol]:
    """The protocols pyproject.toml registers (the installed metadata may be older)."""
    pyproject = tomllib.loads((paths.REPO / "pyproject.toml").read_text())
    targets = pyproject["project"]["entry-points"]["simwright.protocols"]
    out = {}
    for name, target in targets.items():
        module, attr = target.split(":")
        out[name] = getattr(importlib.import_module(module), attr)
    return out


@pytest.fixture(scope="module")
def protocols() -> dict[str, Protocol]:
    return _declared_protocols()


def test_liquid_protocols_are_registered_under_their_names(protocols) -> None:
    for name in LIQUID_PROTOCOLS:
        assert isinstance(protocols[name], Protocol) and protocols[name].name == name


@pytest.mark.parametrize(
    ("text", "protocol", "system"),
    [
        ("self-diffusion of TIP4P/2005 water at 298 K", "diffusivity", "tip4p2005_water"),
        ("self-diffusion coefficient of TIP3P water", "diffusivity", "tip3p_water"),
        ("viscosity of water by Green–Kubo", "viscosity", "spce_water"),
        ("viscosity of TIP4P/2005 water at 298 K", "viscosity", "tip4p2005_water"),
        ("density of TIP4P/2005 water at 298 K and 1 bar", "density", "tip4p2005_water"),
        ("radial distribution function of liquid argon", "liquid_structure", "lj_argon"),
        ("ionic conductivity of molten NaCl at 1200 K", "ionic_conductivity", "nacl_melt"),
        ("thermal conductivity of liquid argon by Green–Kubo", "thermal_conductivity", "lj_argon"),
    ],
)
def test_requests_in_words(protocols, text: str, protocol: str, system: str) -> None:
    resolved = resolve_request(text, protocols)
    assert resolved.protocol.name == protocol
    assert resolved.params.system == system  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("self-diffusion of TIP5P water at 298 K", "TIP5P"),
        ("diffusion coefficient of TIP4P water", "TIP4P"),
        ("self-diffusion of OPC water", "OPC"),
        ("viscosity of TIP4P-Ew water", "TIP4P-Ew"),
        ("density of SPC water", "SPC"),
    ],
)
def test_unknown_water_models_are_refused_by_name(protocols, text: str, named: str) -> None:
    with pytest.raises(ParseError, match=named):
        resolve_request(text, protocols)


def test_yaml_spec(protocols, tmp_path: Path) -> None:
    spec = tmp_path / "viscosity.yaml"
    spec.write_text(
        "protocol: viscosity\nparameters:\n  system: tip4p2005_water\n  production_ps: 200\n"
    )
    resolved = load_spec(spec, protocols)
    params = resolved.params
    assert resolved.protocol.name == "viscosity"
    assert (params.production_ps, params.temperature_k) == (200.0, 298.15)  # type: ignore[attr-defined]


def test_every_liquid_protocol_has_a_preflight_estimate(protocols, settings) -> None:
    nacl = protocols["ionic_conductivity"]
    est = nacl.estimate(nacl.validate({"system": "nacl_melt"}), settings)
    assert est.atoms == 216 and est.md_steps == 200 + 5_000 + 50_000  # min + 10 + 100 ps
    for name in LIQUID_PROTOCOLS[:3]:
        proto = protocols[name]
        est = proto.estimate(proto.validate({"system": "tip4p2005_water"}), settings)
        assert est.atoms == 648 and est.core_hours > 0 and est.basis


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("viscosity of water at 300 K", False),
        ("density of liquid water", False),
        ("viscosity of SPC/E water at 300 K", True),
        ("self-diffusion of TIP3P water", True),
        ("radial distribution function of liquid argon", True),
    ],
)
def test_plain_water_gives_the_liquid_and_assumes_the_model(
    protocols, text: str, given: bool
) -> None:
    resolution = resolve(text, protocols)
    assert ("system" in resolution.given) is given
    assert resolution.to_json()["parameters"]["system"]["source"] == (
        "given" if given else "assumed"
    )
