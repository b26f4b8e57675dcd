"""The phonons protocol: finite displacements with phonopy and a real engine (EMT, the
Mishin EAM potential through LAMMPS), routing of "phonons" requests, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.errors import ParseError, ValidationError
from simwright.knowledge.planner.resolver import resolve_request
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import elastic_constants, lattice_constant, phonons
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

PROTOCOLS: dict[str, Protocol] = {
    p.name: p for p in (lattice_constant.PROTOCOL, elastic_constants.PROTOCOL, phonons.PROTOCOL)
}


def run(params: phonons.PhononsParams, store: Store, settings: Settings) -> ProtocolResult:
    out = run_graph(phonons.GRAPH, phonons.PROTOCOL.first_step(params), store, settings)
    assert isinstance(out.result, ProtocolResult)
    return out.result


def test_a_phonon_request_in_words_reaches_the_protocol_with_its_supercell() -> None:
    resolved = resolve_request("phonon dispersion of Cu with EMT in a 2x2x2 supercell", PROTOCOLS)
    assert resolved.protocol.name == "phonons"
    assert resolved.params.supercell == 2  # type: ignore[attr-defined]
    assert resolved.params.calculator == "emt"  # type: ignore[attr-defined]
    dos = resolve_request("phonon density of states of Cu with the Mishin EAM potential", PROTOCOLS)
    assert dos.protocol.name == "phonons"


def test_phonons_with_dft_are_refused_saying_what_can_be_done() -> None:
    with pytest.raises(ParseError, match=r"'phonon dispersion': phonons is computed by phonons"):
        resolve_request("phonon dispersion of Si with PBE", PROTOCOLS)
    with pytest.raises(ParseError, match=r"n×n×n only"):
        phonons.parse_request("phonons of Cu with EMT in a 2x2x3 supercell")
    with pytest.raises(ValidationError, match=r"EMT has no parameters for Si"):
        phonons.PROTOCOL.validate({"element": "Si", "calculator": "emt"})


def test_emt_copper_has_zero_acoustic_modes_at_gamma_and_no_imaginary_modes(
    store: Store, settings: Settings
) -> None:
    params = phonons.PhononsParams(
        element="Cu", supercell=2, mesh=8, band_points=11, eos_points=5, t_step_k=50
    )
    result = run(params, store, settings)
    v = result.values
    assert v["gamma_acoustic_max"].value < 1e-3
    assert v["min_frequency"].value > -params.imaginary_tolerance_thz
    assert "WARNING" not in result.summary
    # EMT Cu at X: two transverse modes below the longitudinal one, all real, a few THz
    assert 3.0 < v["frequency_X_min"].value < v["frequency_X_max"].value < 10.0
    # C_v approaches the Dulong–Petit value 3 k_B at 300 K (Θ_D of Cu ≈ 340 K)
    assert 2.6 < v["cv_300K"].value < 3.0
    assert v["zero_point_energy"].value > 0
    names = {Path(a.path).name for a in result.artifacts}
    assert {"phonons.png", "phonon_bands.h5", "phonopy_params.yaml", "report.md"} <= names
    assert "2×2×2 supercell" in result.summary


@needs("lammps")
@pytest.mark.slow
def test_mishin_copper_at_x_is_near_the_measured_frequencies(
    store: Store, settings: Settings
) -> None:
    params = phonons.PhononsParams(
        element="Cu", potential="Mishin EAM", supercell=2, mesh=8, band_points=11, eos_points=5
    )
    result = run(params, store, settings)
    v = result.values
    assert v["gamma_acoustic_max"].value < 1e-3
    # measured at 49 K: T(X) ≈ 5.1, L(X) ≈ 7.25 THz; the potential was fitted near them
    assert v["frequency_X_min"].value == pytest.approx(5.1, rel=0.1)
    assert v["frequency_X_max"].value == pytest.approx(7.25, rel=0.1)
    assert {r.quantity for r in result.references} >= {"frequency_X_min", "frequency_X_max"}
