"""amorphous_structure: requests in words, refusals, and a tiny real melt–quench of Si."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.analysis.amorphous import coordination_counts, read_frames
from simwright.contract import read_structure
from simwright.errors import SimwrightError
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.registry import Protocol, load_protocols
from simwright.protocols.solids import amorphous
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

PROTOCOLS: dict[str, Protocol] = load_protocols()


@pytest.mark.parametrize(
    ("text", "given"),
    [
        (
            "amorphous silicon by melt-quench with the Stillinger-Weber potential",
            {"element": "Si", "potential": "Stillinger-Weber", "quench_rate_k_per_ps": 100.0},
        ),
        (
            "amorphous Si with Tersoff quenched at 1e13 K/s",
            {"potential": "Tersoff", "quench_rate_k_per_ps": 10.0},
        ),
        ("glassy silicon with SW at 5 K/ps", {"quench_rate_k_per_ps": 5.0}),
        ("melt-quench a-Si with Si.sw cooled at 10^14 K/s", {"quench_rate_k_per_ps": 100.0}),
    ],
)
def test_requests_reach_the_protocol(text: str, given: dict[str, object]) -> None:
    resolved = resolve_request(text, PROTOCOLS)
    assert resolved.protocol.name == "amorphous_structure"
    values = resolved.params.model_dump()
    assert {k: values[k] for k in given} == given


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("amorphous copper with the Mishin EAM potential", r"diamond-lattice .* not Cu"),
        ("amorphous silicon with EMT", r"calculator 'emt' is an ASE calculator"),
        ("amorphous Si with Stillinger-Weber quenched at 5 K/sec", r"cooling rate"),
        ("amorphous silicon", r"names no potential|potentials for Si"),
    ],
)
def test_what_cannot_be_honoured_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(SimwrightError, match=message):
        resolve_request(text, PROTOCOLS)


def test_a_spec_file_reaches_the_protocol_and_states_its_steps(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "protocol: amorphous_structure\nparameters:\n  element: Si\n  potential: Si.sw\n"
        "  quench_rate_k_per_ps: 50\n  melt_k: 3300\n"
    )
    resolved = resolve_request(str(spec), PROTOCOLS)
    params = resolved.params
    assert isinstance(params, amorphous.AmorphousParams)
    steps = params.steps()
    assert steps.quench == round((3300 - 300) / 50 * 1000)  # 1 fs steps
    est = amorphous.estimate(params, Settings(home=tmp_path))
    assert est.atoms == 216 and est.md_steps == steps.melt + steps.quench + 20_000


def test_coordination_counts_the_diamond_lattice_as_fourfold() -> None:
    a = 5.431
    basis = np.array(
        [[0, 0, 0], [0, 2, 2], [2, 0, 2], [2, 2, 0], [3, 3, 3], [3, 1, 1], [1, 3, 1], [1, 1, 3]]
    ) * (a / 4)
    cells = np.array([[i, j, k] for i in range(2) for j in range(2) for k in range(2)]) * a
    positions = (cells[:, None, :] + basis[None, :, :]).reshape(-1, 3)
    counts = coordination_counts(positions, np.full(3, 2 * a), 2.9)
    assert counts.tolist() == [4] * 64


@needs("lammps")
@pytest.mark.slow
def test_a_tiny_silicon_melt_quench_is_amorphous(store: Store, settings: Settings) -> None:
    raw = {
        "element": "Si",
        "potential": "Si.sw",
        "cells": 2,
        "melt_ps": 2.0,
        "quench_rate_k_per_ps": 1000.0,
        "anneal_ps": 1.0,
        "production_ps": 1.0,
        "frames": 5,
        "thermo_every": 50,
    }
    proto = PROTOCOLS["amorphous_structure"]
    out = run_graph(proto.graph, proto.first_step(proto.validate(raw)), store, settings)
    result = out.result
    assert isinstance(result, ProtocolResult)
    v = result.values
    # 64 atoms quenched at 10¹⁵ K/s: the Stillinger–Weber liquid is frozen in, denser than
    # the crystal and over-coordinated; first neighbours near 2.35–2.5 Å
    assert 2.0 < v["density"].value < 2.8 and v["density"].uncertainty is not None
    assert 2.2 < v["first_peak"].value < 2.6
    assert 3.5 < v["coordination"].value < 6.0
    assert 0.0 < v["fourfold_fraction"].value <= 1.0
    assert v["excess_energy"].value > amorphous.RECRYSTALLISED_EV
    assert any(r.quantity == "density" for r in result.references)
    run_dir = settings.runs_path / out.run_id
    structure = read_structure(next(run_dir.rglob("amorphous.extxyz")))
    assert len(structure) == 64
    frames = read_frames(next(run_dir.rglob("frames.dump")))
    assert frames.positions_a.shape[1:] == (64, 3)
