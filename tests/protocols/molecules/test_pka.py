"""pka: relative and direct schemes with real GFN2-xTB (ALPB water) runs, from words and
a spec; a non-aqueous solvent and an acid without an O-H refused."""

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


def test_acetic_acid_relative_to_formic_acid_from_words(store: Store, settings: Settings) -> None:
    res = resolve("pKa of acetic acid with GFN2-xTB", LazyProtocols())
    assert res.protocol.name == "pka"
    assert [m.label for m in res.params.molecule_inputs()] == [
        "acetic acid",
        "acetate",
        "formic acid",
        "formate",
    ]
    v = _run(res, store, settings)
    # experiment 4.76: acetic acid is the weaker acid of the pair (formic acid 3.75). GFN2-xTB
    # alone is a poor pKa method (9.6 here; B3LYP/6-31+G* PCM energies give 5.8), so only
    # the direction of the exchange is asserted
    assert 3.75 < v["pKa"] < 14.0


@pytest.mark.slow
def test_direct_scheme_from_a_spec(tmp_path: Path, store: Store, settings: Settings) -> None:
    spec = tmp_path / "pka.yaml"
    spec.write_text(
        "protocol: pka\nparameters:\n  acid: formic acid\n  scheme: direct\n"
        "  level: {method: hf, basis: 6-31+g*, solvent: water}\n"
    )
    v = _run(resolve(str(spec), LazyProtocols()), store, settings)
    # the direct scheme is only good to several units; the value must be finite and positive
    # deprotonation free energy (an acid in water still costs free energy to ionise)
    assert v["deprotonation_free_energy"] > 0
    assert -20 < v["pKa"] < 40


def test_non_aqueous_solvent_and_unknown_acid_class_refused() -> None:
    with pytest.raises(ValidationError, match="aqueous"):
        resolve("pKa of acetic acid with B3LYP/def2-SVP in acetonitrile", LazyProtocols())
    with pytest.raises(ValidationError, match="absolute deprotonation energies"):
        resolve("pKa of formic acid with GFN2-xTB, direct scheme", LazyProtocols())
    with pytest.raises(ValidationError, match="no acidic O-H"):
        resolve("pKa of methane", LazyProtocols())
