"""The recommender: request text -> structure -> conditions -> a validated pw.x input.

Most tests use a small pseudopotential library written into tmp (no Quantum ESPRESSO
needed); the last ones read the files Debian ships and check its coverage gaps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ase.build import bulk
from ase.io import write

from simwright.dft.recommender import kpoint_mesh, recommend
from simwright.dft.request import DftRequest, parse_dft_text, request_from_text
from simwright.dft.structures import StructureSpec, build_structure
from simwright.dft.validation import errors, validate_input
from simwright.engines.espresso.pseudo_library import (
    SYSTEM_PSEUDO_DIR,
    MissingPseudopotentialError,
    PseudoLibrary,
)
from simwright.engines.espresso.template import render
from simwright.errors import ParseError, ValidationError
from simwright.structure import Structure

LDA = "SLA PZ NOGX NOGC"


def write_upf_v2(
    path: Path,
    element: str,
    functional: str,
    *,
    kind: str,
    z: float,
    rel: str = "scalar",
    wfc: float = 0.0,
    rho: float = 0.0,
) -> None:
    """A minimal UPF v2 file: only the header, which is all the library reads."""
    flags = {"PAW": ("T", "T"), "US": ("T", "F"), "NC": ("F", "F")}[kind]
    path.write_text(
        f'<UPF version="2.0.1">\n<PP_HEADER element="{element}" pseudo_type="{kind}" '
        f'relativistic="{rel}" is_ultrasoft="{flags[0]}" is_paw="{flags[1]}" is_coulomb="F" '
        f'has_so="{"T" if rel == "full" else "F"}" functional="{functional}" '
        f'z_valence="{z}" wfc_cutoff="{wfc}" rho_cutoff="{rho}"/>\n</UPF>\n'
    )


@pytest.fixture
def lib(tmp_path: Path) -> PseudoLibrary:
    d = tmp_path / "pseudo"
    d.mkdir()
    for el, fn, kind, z, wfc, rho in [
        ("Si", "PBE", "US", 4, 44.0, 175.0),
        ("Si", LDA, "NC", 4, 0, 0),
        ("Al", LDA, "NC", 3, 0, 0),
        ("Cu", "PBE", "PAW", 11, 47.2, 189.0),
        ("Fe", "PBE", "US", 8, 0, 0),
        ("C", "PBE", "US", 4, 25.0, 100.0),
        ("O", "PBE", "US", 6, 0, 0),
        ("Mg", LDA, "NC", 2, 0, 0),
        ("O", LDA, "US", 6, 0, 0),
        ("H", "PBE", "PAW", 1, 45.7, 201.0),
        ("N", "PBE", "PAW", 5, 38.6, 154.5),
    ]:
        write_upf_v2(
            d / f"{el}.{fn.split()[-1].lower()}.{kind}.UPF",
            el,
            fn,
            kind=kind,
            z=z,
            wfc=wfc,
            rho=rho,
        )
    write_upf_v2(d / "Pt.rel.UPF", "Pt", "PBE", kind="US", z=10, rel="full", wfc=27.5, rho=228.0)
    return PseudoLibrary((d,))


def rec_text(text: str, lib: PseudoLibrary):
    return recommend(request_from_text(text), lib)


def test_relax_bulk_si_with_pbe(lib) -> None:
    raw = parse_dft_text("relax bulk Si with PBE")
    assert raw is not None and raw["calculation"] == "vc-relax"  # bulk: the cell relaxes too
    raw = parse_dft_text("relax the atomic positions of bulk Si with PBE, fixed cell")
    rec = recommend(DftRequest.model_validate(raw), lib)
    t = rec.template
    assert t.calculation == "relax" and rec.pseudos.functional == "pbe"
    assert t.get("system", "ecutwfc") == 44.0 and t.get("system", "ecutrho") == 176.0
    assert t.get("ions", "ion_dynamics") == "bfgs"
    assert t.get("system", "occupations") is None  # a semiconductor: fixed occupations
    assert t.kpoints.mesh == (9, 9, 9)  # ceil(2π√3/5.43 / 0.25)
    assert any("forces vanish by symmetry" in a for a in rec.assumed)
    assert errors(validate_input(t.namelists)) == []
    text = render(t)
    assert "calculation = 'relax'" in text and "&IONS" in text and "K_POINTS automatic" in text


def test_al_fcc_is_a_metal_with_lda_assumed(lib) -> None:
    rec = rec_text("SCF of an Al fcc crystal", lib)
    s = rec.template.namelists["system"]
    assert (s["occupations"], s["smearing"], s["degauss"]) == ("smearing", "mv", 0.02)
    assert rec.pseudos.functional == "lda"
    assert any(a.startswith("functional:") and "LDA" in a for a in rec.assumed)
    assert "metal" in rec.conditions.conditions


def test_insisting_on_a_missing_functional_is_refused(lib) -> None:
    with pytest.raises(MissingPseudopotentialError, match=r"no PBE pseudopotential for Al"):
        rec_text("SCF of an Al fcc crystal with PBE", lib)


def test_vc_relax_of_mgo(lib) -> None:
    rec = rec_text("vc-relax of MgO", lib)
    t = rec.template
    assert t.calculation == "vc-relax" and t.get("cell", "cell_dynamics") == "bfgs"
    assert rec.structure.formula == "MgO" and rec.pseudos.functional == "lda"
    assert t.get("system", "ecutrho") == 240.0  # ultrasoft O without suggestion: 8 × 30 Ry


def test_co_molecule_in_a_box_at_gamma(lib) -> None:
    rec = rec_text("CO molecule", lib)
    s = rec.structure
    assert rec.built.kind == "molecule" and rec.template.kpoints.mode == "gamma"
    extent = s.positions.max(axis=0) - s.positions.min(axis=0)
    assert np.all(np.diag(s.cell) - extent >= 10.0 - 1e-9)
    assert rec.template.get("system", "nbnd") == 9
    assert rec.template.get("system", "occupations") is None


def test_graphene_is_2d_with_smearing(lib) -> None:
    rec = rec_text("graphene", lib)
    assert rec.template.get("system", "assume_isolated") == "2D"
    assert rec.template.kpoints.mesh[2] == 1 and rec.template.kpoints.mesh[0] > 1
    assert rec.structure.cell[2, 2] >= 15.0
    assert rec.template.get("system", "occupations") == "smearing"


def test_cu111_slab(lib) -> None:
    rec = rec_text("Cu(111) slab", lib)
    assert rec.built.kind == "slab" and len(rec.structure) == 3
    assert rec.template.kpoints.mesh[2] == 1
    assert "metal" in rec.conditions.conditions and "slab" in rec.conditions.conditions
    assert rec.template.get("control", "tstress") is None


def test_iron_is_spin_polarized_with_a_nonzero_moment(lib) -> None:
    rec = rec_text("SCF of Fe with PBE", lib)
    s = rec.template.namelists["system"]
    assert s["nspin"] == 2 and s["starting_magnetization(1)"] == 0.4
    off = recommend(request_from_text("SCF of Fe").model_copy(update={"spin": False}), lib)
    assert "nspin" not in off.template.namelists["system"]


def test_platinum_needs_spin_orbit(lib) -> None:
    rec = rec_text("SCF of Pt", lib)
    s = rec.template.namelists["system"]
    assert s["noncolin"] is True and s["lspinorb"] is True
    assert any("spin-orbit" in a for a in rec.assumed)


def test_hybrid_activates_exact_exchange(lib) -> None:
    rec = rec_text("SCF of Si with PBE0", lib)
    s = rec.template.namelists["system"]
    assert s["input_dft"] == "pbe0" and s["nqx1"] == 1 and s["exxdiv_treatment"]
    assert s["ecutfock"] <= s["ecutrho"]


def test_overrides_and_explicit_cutoffs(lib) -> None:
    req = DftRequest.model_validate(
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "lda",
            "ecutwfc_ry": 20.0,
            "kspacing_inv_a": 0.5,
            "overrides": {"electrons": {"mixing_beta": 0.5}},
        }
    )
    t = recommend(req, lib).template
    assert t.get("system", "ecutwfc") == 20.0 and t.get("system", "ecutrho") == 80.0
    assert t.get("electrons", "mixing_beta") == 0.5 and t.kpoints.mesh == (5, 5, 5)


def test_kpoint_mesh_from_spacing() -> None:
    s = Structure.from_ase(bulk("Cu", "fcc", a=3.61, cubic=True))
    assert kpoint_mesh(s, 0.25, "bulk").mesh == (7, 7, 7)  # ceil(2π/3.61/0.25)
    assert kpoint_mesh(s, 0.25, "slab").mesh == (7, 7, 1)
    assert kpoint_mesh(s, 0.25, "molecule").mode == "gamma"


def test_structures_from_spacegroup_file_and_materials_project(tmp_path: Path) -> None:
    nacl = build_structure(
        StructureSpec(
            kind="spacegroup",
            spacegroup=225,
            basis=(("Na", (0, 0, 0)), ("Cl", (0.5, 0.5, 0.5))),
            cellpar=(5.64, 5.64, 5.64, 90, 90, 90),
        )
    )
    assert nacl.structure.formula == "Cl4Na4" and nacl.kind == "bulk"
    path = tmp_path / "POSCAR"
    write(path, bulk("Si", "diamond", a=5.43), format="vasp")
    si = build_structure(StructureSpec(kind="file", path=str(path)))
    assert si.structure.formula == "Si2" and si.kind == "bulk"
    spec = StructureSpec(kind="materials_project", material_id="mp-149")
    with pytest.raises(ValidationError, match="API key"):
        build_structure(spec)
    fetched = build_structure(spec, fetcher=lambda mid: Structure.from_ase(bulk("Si")))
    assert fetched.structure.formula == "Si2" and "mp-149" in fetched.description


def test_clear_errors_for_what_cannot_be_built(lib) -> None:
    with pytest.raises(ParseError, match="unknown element"):
        request_from_text("SCF of Xq with PBE")
    with pytest.raises(ValidationError, match="cannot build bulk"):
        build_structure(StructureSpec(kind="bulk", name="NaCl3"))
    with pytest.raises(ValidationError, match="too thin"):
        build_structure(StructureSpec(kind="molecule", name="CO", vacuum_a=4.0))
    with pytest.raises(MissingPseudopotentialError, match="no usable Mo file"):
        rec_text("MoS2", lib)


def test_text_requests_are_parsed_deterministically() -> None:
    assert parse_dft_text("make me a sandwich") is None
    assert parse_dft_text("vc-relax of MgO")["calculation"] == "vc-relax"  # type: ignore[index]
    raw = parse_dft_text("relax a CH4 molecule with PBE")
    assert raw == {
        "structure": {"kind": "molecule", "name": "CH4"},
        "calculation": "relax",
        "functional": "pbe",
    }
    assert parse_dft_text("SCF of water with LDA")["structure"]["name"] == "H2O"  # type: ignore[index]
    with pytest.raises(ParseError, match="several materials"):
        parse_dft_text("SCF of Si and MgO with PBE")


# --- the files Debian ships ---------------------------------------------------------------

needs_system_pseudos = pytest.mark.skipif(
    not (SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF").is_file(), reason="quantum-espresso-data missing"
)


@needs_system_pseudos
@pytest.mark.parametrize(
    ("text", "functional", "assumed"),
    [
        ("SCF of Al", "lda", "LDA"),
        ("SCF of Au", "lda", "LDA"),
        ("SCF of Ti", "lda", "LDA"),
        ("SCF of Pt", "pbe", "spin-orbit"),
        ("SCF of Co", "pbesol", "PBESOL"),
        ("SCF of Cu", "pbe", None),
    ],
)
def test_shipped_library_gaps_are_bridged_and_reported(text, functional, assumed) -> None:
    lib = PseudoLibrary((SYSTEM_PSEUDO_DIR,))
    rec = recommend(request_from_text(text), lib)
    assert rec.pseudos.functional == functional
    if assumed:
        assert any(assumed in a for a in rec.assumed)
    assert not any(p.excited_core for p in rec.pseudos.pseudos)


@needs_system_pseudos
def test_shipped_library_refuses_pbe_al_and_names_the_directory(tmp_path: Path) -> None:
    lib = PseudoLibrary((SYSTEM_PSEUDO_DIR, tmp_path / "pseudo"))
    with pytest.raises(MissingPseudopotentialError) as info:
        recommend(request_from_text("SCF of Al with PBE"), lib)
    assert str(SYSTEM_PSEUDO_DIR) in str(info.value) and str(tmp_path / "pseudo") in str(info.value)
    rh = lib.select(["Rh"])
    assert rh.pseudos[0].name == "Rh.pbe-rrkjus_lb.UPF"  # not the core-hole "Rhs" file


def test_input_dft_contradicting_the_files_is_refused(lib) -> None:
    req = DftRequest.model_validate(
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "pbe",
            "overrides": {"system": {"input_dft": "pz"}},
        }
    )
    with pytest.raises(ValidationError, match="override the PBE"):
        recommend(req, lib)


def test_an_explicit_kpoint_mesh_replaces_the_spacing() -> None:
    from simwright.dft.recommender import recommend
    from simwright.dft.request import DftRequest
    from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs

    request = DftRequest.model_validate(
        {"formula": "Si", "functional": "pbe", "kpoints": [5, 5, 5]}
    )
    rec = recommend(request, PseudoLibrary(default_pseudo_dirs(Path("/nonexistent-home"))))
    assert rec.template.kpoints.mesh == (5, 5, 5)
