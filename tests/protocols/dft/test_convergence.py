"""``dft_convergence``: a tiny real pw.x study of bulk Si, its stored result, and its reuse
by ``dft_scf`` (recorded in the report; taken with ``use_converged``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simwright.contract import read_table
from simwright.dft.converged import find_converged
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols import load_protocols
from simwright.protocols.dft import convergence, scf
from simwright.protocols.dft.convergence import Point, converged_index
from simwright.settings import Settings
from simwright.store import Store

needs_pw = pytest.mark.skipif(
    shutil.which("pw.x") is None or not Path("/usr/share/espresso/pseudo/Si.pz-vbc.UPF").is_file(),
    reason="pw.x and quantum-espresso-data are needed",
)


def _point(setting: float, energy: float, pressure: float = 0.0) -> Point:
    return Point(setting, energy, ((0.0, 0.0, 0.0),), pressure, (1, 1, 1))


def test_the_converged_value_is_the_first_from_which_all_stay_within_tolerance() -> None:
    params = convergence.PROTOCOL.validate({"structure": {"kind": "bulk", "name": "Si"}})
    points = [_point(1, -1.0), _point(2, -1.0095), _point(3, -1.0108), _point(4, -1.0110)]
    assert converged_index(points, params) == 2  # 0.2 meV/atom from the last
    # a value within tolerance followed by one outside it does not count
    points = [_point(1, -1.0110), _point(2, -1.0), _point(3, -1.0110)]
    assert converged_index(points, params) == 2
    points = [_point(1, -1.0110, 0.0), _point(2, -1.0110, 2.0)]
    assert converged_index(points, params) == 1  # the pressure differs by 2 kbar


def test_requests_in_words_reach_the_protocol() -> None:
    text = "convergence study of the cutoff and k-points of bulk Si with LDA"
    r = resolve(text, load_protocols())
    assert r.protocol.name == "dft_convergence"
    assert r.params.functional == "lda"  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="scans the k-points itself"):
        convergence.PROTOCOL.validate(
            {"structure": {"kind": "bulk", "name": "Si"}, "kpoints": (4, 4, 4)}
        )


@pytest.mark.slow
@needs_pw
def test_a_tiny_study_is_stored_and_reused(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, threads=1)
    store = Store.at(tmp_path / "simwright.db")
    params = convergence.PROTOCOL.validate(
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "lda",
            "ecutwfc_values_ry": (10.0, 14.0, 18.0, 22.0),
            "kspacing_inv_a": 0.6,
            "kspacing_values_inv_a": (0.9, 0.6, 0.4),
            "energy_tol_mev_atom": 5.0,
            "force_tol_ev_a": 0.05,
            "pressure_tol_kbar": 5.0,
        }
    )
    runner = Runner(store, settings)
    out = runner.start(
        convergence.GRAPH, convergence.PROTOCOL.first_step(params), protocol="dft_convergence"
    )
    assert out.status == "completed", out.error
    assert len(store.engine_calls(out.run_id)) == 7
    values = out.result.values
    wfc = values["converged_ecutwfc"].value
    assert wfc in (10.0, 14.0, 18.0, 22.0) and values["converged_ecutrho"].value == 4 * wfc
    scan = read_table(out.run_dir / values["converged_ecutwfc"].source)
    assert list(scan["ecutwfc"]) == [10.0, 14.0, 18.0, 22.0]
    assert scan["delta_energy"][-1] == 0.0 and scan["delta_energy"][0] > 5.0  # 10 Ry is too low
    stored = find_converged(tmp_path, "bulk:Si", "lda", ("Si.pz-vbc.UPF",))
    assert stored is not None and stored.run_id == out.run_id and stored.ecutwfc_ry == wfc

    scf_params = scf.PROTOCOL.validate(
        {"structure": {"kind": "bulk", "name": "Si"}, "functional": "lda", "use_converged": True}
    )
    run = runner.start(scf.GRAPH, scf.PROTOCOL.first_step(scf_params), protocol="dft_scf")
    store.close()
    assert run.status == "completed", run.error
    pw_in = (run.run_dir / "steps/001-Recommend/pw.in").read_text()
    assert f"ecutwfc = {wfc}" in pw_in
    report = (run.run_dir / "steps/003-Report/report.md").read_text()
    assert out.run_id in report and "used" in report
