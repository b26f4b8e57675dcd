"""The lattice-defect protocols: vacancy_formation_energy, surface_energy, stacking_fault and
vacancy_migration, from words and from YAML specs, with real LAMMPS (the Mishin Cu EAM,
Stillinger–Weber Si) and EMT through ASE, on tiny cells."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.builders.faults import fcc111_stack, partial_direction, shift_upper
from simwright.errors import ParseError, ValidationError
from simwright.graph import Graph
from simwright.knowledge.planner.resolver import resolve_request
from simwright.knowledge.requests import ResolvedRequest
from simwright.potentials.defect_values import defect_references
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import (
    cohesive_energy,
    elastic_constants,
    lattice_constant,
    stacking_fault,
    surface_energy,
    vacancy_formation_energy,
    vacancy_migration,
)
from simwright.protocols.solids.defect_common import Convergence
from simwright.results import ProtocolResult
from simwright.settings import Settings
from simwright.store import Store

needs_lammps = needs("lammps")
DEFECTS = (
    vacancy_formation_energy.PROTOCOL,
    surface_energy.PROTOCOL,
    stacking_fault.PROTOCOL,
    vacancy_migration.PROTOCOL,
)
PROTOCOLS: dict[str, Protocol] = {
    p.name: p
    for p in (
        lattice_constant.PROTOCOL,
        cohesive_energy.PROTOCOL,
        elastic_constants.PROTOCOL,
        *DEFECTS,
    )
}


@dataclass(frozen=True)
class Ran:
    """A finished run: its result and the text of its report."""

    result: ProtocolResult
    report: str

    @property
    def values(self) -> dict[str, float]:
        return {k: q.value for k, q in self.result.values.items()}


def run(resolved: ResolvedRequest, store: Store, settings: Settings) -> Ran:
    proto = resolved.protocol
    graph: Graph = proto.graph
    out = run_graph(graph, proto.first_step(resolved.params), store, settings)
    assert isinstance(out.result, ProtocolResult)
    report = next(a.path for a in out.result.artifacts if a.kind == "report")
    return Ran(out.result, (out.run_dir / report).read_text())


def run_raw(proto: Protocol, raw: dict, store: Store, settings: Settings) -> Ran:
    return run(ResolvedRequest(proto, proto.validate(raw), "spec"), store, settings)


@pytest.mark.parametrize(
    ("text", "name", "fields"),
    [
        (
            "vacancy formation energy of Cu with the Mishin EAM potential, sizes 2, 3",
            "vacancy_formation_energy",
            {"sizes": (2, 3), "potential": "Mishin EAM"},
        ),
        (
            "surface energy of Cu(111) with the Mishin EAM potential",
            "surface_energy",
            {"facets": ((1, 1, 1),)},
        ),
        (
            "surface energy of Al (100) with EMT, 6 and 9 planes",
            "surface_energy",
            {"facets": ((1, 0, 0),), "planes": (6, 9), "calculator": "emt"},
        ),
        (
            "stacking fault energy of Cu with the Mishin EAM potential, 7 shifts",
            "stacking_fault",
            {"n_shifts": 7},
        ),
        (
            "vacancy migration barrier of Cu with the Mishin EAM potential, 3 images",
            "vacancy_migration",
            {"n_images": 3},
        ),
    ],
)
def test_each_defect_request_is_claimed_and_read_by_its_own_protocol(
    text: str, name: str, fields: dict
) -> None:
    assert [p.name for p in PROTOCOLS.values() if p.parse_request(text)] == [name]
    resolved = resolve_request(text, PROTOCOLS)
    assert resolved.protocol.name == name
    dumped = resolved.params.model_dump()
    for key, value in fields.items():
        assert dumped[key] == value


def test_a_dft_surface_energy_is_refused_by_name_not_given_to_the_potential_protocol() -> None:
    with pytest.raises(ParseError, match=r"'surface energy': surface energy is computed by"):
        resolve_request("surface energy of Cu(111) with PBE", PROTOCOLS)


def test_stacking_fault_refuses_a_crystal_that_is_not_fcc() -> None:
    with pytest.raises(ValidationError, match=r"fcc crystals; Cu is bcc"):
        stacking_fault.PROTOCOL.validate({"element": "Cu", "calculator": "emt", "lattice": "bcc"})
    with pytest.raises(ValidationError, match=r"multiples of 3"):
        stacking_fault.PROTOCOL.validate({"element": "Cu", "planes": [10]})


def test_estimates_and_inputs_are_built_without_running(settings: Settings) -> None:
    for proto in DEFECTS:
        params = proto.validate({"element": "Cu", "calculator": "emt"})
        estimate = proto.estimate(params, settings)  # type: ignore[misc]
        assert estimate.atoms >= 24 and estimate.core_hours > 0
        assert proto.build_inputs(params, settings).lines[0].startswith("structure: fcc Cu")


def test_convergence_says_whether_the_last_two_sizes_agree() -> None:
    ok = Convergence("E_v", ("2³", "3³"), (1.285, 1.275), 0.02, "eV")
    assert ok.converged and "converged." in ok.note()
    bad = Convergence("E_v", ("2³", "3³"), (1.4, 1.275), 0.02, "eV")
    assert not bad.converged and "NOT converged" in bad.note()
    assert "NOT checked" in Convergence("E_v", ("2³",), (1.3,), 0.02, "eV").note()


def test_the_shift_of_the_upper_half_makes_the_intrinsic_fault() -> None:
    a = 3.615
    stack = fcc111_stack("Cu", a, 12, 10.0)
    assert len(stack) == 24
    shift = partial_direction(stack, a)
    assert np.linalg.norm(shift) == pytest.approx(a / np.sqrt(6))
    faulted = shift_upper(stack, shift)
    # the plane above the cut now sits over the plane two below it (…B A | B A…: hcp-like)
    z = np.sort(np.unique(np.round(faulted.positions[:, 2], 3)))
    mid = len(z) // 2

    def xy(structure, height):
        return structure.positions[np.isclose(structure.positions[:, 2], height, atol=1e-3)][:, :2]

    step = xy(faulted, z[mid])[0] - xy(faulted, z[mid - 2])[0]
    cell = stack.cell[:2, :2]
    frac = np.linalg.solve(np.array([cell[0], (cell[0] + cell[1]) / 2]).T, step)
    assert np.allclose(frac, np.round(frac), atol=1e-6)


@needs_lammps
@pytest.mark.slow
def test_vacancy_formation_energy_of_copper_converges_to_the_paper(
    store: Store, settings: Settings
) -> None:
    resolved = resolve_request(
        "vacancy formation energy of Cu with the Mishin EAM potential, sizes 2, 3", PROTOCOLS
    )
    result = run(resolved, store, settings)
    # Mishin et al. (2001): E_v = 1.27 eV
    assert result.values["vacancy_formation_energy"] == pytest.approx(1.27, abs=0.015)
    assert result.values["vacancy_formation_energy_2"] != pytest.approx(
        result.values["vacancy_formation_energy_3"], abs=1e-4
    )
    assert any("E_v per supercell" in n and "converged." in n for n in result.report.splitlines())
    assert any("Cu_mishin1.eam.alloy published" in r.citation for r in result.result.references)


@needs_lammps
@pytest.mark.slow
def test_vacancy_formation_energy_of_mishin_aluminium_in_the_al_cu_adp_file(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(
        "protocol: vacancy_formation_energy\nparameters:\n  element: Al\n"
        "  potential: AlCu.adp\n  sizes: [2, 3]\n"
    )
    result = run(resolve_request(str(path), PROTOCOLS), store, settings)
    # Mishin et al. (1999) Al EAM: E_v = 0.675 eV (Apostol & Mishin, PRB 82, 144115 (2010))
    assert result.values["vacancy_formation_energy"] == pytest.approx(0.675, abs=0.015)
    assert any("AlCu.adp published" in r.citation for r in result.result.references)


@needs_lammps
@pytest.mark.slow
def test_vacancy_formation_energy_from_a_spec_with_stillinger_weber(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(
        "protocol: vacancy_formation_energy\nparameters:\n  element: Si\n"
        "  potential: Si.sw\n  sizes: [1, 2]\n"
    )
    result = run(resolve_request(str(path), PROTOCOLS), store, settings)
    # a relaxed SW vacancy costs a few eV (dangling bonds); a 7-atom cell is far from converged
    assert 2.0 < result.values["vacancy_formation_energy"] < 4.5
    assert any("NOT converged" in n or "converged." in n for n in result.report.splitlines())


@needs_lammps
@pytest.mark.slow
def test_surface_energy_of_copper_111_matches_the_paper(store: Store, settings: Settings) -> None:
    raw = {"element": "Cu", "potential": "Mishin EAM", "facets": [[1, 1, 1]], "planes": [6, 9]}
    result = run_raw(surface_energy.PROTOCOL, raw, store, settings)
    gamma = result.values["surface_energy_111"]
    assert gamma == pytest.approx(1.239, rel=0.01)  # Mishin et al. (2001), unverified
    assert result.values["surface_energy_111_ev_per_a2"] == pytest.approx(gamma / 16.02176634)
    assert any("unreconstructed" in n for n in result.report.splitlines())


@needs_lammps
@pytest.mark.slow
def test_stacking_fault_curve_of_copper(store: Store, settings: Settings) -> None:
    raw = {"element": "Cu", "potential": "Mishin EAM", "n_shifts": 6, "planes": [9, 12]}
    result = run_raw(stacking_fault.PROTOCOL, raw, store, settings)
    isf = result.values["intrinsic_stacking_fault_energy"]
    assert isf == pytest.approx(44.4, abs=1.5)  # Mishin et al. (2001)
    assert result.values["unstable_stacking_fault_energy"] > 3 * isf
    assert any(a.kind == "plot" for a in result.result.artifacts)


@needs_lammps
@pytest.mark.slow
def test_vacancy_migration_of_copper_by_neb_with_lammps(store: Store, settings: Settings) -> None:
    raw = {
        "element": "Cu",
        "potential": "Mishin EAM",
        "sizes": [2],
        "n_images": 3,
        "fmax_ev_a": 0.05,
    }
    result = run_raw(vacancy_migration.PROTOCOL, raw, store, settings)
    assert result.values["vacancy_migration_energy"] == pytest.approx(0.69, abs=0.04)
    assert any("Bands" in n and "2³: converged" in n for n in result.report.splitlines())


@pytest.mark.slow
def test_defects_with_emt_through_ase(store: Store, settings: Settings) -> None:
    base = {"element": "Cu", "calculator": "emt"}
    vac = run_raw(vacancy_formation_energy.PROTOCOL, {**base, "sizes": [2]}, store, settings)
    assert 0.5 < vac.values["vacancy_formation_energy"] < 1.5
    gsf = run_raw(stacking_fault.PROTOCOL, {**base, "n_shifts": 5, "planes": [9]}, store, settings)
    assert gsf.values["unstable_stacking_fault_energy"] > 50
    neb = run_raw(
        vacancy_migration.PROTOCOL,
        {**base, "sizes": [2], "n_images": 1, "fmax_ev_a": 0.05},
        store,
        settings,
    )
    assert 0.3 < neb.values["vacancy_migration_energy"] < 1.2


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("vacancy formation energy of Cu with the Mishin EAM potential at 300 K", "'300 K'"),
        ("stacking fault energy of Cu with EMT along [1-10]", "[1-10] cannot be honoured"),
        ("stacking fault energy of Cu (100) with EMT", "(1, 0, 0) cannot be honoured"),
    ],
)
def test_a_stated_choice_the_defect_protocols_cannot_honour_is_refused_by_name(
    text: str, refused: str
) -> None:
    with pytest.raises(ParseError) as info:
        resolve_request(text, PROTOCOLS)
    assert refused in str(info.value)


def test_a_stated_vacuum_is_honoured() -> None:
    for text in (
        "surface energy of Cu (111) with EMT and 20 Å vacuum",
        "stacking fault energy of Cu with EMT, vacuum of 20 Å",
    ):
        assert resolve_request(text, PROTOCOLS).params.model_dump()["vacuum_a"] == 20.0


def test_published_values_say_whether_they_were_checked_in_their_source() -> None:
    refs = defect_references(
        "Cu_mishin1.eam.alloy", "Cu", ("vacancy_formation_energy", "surface_energy_111")
    )
    by_source = {(r.quantity, r.citation.split(":")[0]): r for r in refs}
    own = by_source[("vacancy_formation_energy", "Cu_mishin1.eam.alloy published")]
    assert own.value == 1.27 and "unverified" not in own.citation
    assert (
        "[unverified"
        in by_source[("surface_energy_111", "Cu_mishin1.eam.alloy published")].citation
    )
    # a facet without its own experimental value falls back to the isotropic average, once
    assert [r.quantity for r in refs if r.citation.startswith("experiment")] == [
        "vacancy_formation_energy",
        "surface_energy",
    ]
    mishin_al = defect_references(
        "AlCu.adp", "Al", ("vacancy_formation_energy", "surface_energy_111")
    )
    own_al = [r for r in mishin_al if r.citation.startswith("AlCu.adp published")]
    assert [(r.quantity, r.value) for r in own_al] == [
        ("vacancy_formation_energy", 0.675),
        ("surface_energy_111", 0.870),
    ]
    assert "Apostol" in own_al[0].citation and "unverified" not in own_al[0].citation
    assert "[unverified" in own_al[1].citation
    assert defect_references("Al_zhou.eam.alloy", "Al", ("surface_energy_111",))[
        0
    ].citation.startswith("experiment")
