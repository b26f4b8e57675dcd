"""The solid-state MD protocols (thermal expansion, melting point, lattice thermal
conductivity, deposition): requests in words, refusals, and tiny real LAMMPS runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.errors import SimwrightError, ValidationError
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.registry import Protocol, load_protocols
from simwright.protocols.solids import (
    crystal_thermal_conductivity,
    deposition,
    melting_point,
    thermal_expansion,
)
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

needs_lammps = needs("lammps")
PROTOCOLS: dict[str, Protocol] = load_protocols()


def run(
    proto: Protocol, raw: dict[str, object], store: Store, settings: Settings
) -> ProtocolResult:
    params = proto.validate(raw)
    out = run_graph(proto.graph, proto.first_step(params), store, settings)
    assert isinstance(out.result, ProtocolResult)
    return out.result


@pytest.mark.parametrize(
    ("text", "protocol", "given"),
    [
        (
            "thermal expansion of Cu with the Mishin EAM potential",
            "thermal_expansion",
            {"element": "Cu", "potential": "Mishin EAM"},
        ),
        (
            "heat capacity of Al with the Zhou EAM potential from 200 K to 600 K",
            "thermal_expansion",
            {"temperatures_k": (200.0, 300.0, 400.0, 500.0, 600.0)},
        ),
        ("melting point of Cu with the Mishin EAM potential", "melting_point", {"element": "Cu"}),
        (
            "melting point of Al around 900 K with the Zhou EAM potential",
            "melting_point",
            {"guess_k": 900.0},
        ),
        (
            "thermal conductivity of Si with the Stillinger-Weber potential at 500 K",
            "crystal_thermal_conductivity",
            {"temperature_k": 500.0, "potential": "Stillinger-Weber"},
        ),
        ("lattice thermal conductivity of Si with Tersoff", "crystal_thermal_conductivity", {}),
        (
            "deposit 40 atoms of Cu at 1 eV on Cu with the Mishin EAM potential",
            "deposition",
            {"count": 40, "energy_ev": 1.0, "element": "Cu"},
        ),
        # a liquid's thermal conductivity still goes to the Green–Kubo protocol
        ("thermal conductivity of liquid argon by Green–Kubo", "thermal_conductivity", {}),
    ],
)
def test_requests_reach_their_protocol(text: str, protocol: str, given: dict[str, object]) -> None:
    resolved = resolve_request(text, PROTOCOLS)
    assert resolved.protocol.name == protocol
    values = resolved.params.model_dump()
    assert {k: values[k] for k in given} == given


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("melting point of Cu with EMT", r"calculator 'emt' is an ASE calculator"),
        ("melting point of Si with Stillinger-Weber", r"CNA for fcc and bcc .* not diamond"),
        ("thermal expansion of Cu with the Foo potential", r"no potential 'Foo' for Cu"),
        ("thermal conductivity of Si", r"names no potential; .* potentials for Si"),
        ("deposition of Ag on Cu with the EAM potential", r"no potential for Ag-Cu"),
    ],
)
def test_what_cannot_be_honoured_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(SimwrightError, match=message):
        resolve_request(text, PROTOCOLS)


@pytest.mark.parametrize(
    ("protocol", "parameters"),
    [
        ("thermal_expansion", "  element: Cu\n  potential: Mishin EAM\n  cells: 3\n"),
        ("melting_point", "  element: Al\n  potential: Al_zhou.eam.alloy\n"),
        ("crystal_thermal_conductivity", "  element: Si\n  potential: Si.sw\n"),
        ("deposition", "  element: Cu\n  potential: Mishin EAM\n  count: 5\n"),
    ],
)
def test_a_spec_file_reaches_each_protocol(tmp_path: Path, protocol: str, parameters: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"protocol: {protocol}\nparameters:\n{parameters}")
    resolved = resolve_request(str(spec), PROTOCOLS)
    assert resolved.protocol.name == protocol
    assert resolved.protocol.prepare is not None
    lines = resolved.protocol.build_inputs(resolved.params, Settings(home=tmp_path)).lines
    assert any(line.startswith("potential: ") for line in lines)


def test_estimates_state_the_md_steps(settings: Settings) -> None:
    p = melting_point.PROTOCOL.validate({"element": "Cu", "potential": "Mishin EAM"})
    est = melting_point.estimate(p, settings)  # type: ignore[arg-type]
    assert est.atoms == 1024 and est.md_steps == 8000 + 8 * 12500
    q = crystal_thermal_conductivity.PROTOCOL.validate({"element": "Si", "potential": "Si.sw"})
    assert crystal_thermal_conductivity.estimate(q, settings).atoms == 8 * 9 * 24  # type: ignore[arg-type]


@needs_lammps
@pytest.mark.slow
def test_thermal_expansion_of_copper_on_a_tiny_cell(store: Store, settings: Settings) -> None:
    raw = {
        "element": "Cu",
        "potential": "Mishin EAM",
        "cells": 3,
        "equilibration_ps": 1.0,
        "production_ps": 2.0,
        "temperatures_k": [200, 300, 400, 500],
    }
    result = run(thermal_expansion.PROTOCOL, raw, store, settings)
    alpha, cp = result.values["thermal_expansion"], result.values["heat_capacity"]
    # 108 atoms, 2 ps per point: loose bounds around experiment (16.5e-6 /K, 24.4 J/(mol K))
    assert 8e-6 < alpha.value < 30e-6 and alpha.uncertainty is not None
    assert 18 < cp.value < 35
    assert 3.61 < result.values["lattice_parameter"].value < 3.66
    assert {r.quantity for r in result.references} >= {"thermal_expansion", "heat_capacity"}
    assert any(a.path.endswith("thermal_expansion.png") for a in result.artifacts)


@needs_lammps
@pytest.mark.slow
def test_melting_point_brackets_by_coexistence(store: Store, settings: Settings) -> None:
    # 288 atoms with 8 ps resolve only a wide bracket: 1050 K crystallises, 1950 K melts
    # (a 1.1 nm cross-section stabilises the crystal above the bulk T_m, so the two-phase
    # box is relaxed only briefly at the guess). The mechanics are tested here; accuracy
    # is a benchmark's (docs/benchmarks.md).
    raw = {
        "element": "Cu",
        "potential": "Mishin EAM",
        "cells": [3, 3, 8],
        "trial_ps": 8.0,
        "guess_k": 1500.0,
        "bracket_fraction": 0.3,
        "max_trials": 3,
        "equilibration_ps": 2.0,
        "melt_ps": 3.0,
        "cool_ps": 2.0,
        "relax_ps": 0.2,
    }
    result = run(melting_point.PROTOCOL, raw, store, settings)
    tm = result.values["melting_point"]
    assert tm.uncertainty is not None and tm.value - tm.uncertainty >= 1050 - 1
    assert tm.value + tm.uncertainty <= 1950 + 1
    assert tm.uncertainty == pytest.approx(900 / 4, abs=1)  # three trials: one bisection
    assert any(a.path.endswith("coexistence.png") for a in result.artifacts)
    assert any(
        r.quantity == "melting_point" and "1327" in f"{r.value:g}" for r in result.references
    )


@needs_lammps
@pytest.mark.slow
def test_muller_plathe_conductivity_of_silicon(store: Store, settings: Settings) -> None:
    raw = {
        "element": "Si",
        "potential": "Si.sw",
        "cross_cells": 2,
        "lengths_cells": [6, 8],
        "equilibration_ps": 1.0,
        "production_ps": 6.0,
        "steady_after_ps": 1.0,
        "sample_every": 5,
    }
    result = run(crystal_thermal_conductivity.PROTOCOL, raw, store, settings)
    kappa = result.values["thermal_conductivity_longest_box"]
    # a 4 nm box: boundary scattering keeps κ far below bulk (148 W/(m K) in experiment)
    assert 0.2 < kappa.value < 60 and kappa.uncertainty is not None
    assert any(r.quantity == "thermal_conductivity" for r in result.references)


@needs_lammps
@pytest.mark.slow
def test_deposition_counts_every_inserted_atom(store: Store, settings: Settings) -> None:
    raw = {
        "element": "Cu",
        "potential": "Mishin EAM",
        "cells": [3, 3],
        "count": 6,
        "interval_ps": 0.5,
        "settle_ps": 1.0,
        "relax_ps": 0.5,
        "energy_ev": 1.0,
    }
    result = run(deposition.PROTOCOL, raw, store, settings)
    v = result.values
    assert v["adsorbed"].value + v["reflected"].value == 6
    assert v["adsorbed"].value >= 1  # a 1 eV Cu atom on Cu(001) sticks
    assert v["coverage"].value == pytest.approx(v["adsorbed"].value / 18)
    assert any(a.path.endswith("density_profile.png") for a in result.artifacts)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValidationError, match="leave no free layer"):
        deposition.PROTOCOL.validate(
            {"element": "Cu", "potential": "Mishin EAM", "fixed_layers": 3, "thermostat_layers": 3}
        )
    with pytest.raises(ValidationError, match="strictly increasing"):
        thermal_expansion.PROTOCOL.validate(
            {"element": "Cu", "potential": "Mishin EAM", "temperatures_k": [300, 200, 400]}
        )
    assert np.isclose(deposition.AMU_EV_TO_A_PS * np.sqrt(1 / 63.546), 17.43, atol=0.01)
