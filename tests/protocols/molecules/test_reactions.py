"""reaction_energy and ring_strain: real PySCF/xTB runs on tiny molecules, from words
and from a spec; an unbalanced reaction and a ring without a homodesmotic rule refused."""

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


def test_hydrogenation_of_ethene_from_a_spec(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    spec = tmp_path / "r.yaml"
    spec.write_text(
        "protocol: reaction_energy\nparameters:\n"
        "  reactions:\n"
        "    - reactants: [{molecule: hydrogen}, {molecule: {smiles: C=C}}]\n"
        "      products: [{molecule: ethane}]\n"
        "  level: {method: hf, basis: sto-3g}\n  thermal: false\n"
    )
    v = _run(resolve(str(spec), LazyProtocols()), store, settings)
    # exothermic (experiment: ΔH = -137 kJ/mol); HF/STO-3G overbinds strongly
    assert -400 < v["reaction_energy"] < -100


def test_carbocation_order_from_words_with_xtb(store: Store, settings: Settings) -> None:
    res = resolve(
        "hydride affinities of the methyl and tert-butyl cations with GFN2-xTB", LazyProtocols()
    )
    assert res.protocol.name == "reaction_energy"
    v = _run(res, store, settings)
    # the tertiary cation is the more stable: its hydride affinity is lower
    assert v["hydride_affinity_tert_butyl_cation"] < v["hydride_affinity_methyl_cation"]


@pytest.mark.slow
def test_cyclopropane_ring_strain_from_words(store: Store, settings: Settings) -> None:
    res = resolve("ring strain of cyclopropane with HF/STO-3G", LazyProtocols())
    assert res.protocol.name == "ring_strain"
    v = _run(res, store, settings)
    # experiment 115 kJ/mol (27.5 kcal/mol); HF/STO-3G, without the d functions bent
    # bonds need, overestimates it (196 kJ/mol measured here)
    assert 100 < v["strain_energy"] < 220


def test_cyclobutane_strain_from_a_spec_with_xtb(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    spec = tmp_path / "strain.yaml"
    spec.write_text(
        "protocol: ring_strain\nparameters:\n  ring: {smiles: C1CCC1}\n  level: {method: xtb}\n"
    )
    res = resolve(str(spec), LazyProtocols())
    assert res.params.reaction() == "C1CCC1 + 4 ethane -> 4 propane"
    v = _run(res, store, settings)
    assert v["strain_energy"] > 20  # strained (experiment 111 kJ/mol)


def test_unbalanced_reactions_and_other_rings_are_refused() -> None:
    with pytest.raises(ValidationError, match=r"not balanced: reactants H2 O2"):
        resolve("reaction energy of H2 + oxygen -> water", LazyProtocols())
    with pytest.raises(ValidationError, match=r"charge"):
        resolve("reaction energy of methyl cation -> methane", LazyProtocols())
    with pytest.raises(ValidationError, match="built for unsubstituted cycloalkanes"):
        resolve("ring strain of benzene", LazyProtocols())
