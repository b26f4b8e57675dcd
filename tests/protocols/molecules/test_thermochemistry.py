"""molecule_thermochemistry: water and H2 with real PySCF and xTB runs, from words and
from a spec; refusals of unknown functionals and ambiguous multiplicities."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.errors import ParseError, ValidationError
from simwright.graph import Runner
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols.molecules import thermochemistry as thermo
from simwright.protocols.registry import LazyProtocols
from simwright.settings import Settings
from simwright.store import Store


def _run(params: object, store: Store, settings: Settings) -> dict[str, float]:
    out = Runner(store, settings).start(
        thermo.GRAPH, thermo.PROTOCOL.first_step(params), protocol=thermo.PROTOCOL.name
    )
    assert out.status == "completed", out.error
    return {k: q.value for k, q in out.result.values.items()}


def test_water_from_words_hf_sto3g(store: Store, settings: Settings) -> None:
    res = resolve("harmonic frequencies of water with HF/STO-3G", LazyProtocols())
    assert res.protocol.name == "molecule_thermochemistry"
    assert res.params.level.method == "hf" and res.params.level.basis == "sto-3g"
    v = _run(res.params.model_copy(update={"threads": 1}), store, settings)
    # HF/STO-3G water: r 0.989 Å, 100.0°, three real modes, no imaginary one
    assert v["imaginary_modes"] == 0
    assert 0.98 < v["r_OH"] < 1.00 and 99.0 < v["angle_HOH"] < 101.0
    assert 2000 < v["harmonic_frequency_1"] < 2300  # STO-3G bend ~2170 cm-1
    assert 4300 < v["harmonic_frequency_3"] < 4500  # 4391 (HF/STO-3G)
    assert 50 < v["zero_point_energy"] < 65
    # translational + rotational entropy dominate: near the experimental 188.8 J/(mol K)
    assert 185 < v["entropy"] < 192


def test_hydrogen_from_a_spec_with_xtb(tmp_path: Path, store: Store, settings: Settings) -> None:
    spec = tmp_path / "h2.yaml"
    spec.write_text(
        "protocol: molecule_thermochemistry\n"
        "parameters:\n  molecule: hydrogen\n  level: {method: xtb}\n"
        "  temperature_k: 500\n  threads: 1\n"
    )
    res = resolve(str(spec), LazyProtocols())
    v = _run(res.params, store, settings)
    assert 0.70 < v["r_HH"] < 0.80
    assert v["harmonic_frequency_1"] > 3500
    # S(H2, 500 K, 1 atm) from the ideal gas: ~145 J/(mol K); σ = 2 (D∞h)
    assert 140 < v["entropy"] < 150


def test_unknown_functional_and_ambiguous_multiplicity_are_refused(settings: Settings) -> None:
    with pytest.raises(ValidationError, match="unknown method or functional 'foobar'"):
        resolve("harmonic frequencies of water with FOOBAR/def2-SVP", LazyProtocols())
    with pytest.raises(ValidationError, match="unknown basis set"):
        resolve("thermochemistry of water with B3LYP/def2-QZVPPD-X", LazyProtocols())
    with pytest.raises(ValidationError, match=r"odd count.*multiplicity 2"):
        resolve(
            "thermochemistry of smiles [CH3] with HF/STO-3G", LazyProtocols(), settings=settings
        )
    radical = resolve(
        "thermochemistry of smiles [CH3] doublet with HF/STO-3G", LazyProtocols(), settings=settings
    )
    assert "multiplicity 2" in " ".join(radical.inputs)
    with pytest.raises(ParseError, match="the number 5 was not understood"):
        resolve("thermochemistry of water with HF/STO-3G and 5 conformers", LazyProtocols())
    with pytest.raises(ParseError, match="D4"):
        thermo.parse_request("frequencies of water with B3LYP-D4/def2-SVP")
    with pytest.raises(ValidationError, match="xTB solvation is ALPB"):
        resolve("thermochemistry of water with GFN2-xTB and PCM in water", LazyProtocols())
