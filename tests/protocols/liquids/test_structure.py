"""The liquid_structure protocol with real PACKMOL and LAMMPS on tiny systems."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.contract import read_table
from simwright.errors import ParseError
from simwright.graph import Runner
from simwright.protocols.liquids.structure import PROTOCOL, parse_request


def _run(store, settings, **raw):
    params = PROTOCOL.validate(raw)
    out = Runner(store, settings).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    return out


def test_argon_rdf_coordination_and_structure_factor(store, settings) -> None:
    out = _run(
        store,
        settings,
        system="lj_argon",
        n_molecules=256,
        equilibration_ps=2.0,
        production_ps=4.0,
        frame_interval_fs=100.0,
    )
    values = out.result.values
    peak = values["first_peak_position"]
    assert peak.unit == "Å" and 3.4 < peak.value < 4.1  # about 1.1 σ
    assert 2.0 < values["first_peak_height"].value < 4.0
    assert 4.5 < values["first_minimum_position"].value < 6.0
    assert 9.0 < values["coordination_number"].value < 15.0  # about 12 neighbours
    sq_ref = next(a for a in out.result.artifacts if a.path.endswith("structure_factor.h5"))
    sq = read_table(settings.runs_path / out.run_id / sq_ref.path)
    assert sq.column("q").unit == "1/Å"
    # the main peak of S(q) of the LJ liquid lies near q σ ≈ 7
    q_peak = float(sq["q"][np.argmax(sq["s"])])
    assert 1.7 < q_peak < 2.4 and float(np.max(sq["s"])) > 1.5
    rules = {s.decided_by for s in store.steps(out.run_id)}
    assert "rule:rdf_range_capped" not in rules  # a box of 256 atoms is 22.9 Å: 10 Å fits
    assert any("Verlet" in r.citation for r in out.result.references)


def test_water_oxygen_oxygen_first_shell(store, settings) -> None:
    out = _run(
        store,
        settings,
        system="spce_water",
        n_molecules=64,
        equilibration_ps=1.0,
        production_ps=1.0,
        frame_interval_fs=50.0,
    )
    values = out.result.values
    assert 2.6 < values["first_peak_position"].value < 3.0  # the hydrogen-bond distance
    assert values["first_peak_height"].value > 1.8
    rdf_ref = next(a for a in out.result.artifacts if a.path.endswith("rdf.h5"))
    rdf = read_table(settings.runs_path / out.run_id / rdf_ref.path)
    assert {"g_O_O", "n_O_O", "g_O_H", "n_O_H"} <= set(rdf.names)
    assert rdf.attrs["n_frames"] == 20  # a continuation skips the restart's own frame
    assert float(rdf["r"][-1]) < 8.0  # 64 molecules: L ≈ 12.5–13 Å caps r_max at 0.49 L
    analyze = next(s for s in store.steps(out.run_id) if s.name == "Analyze")
    assert analyze.decided_by == "rule:rdf_range_capped"


def test_requests() -> None:
    assert parse_request("radial distribution function of liquid argon at 86.5 K") == {
        "system": "lj_argon",
        "temperature_k": 86.5,
    }
    assert parse_request("RDF of TIP3P water")["system"] == "tip3p_water"  # type: ignore[index]
    with pytest.raises(ParseError, match="'OPC' is not available"):
        parse_request("RDF of OPC water")
    assert parse_request("density of water") is None
