"""Calculators resolve through the registry and the installation's allow-list, never by
importing a name taken from a spec."""

from __future__ import annotations

import sys

import pytest
from ase.calculators.emt import EMT

from simwright.engines.ase.calculators import CalculatorSpec, single_point
from simwright.engines.ase.registry import calculator_names, check_calculator
from simwright.errors import ValidationError
from simwright.structure import Structure

NEVER = "helpers.never_imported:factory"


def _cu() -> Structure:
    from ase.build import bulk

    return Structure.from_ase(bulk("Cu", "fcc", a=3.6, cubic=True))


def test_registered_names_resolve_without_an_allow_list() -> None:
    assert calculator_names()[:4] == ("emt", "lj", "sevennet", "chgnet")
    assert CalculatorSpec("EMT").load() is EMT
    assert CalculatorSpec("emt").import_path == "ase.calculators.emt:EMT"


@pytest.mark.parametrize("name", ["subprocess:Popen", "os:fork", NEVER, "nonsense"])
def test_a_name_from_a_spec_is_never_imported(name: str) -> None:
    with pytest.raises(ValidationError) as info:
        CalculatorSpec(name, {"args": ["sh", "-c", "true"]}).build()
    message = str(info.value)
    assert f"unknown calculator {name!r}" in message
    assert "allowed: emt, lj, sevennet, chgnet" in message and "[plugins] allow" in message
    assert "helpers.never_imported" not in sys.modules


def test_check_refuses_before_anything_is_built() -> None:
    with pytest.raises(ValidationError, match="unknown calculator 'subprocess:Popen'"):
        check_calculator("subprocess:Popen")
    check_calculator("lj")


def test_an_allow_listed_class_resolves_and_runs() -> None:
    allow = ("helpers.slowcalc:SlowEMT",)
    spec = CalculatorSpec("helpers.slowcalc:SlowEMT", {"delay_s": 0.0})
    check_calculator(spec.name, allow)
    point, call = single_point(_cu(), spec, allow=allow)
    reference, _ = single_point(_cu(), CalculatorSpec("emt"))
    assert point.energy_ev == pytest.approx(reference.energy_ev)
    assert "helpers.slowcalc:SlowEMT" in call.command


def test_the_allow_list_is_exact() -> None:
    with pytest.raises(ValidationError, match="allowed: emt, lj, sevennet, chgnet, helpers"):
        CalculatorSpec("helpers.slowcalc:BrokenEMT").load(("helpers.slowcalc:SlowEMT",))
