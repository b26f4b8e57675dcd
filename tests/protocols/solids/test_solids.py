"""The solid-state protocols with LAMMPS potentials of the catalogue, from words and from
YAML specs: lattice_constant (any engine), cohesive_energy, elastic_constants."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.errors import ValidationError
from simwright.graph import Graph
from simwright.knowledge.planner.resolver import resolve_request
from simwright.knowledge.requests import ResolvedRequest
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import cohesive_energy, elastic_constants, lattice_constant
from simwright.protocols.solids.engine import engine_request
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

needs_lammps = needs("lammps")
PROTOCOLS: dict[str, Protocol] = {
    p.name: p
    for p in (lattice_constant.PROTOCOL, cohesive_energy.PROTOCOL, elastic_constants.PROTOCOL)
}


def run(resolved: ResolvedRequest, store: Store, settings: Settings) -> ProtocolResult:
    proto = resolved.protocol
    graph: Graph = proto.graph
    out = run_graph(graph, proto.first_step(resolved.params), store, settings)
    assert isinstance(out.result, ProtocolResult)
    return out.result


def spec(tmp_path: Path, text: str) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("lattice constant of Cu with the Mishin EAM potential", {"potential": "Mishin EAM"}),
        ("equation of state of Si with Tersoff, 7 points", {"potential": "Tersoff"}),
        (
            "cohesive energy of Si using the Stillinger-Weber potential",
            {"potential": "Stillinger-Weber"},
        ),
        ("lattice constant of Si with SevenNet", {"calculator": "sevennet"}),
        ("elastic constants of Cu with CHGNet", {"calculator": "chgnet"}),
        ("lattice constant of Cu with 9 points", {}),
        ("cohesive energy of Cu with a starting guess of 3.7 Å", {}),
        ("cohesive energy of Cu with the Foo potential", {"potential": "Foo"}),
    ],
)
def test_the_engine_named_in_words_is_read(text: str, engine: dict[str, str]) -> None:
    assert engine_request(text) == engine


def test_each_solid_request_is_claimed_by_its_own_protocol() -> None:
    for text, name in [
        ("cohesive energy of Cu with the Mishin EAM potential", "cohesive_energy"),
        ("elastic constants of Si with Tersoff", "elastic_constants"),
        ("lattice constant of Al with the Zhou EAM potential", "lattice_constant"),
    ]:
        assert [p.name for p in PROTOCOLS.values() if p.parse_request(text)] == [name]


def test_a_named_potential_that_does_not_exist_is_refused_by_name() -> None:
    raw = lattice_constant.parse_request("lattice constant of Cu with the Foo potential")
    assert raw == {"element": "Cu", "potential": "Foo"}
    with pytest.raises(ValidationError, match=r"no potential 'Foo' for Cu"):
        lattice_constant.PROTOCOL.validate(raw)
    with pytest.raises(ValidationError, match=r"no potential 'Foo' for Cu; the catalogue has: .*"):
        resolve_request("cohesive energy of Cu with the Foo potential", PROTOCOLS)
    with pytest.raises(ValidationError, match=r"no potential 'Mishin EAM' for Si"):
        resolve_request("elastic constants of Si with the Mishin EAM potential", PROTOCOLS)


@needs_lammps
def test_lattice_constant_with_the_mishin_potential_from_words(
    store: Store, settings: Settings
) -> None:
    resolved = resolve_request(
        "lattice constant of Cu with the Mishin EAM potential, 7 points", PROTOCOLS
    )
    assert resolved.params.potential == "Mishin EAM"  # type: ignore[attr-defined]
    result = run(resolved, store, settings)
    assert result.values["lattice_constant"].value == pytest.approx(3.615, rel=2e-3)
    assert 2.0 < result.values["bulk_modulus_derivative"].value < 8.0
    cited = {(r.quantity, r.citation.split(":")[0]) for r in result.references}
    assert ("lattice_constant", "Cu_mishin1.eam.alloy published") in cited
    assert "B0' = " in result.summary


@needs_lammps
def test_cohesive_energy_of_copper_from_words(store: Store, settings: Settings) -> None:
    resolved = resolve_request("cohesive energy of Cu with the Mishin EAM potential", PROTOCOLS)
    result = run(resolved, store, settings)
    assert result.values["cohesive_energy"].value == pytest.approx(3.54, abs=0.01)
    assert result.values["isolated_atom_energy"].value == pytest.approx(
        0.0, abs=1e-4
    )  # tabulated F(0)
    assert {r.quantity for r in result.references} >= {"cohesive_energy", "lattice_constant"}


@needs_lammps
def test_cohesive_energy_of_silicon_from_a_spec(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    text = "protocol: cohesive_energy\nparameters:\n  element: Si\n  potential: Si.sw\n"
    result = run(resolve_request(spec(tmp_path, text), PROTOCOLS), store, settings)
    # Stillinger–Weber: the diamond minimum lies at 2ε = 4.3366 eV per atom, a = 5.431 Å
    assert result.values["cohesive_energy"].value == pytest.approx(4.3366, abs=2e-3)
    assert result.values["lattice_constant"].value == pytest.approx(5.431, abs=2e-3)


@needs_lammps
def test_mishin_aluminium_inside_the_al_cu_adp_file_matches_its_paper(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    text = "protocol: cohesive_energy\nparameters:\n  element: Al\n  potential: AlCu.adp\n"
    result = run(resolve_request(spec(tmp_path, text), PROTOCOLS), store, settings)
    # Mishin et al., PRB 59, 3393 (1999): E_coh 3.36 eV, a 4.05 Å (fitted; recalled values)
    assert result.values["cohesive_energy"].value == pytest.approx(3.36, abs=0.005)
    assert result.values["lattice_constant"].value == pytest.approx(4.05, abs=0.003)
    own = [r for r in result.references if r.citation.startswith("AlCu.adp published")]
    assert {r.quantity for r in own} == {"cohesive_energy", "lattice_constant"}
    assert all("Phys. Rev. B 59, 3393" in r.citation and "[unverified" in r.citation for r in own)


@needs_lammps
def test_elastic_constants_of_copper_from_a_spec_match_the_paper(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    text = (
        "protocol: elastic_constants\nparameters:\n  element: Cu\n"
        "  potential: Mishin EAM\n  strains_percent: [0.5, 1.0]\n"
    )
    result = run(resolve_request(spec(tmp_path, text), PROTOCOLS), store, settings)
    v = result.values
    # Mishin et al., PRB 63, 224106 (2001): C11 169.9, C12 122.6, C44 76.2 GPa, B 138.3 GPa
    assert v["c11"].value == pytest.approx(169.9, rel=0.02)
    assert v["c12"].value == pytest.approx(122.6, rel=0.02)
    assert v["c44"].value == pytest.approx(76.2, rel=0.02)
    assert v["bulk_modulus"].value == pytest.approx(138.3, rel=0.02)
    assert v["c11"].uncertainty is not None and 0 <= v["c11"].uncertainty < 2.0
    assert 0 < v["poisson_ratio"].value < 0.5
    assert "mechanically stable" in result.summary
    assert any(a.path.endswith("stress_strain.png") for a in result.artifacts)


@needs_lammps
def test_elastic_constants_from_words_relax_the_ions_of_diamond(
    store: Store, settings: Settings
) -> None:
    resolved = resolve_request("elastic constants of Si with Stillinger-Weber", PROTOCOLS)
    assert resolved.params.ions_relaxed()  # type: ignore[attr-defined]
    params = resolved.params.model_copy(update={"strains_percent": (1.0,), "eos_points": 5})
    result = run(ResolvedRequest(resolved.protocol, params, resolved.request), store, settings)
    v = result.values
    assert v["c11"].value > v["c12"].value > 0 and v["c44"].value > 0
    # the bulk modulus of the stiffness agrees with the equation of state's
    assert v["bulk_modulus"].value == pytest.approx(v["eos_bulk_modulus"].value, rel=0.03)


def test_elastic_constants_with_an_ase_calculator_agree_with_its_equation_of_state(
    store: Store, settings: Settings
) -> None:
    resolved = resolve_request("elastic constants of Cu with EMT", PROTOCOLS)
    result = run(resolved, store, settings)
    v = result.values
    assert v["bulk_modulus"].value == pytest.approx(v["eos_bulk_modulus"].value, rel=0.02)
    assert v["c11"].value > v["c12"].value > 0 and v["c44"].value > 0
    assert "mechanically stable" in result.summary
