"""Stated DFT choices from words to the built pw.x input (issue 15): magnetic orders,
DFT+U, spin-orbit, pseudopotential families, multiplicities, boxes, surface cells and
the relax / vc-relax rule. Requests go through the front door (``resolve``); the input is
built by the recommender from the pseudopotentials Debian ships."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from simwright.dft.magnetic import MP_HUBBARD_U_EV
from simwright.dft.recommender import Recommendation, recommend
from simwright.engines.espresso.pseudo_library import SYSTEM_PSEUDO_DIR, PseudoLibrary
from simwright.engines.espresso.template import render
from simwright.errors import SimwrightError
from simwright.graph import codec
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols import load_protocols
from simwright.protocols.dft.common import RunPw

PROTOCOLS = load_protocols()
needs_pseudos = pytest.mark.skipif(
    not (SYSTEM_PSEUDO_DIR / "Ni.pbe-nd-rrkjus.UPF").is_file(),
    reason="quantum-espresso-data is needed",
)


def plan(text: str, *dirs: Path) -> Recommendation:
    params = resolve(text, PROTOCOLS).params
    return recommend(params, PseudoLibrary((SYSTEM_PSEUDO_DIR, *dirs)))  # type: ignore[arg-type]


def moments(rec: Recommendation) -> dict[str, float]:
    system = rec.template.namelists["system"]
    return {
        sp.name: float(system.get(f"starting_magnetization({i})", 0.0))  # type: ignore[arg-type]
        for i, sp in enumerate(rec.template.species, start=1)
    }


@needs_pseudos
def test_afm_nio_with_a_given_u_is_the_afm2_cell_with_opposite_spins() -> None:
    rec = plan("AFM NiO with PBE+U, U = 6.2 eV on Ni")
    t = rec.template
    assert rec.pseudos.functional == "pbe"
    assert t.labels == ("Ni1", "Ni2", "O", "O")
    m = moments(rec)
    assert m["Ni1"] > 0 and m["Ni2"] == -m["Ni1"] and m["O"] == 0
    system = t.namelists["system"]
    assert system["lda_plus_u"] is True
    assert system["Hubbard_U(1)"] == system["Hubbard_U(2)"] == 6.2
    assert "Hubbard_U(3)" not in system
    assert system["tot_magnetization"] == 0.0  # an insulating antiferromagnet
    # the cell: four atoms, half the cubic cell's volume; Ni planes alternate along [111]
    s = rec.structure
    assert s.volume_a3 == pytest.approx(4.177**3 / 2, rel=1e-6)
    ni = s.positions[:2]
    assert np.dot(ni[1] - ni[0], np.ones(3)) / 4.177 == pytest.approx(1.0)
    text = render(t)
    assert "Ni1 " in text and "Ni2 " in text and "lda_plus_u = .true." in text


@needs_pseudos
def test_plus_u_alone_takes_the_cited_table_and_says_so() -> None:
    rec = plan("spin-polarised NiO with PBE+U")
    assert rec.template.get("system", "Hubbard_U(1)") == MP_HUBBARD_U_EV["Ni"] == 6.2
    assert any("Wang, T. Maxisch, G. Ceder" in a for a in rec.assumed)
    with pytest.raises(SimwrightError, match="oxides and fluorides"):
        plan("bcc Fe with PBE+U")


@needs_pseudos
def test_afm_bcc_fe_is_the_two_atom_cubic_cell() -> None:
    rec = plan("antiferromagnetic bcc Fe with PBE")
    s = rec.structure
    assert len(s) == 2 and np.allclose(s.cell, np.eye(3) * s.cell[0, 0])
    assert s.volume_a3 == pytest.approx(2 * 2.8665**3 / 2, rel=0.01)
    m = moments(rec)
    assert m["Fe1"] == -m["Fe2"] > 0 and rec.template.get("system", "nspin") == 2
    with pytest.raises(SimwrightError, match="bcc metals"):
        plan("antiferromagnetic fcc Ni with PBE")


@needs_pseudos
def test_labelled_inputs_survive_the_store_codec() -> None:
    rec = plan("AFM NiO with PBE+U, U = 6.2 eV on Ni")
    params = resolve("AFM NiO with PBE+U, U = 6.2 eV on Ni", PROTOCOLS).params
    step = RunPw(params, rec.template, rec.valence_electrons)  # type: ignore[arg-type]
    assert codec.loads(codec.dumps(step)) == step


@needs_pseudos
def test_spin_orbit_only_with_fully_relativistic_files() -> None:
    rec = plan("bulk Si including SOC with PBE")
    assert [p.name for p in rec.pseudos.pseudos] == ["Si.rel-pbe-rrkj.UPF"]
    assert rec.template.get("system", "lspinorb") is True
    with pytest.raises(SimwrightError, match="fully relativistic PBE pseudopotential for Cu"):
        plan("Cu with spin-orbit coupling and PBE")


@needs_pseudos
def test_pseudopotential_families_are_chosen_or_refused_by_name(tmp_path: Path) -> None:
    assert all("_psl." in p.name for p in plan("bcc Fe with PBE using pslibrary").pseudos.pseudos)
    assert plan("Si with PBE and norm-conserving pseudopotentials").pseudos.pseudos[0].kind == "NC"
    with pytest.raises(SimwrightError, match="no SSSP pseudopotential for Si"):
        plan("Si with PBE and SSSP pseudopotentials")
    folder = tmp_path / "SSSP_1.3_PBE_efficiency"
    folder.mkdir()
    shutil.copy(SYSTEM_PSEUDO_DIR / "Si.pbe-rrkj.UPF", folder / "Si.pbe-rrkj.UPF")
    rec = plan("Si with PBE and SSSP pseudopotentials", folder)
    assert rec.pseudos.pseudos[0].path.parent == folder


@needs_pseudos
def test_multiplicity_box_and_surface_cell_are_honoured() -> None:
    o2 = plan("triplet O2 molecule with PBE")
    assert o2.template.get("system", "nspin") == 2
    assert o2.template.get("system", "tot_magnetization") == 2.0
    water = plan("Geometry optimisation of an isolated H2O molecule with PBE in a 12 Å box")
    assert np.allclose(water.structure.cell, np.eye(3) * 12.0)
    slab = plan("Cu(111) surface in a 2x2 surface cell with six layers, PBE")
    assert len(slab.structure) == 24


@pytest.mark.parametrize(
    ("text", "calculation"),
    [
        ("relax bulk Ge with PBE", "vc-relax"),
        ("structural optimization of MgO with LDA", "vc-relax"),
        ("fixed-cell relaxation of diamond with PBE", "relax"),
        ("relax the atomic positions of bulk Si at the experimental lattice constant", "relax"),
        ("relax a Cu(111) slab with PBE", "relax"),
    ],
)
def test_relax_of_a_bulk_crystal_relaxes_its_cell_unless_fixed(text: str, calculation: str) -> None:
    if "DFT" not in text and "PBE" not in text and "LDA" not in text:
        text += " with LDA"
    assert resolve(text, PROTOCOLS).params.calculation == calculation  # type: ignore[attr-defined]


def test_an_element_after_on_is_a_hubbard_target_only_beside_a_u() -> None:
    params = resolve("SCF of silicon with PBE on an 8x8x8 Monkhorst-Pack grid", PROTOCOLS).params
    assert params.structure.name == "Si" and not params.hubbard  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pw.x") is None, reason="pw.x is needed")
@needs_pseudos
def test_afm_nio_plus_u_runs_in_pw_x_with_opposite_moments(tmp_path: Path) -> None:
    """pw.x 6.7 reads the labelled species and the 6.x Hubbard syntax; the Ni moments come
    out opposite and large (coarse settings: the value itself is benchmarked elsewhere)."""
    from simwright.graph import Runner
    from simwright.settings import Settings
    from simwright.store import Store

    r = resolve("AFM NiO with PBE+U, U = 6.2 eV on Ni", PROTOCOLS)
    raw = {**r.params.model_dump(exclude_defaults=True), "kspacing_inv_a": 1.0}
    params = r.protocol.validate({**raw, "ecutwfc_ry": 25.0})
    settings = Settings(home=tmp_path, threads=1)
    store = Store.at(tmp_path / "simwright.db")
    out = Runner(store, settings).start(
        r.protocol.graph, r.protocol.first_step(params), protocol=r.protocol.name, params=params
    )
    store.close()
    assert out.status == "completed", out.error
    values = out.result.values
    assert abs(values["total_magnetization"].value) < 0.01
    assert 1.0 < values["magnetic_moment_Ni"].value < 2.0
    assert values["magnetic_moment_O"].value < 0.1


@needs_pseudos
def test_noncollinear_plus_u_is_the_full_scheme_without_forces() -> None:
    rec = plan("bcc Fe with PBE, spin-orbit coupling, U = 2 eV on Fe")
    t = rec.template
    assert t.get("system", "lda_plus_u_kind") == 1 and t.get("system", "lspinorb") is True
    assert t.get("control", "tprnfor") is False and t.get("control", "tstress") is False
    with pytest.raises(SimwrightError, match="relaxation cannot be run"):
        plan("relax bcc Fe with PBE, spin-orbit coupling, U = 2 eV on Fe")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pw.x") is None, reason="pw.x is needed")
@needs_pseudos
def test_pw_x_messages_of_noncollinear_plus_u_are_repaired(tmp_path: Path) -> None:
    """The two real pw.x 6.7 stops of non-collinear DFT+U, provoked by overriding the
    recommender: "simplified LDA+U not implemented with noncol. magnetism" and "forces
    in full LDA+U scheme are not yet implemented"."""
    from simwright.graph import Runner
    from simwright.settings import Settings
    from simwright.store import Store

    r = resolve("bcc Fe with PBE, spin-orbit coupling, U = 2 eV on Fe", PROTOCOLS)
    raw = r.params.model_dump(exclude_defaults=True)
    raw.update(
        kspacing_inv_a=1.0,
        ecutwfc_ry=25.0,
        overrides={"system": {"lda_plus_u_kind": 0}, "control": {"tprnfor": True}},
    )
    params = r.protocol.validate(raw)
    store = Store.at(tmp_path / "simwright.db")
    out = Runner(store, Settings(home=tmp_path, threads=1)).start(
        r.protocol.graph, r.protocol.first_step(params), protocol=r.protocol.name, params=params
    )
    calls = store.engine_calls(out.run_id)
    store.close()
    assert out.status == "completed", out.error
    assert [c.exit_code for c in calls][-1] == 0 and len(calls) == 3
    assert "full_lda_plus_u" in out.result.summary
    assert "full_lda_plus_u_forces" in out.result.summary


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pw.x") is None, reason="pw.x is needed")
@needs_pseudos
def test_relax_bulk_reports_its_residual_pressure(tmp_path: Path) -> None:
    """'relax bulk Si' is a vc-relax whose report carries |P| of the final SCF, and a note
    exactly when it is above the limit: a compressed start, a 12 Ry basis (large Pulay
    stress) and a loose press_conv_thr of 5 kbar leave about 3 kbar."""
    from simwright.graph import Runner
    from simwright.protocols.dft.common import RESIDUAL_PRESSURE_LIMIT_BAR
    from simwright.settings import Settings
    from simwright.store import Store

    r = resolve("relax bulk Si with LDA", PROTOCOLS)
    raw = r.params.model_dump(exclude_defaults=True)
    raw["structure"] = {**raw["structure"], "a_a": 5.25}  # a compressed start
    # a stated a alone keeps the cell fixed (a plain relax): the cell relaxation is named
    raw.update(
        calculation="vc-relax",
        ecutwfc_ry=12.0,
        kspacing_inv_a=0.8,
        overrides={"cell": {"press_conv_thr": 5.0}},
    )
    params = r.protocol.validate(raw)
    assert params.calculation == "vc-relax"  # type: ignore[attr-defined]
    store = Store.at(tmp_path / "simwright.db")
    out = Runner(store, Settings(home=tmp_path, threads=1)).start(
        r.protocol.graph, r.protocol.first_step(params), protocol=r.protocol.name, params=params
    )
    warnings = [e for e in store.events(out.run_id) if e.kind == "warning"]
    store.close()
    assert out.status == "completed", out.error
    values = out.result.values
    residual = values["residual_pressure"].value
    assert residual == pytest.approx(abs(values["pressure"].value))
    report = next(out.run_dir.glob("steps/*-Report/report.md")).read_text()
    assert residual > RESIDUAL_PRESSURE_LIMIT_BAR
    assert "residual pressure" in report and "Pulay" in report and warnings
