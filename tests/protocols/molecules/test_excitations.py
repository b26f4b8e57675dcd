"""excitation_spectrum: TDDFT of formaldehyde in the gas phase and in water (real PySCF),
from words and from a spec; an unknown solvent refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.errors import ValidationError
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import Resolution, resolve
from simwright.protocols.registry import LazyProtocols
from simwright.settings import Settings
from simwright.store import Store


def _run(res: Resolution, store: Store, settings: Settings) -> dict[str, float]:
    proto = res.protocol
    params = res.params.model_copy(update={"threads": 1})
    out = Runner(store, settings).start(proto.graph, proto.first_step(params), protocol=proto.name)
    assert out.status == "completed", out.error
    return {k: q.value for k, q in out.result.values.items()}


@pytest.mark.slow
def test_formaldehyde_n_pi_star_blue_shifts_in_water(store: Store, settings: Settings) -> None:
    res = resolve(
        "n→π* excitation energies of formaldehyde in the gas phase and in water with "
        "B3LYP/STO-3G, 3 states",
        LazyProtocols(),
    )
    assert res.protocol.name == "excitation_spectrum"
    assert res.params.solvents == ("gas", "water") and res.params.n_states == 3
    v = _run(res, store, settings)
    # n→π* (S1): 3.88 eV best estimate; a minimal basis lands within ~0.6 eV
    assert 3.2 < v["S1_gas"] < 4.6
    # the n→π* band of carbonyls shifts to the blue in water
    assert v["S1_shift_water"] > 0


def test_spec_with_tda_and_one_conformer(tmp_path: Path, store: Store, settings: Settings) -> None:
    spec = tmp_path / "ex.yaml"
    spec.write_text(
        "protocol: excitation_spectrum\nparameters:\n  molecule: formaldehyde\n"
        "  level: {method: hf, basis: sto-3g}\n  tda: true\n  n_states: 2\n  conformers: 1\n"
    )
    v = _run(resolve(str(spec), LazyProtocols()), store, settings)
    assert v["S1_gas"] > 2.0 and v["S1_wavelength_gas"] > 0


def test_unknown_solvent_is_refused() -> None:
    with pytest.raises(ValidationError, match="unknown solvent"):
        resolve(
            "excitation energies of acetone",
            {"excitation_spectrum": LazyProtocols()["excitation_spectrum"]},
        ).protocol.validate({"molecule": "acetone", "solvents": ["mercury"]})
