"""The pw.x parameter knowledge graph: completeness against ASE's list of pw.x keys, search,
show, validation, activation by physical conditions, and the ``dft params`` CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ase.io.espresso_namelist.keys import pw_keys
from typer.testing import CliRunner

from simwright.cli.dft import dft_app
from simwright.dft.knowledge_graph import load_knowledge_graph, split_name
from simwright.dft.validation import errors, validate_input
from simwright.errors import ValidationError

NAMELISTS = ("control", "system", "electrons", "ions", "cell")


@pytest.fixture(scope="module")
def kg():
    return load_knowledge_graph()


@pytest.mark.parametrize("namelist", NAMELISTS)
def test_every_ase_pw_key_is_covered_or_known_to_be_later(kg, namelist: str) -> None:
    """ASE lists the keys of a newer pw.x: each is in the graph (in the same namelist)
    or recorded as introduced after 6.7."""
    for name in pw_keys[namelist]:
        param = kg.parameters.get(name.lower())
        if param is not None:
            assert param.namelist == namelist, name
        else:
            assert kg.later_version(name) == namelist, f"{namelist}.{name} is not covered"


def test_documented_variables_have_types_descriptions_and_defaults(kg) -> None:
    documented = [p for p in kg.variables() if p.status == "documented"]
    assert len(documented) >= 170
    for p in documented:
        assert p.type in ("int", "float", "bool", "str"), p.name
        assert p.description and len(p.description) < 200, p.name
    assert kg.lookup("calculation").allowed == (
        "scf",
        "nscf",
        "bands",
        "relax",
        "md",
        "vc-relax",
        "vc-md",
    )
    assert kg.lookup("mixing_beta").default == 0.7
    assert kg.lookup("Hubbard_U(1)").indexed == "ntyp"
    assert kg.lookup("lda_plus_u") is not None and kg.lookup("Hubbard_U") is not None
    assert set(kg.cards) >= {"ATOMIC_SPECIES", "ATOMIC_POSITIONS", "K_POINTS", "CELL_PARAMETERS"}
    assert "automatic" in kg.cards["K_POINTS"].allowed


def test_search_by_name_and_description(kg) -> None:
    assert kg.search("degauss")[0].name == "degauss"
    assert {"smearing", "degauss", "occupations"} <= {p.name for p in kg.search("smearing")}
    assert kg.search("van der waals")[0].name == "vdw_corr"
    assert kg.search("hubbard u")[0].name == "Hubbard_U"
    assert kg.search("k-points")[0].name == "K_POINTS"
    assert kg.search("") == []


def test_show_lists_edges(kg) -> None:
    view = kg.show("degauss")
    assert "occupations" in view.requires and "metal" in view.activated_by
    assert "degauss" in kg.show("occupations").required_by
    assert "hybrid" in kg.show("nqx1").activated_by and "input_dft" in kg.show("nqx1").requires
    assert "spin_polarized" in kg.show("starting_magnetization").activated_by
    assert "vc_relax" in kg.show("cell_dynamics").activated_by
    assert "2D" in kg.show("assume_isolated").parameter.allowed
    with pytest.raises(ValidationError, match="tstress"):
        kg.show("tstres")


@pytest.mark.parametrize(
    ("conditions", "expected"),
    [
        (["metal"], {"occupations": "smearing", "smearing": "mv", "degauss": 0.02}),
        (["spin_polarized"], {"nspin": 2, "starting_magnetization": 0.5}),
        (["relax"], {"calculation": "relax", "ion_dynamics": "bfgs"}),
        (["vc_relax"], {"calculation": "vc-relax", "cell_dynamics": "bfgs"}),
        (["hybrid"], {"input_dft": "pbe0", "nqx1": 1, "exxdiv_treatment": "gygi-baldereschi"}),
        (["two_d"], {"assume_isolated": "2D", "vacuum_a": 15.0}),
        (["hubbard"], {"lda_plus_u": True, "Hubbard_U": 4.0}),
        (["vdw"], {"vdw_corr": "grimme-d3"}),
        (["spin_orbit"], {"noncolin": True, "lspinorb": True}),
    ],
)
def test_conditions_activate_parameters(kg, conditions, expected) -> None:
    got = {a.name: a.value for a in kg.activated(conditions)}
    assert expected.items() <= got.items()
    namelists = {a.name: a.namelist for a in kg.activated(conditions)}
    if "ion_dynamics" in got:
        assert namelists["ion_dynamics"] == "ions"


def test_unknown_condition_is_refused(kg) -> None:
    with pytest.raises(ValidationError, match="unknown condition"):
        kg.activated(["superconducting"])


def test_validate_suggests_the_closest_name_and_its_namelist(kg) -> None:
    problems = validate_input({"control": {"tstres": True}, "system": {"ecutwfc": 30.0}}, kg)
    [p] = errors(problems)
    assert p.kind == "unknown_variable" and p.suggestion == "tstress"
    assert p.suggested_namelist == "control"
    assert p.fix == {"control": {"tstres": None, "tstress": True}}
    [moved] = validate_input({"control": {"mixing_beta": 0.3}}, kg)
    assert moved.kind == "wrong_namelist" and moved.suggested_namelist == "electrons"
    assert moved.fix == {"control": {"mixing_beta": None}, "electrons": {"mixing_beta": 0.3}}


@pytest.mark.parametrize(
    ("namelists", "kind"),
    [
        ({"system": {"ecutwfc": "thirty"}}, "wrong_type"),
        ({"system": {"nspin": 3}}, "not_allowed"),
        (
            {"system": {"smearing": "triangle", "occupations": "smearing", "degauss": 0.01}},
            "not_allowed",
        ),
        ({"control": {"nstep": -1}}, "out_of_range"),
        ({"system": {"occupations": "smearing"}}, "missing_dependency"),
        ({"system": {"nspin": 2}}, "missing_dependency"),
        (
            {"system": {"nspin": 2, "occupations": "smearing", "degauss": 0.01}},
            "missing_dependency",
        ),
        ({"system": {"ecutwfc": 40.0, "ecutrho": 40.0}}, "inconsistent"),
        ({"control": {"calculation": "vc-relax"}, "ions": {}}, "missing_namelist"),
        ({"system": {"lgcscf": True}}, "later_version"),
        ({"system": {"ensemble_energies": True}}, "rejected"),
        ({"foo": {"bar_baz_qux": 1}}, "unknown_variable"),
    ],
)
def test_validate_reports_each_kind_of_problem(kg, namelists, kind) -> None:
    kinds = {p.kind for p in errors(validate_input(namelists, kg))}
    assert kind in kinds


@pytest.mark.parametrize(
    ("namelists", "kind"),
    [
        ({"system": {"degauss": 0.02}}, "missing_dependency"),
        ({"system": {"Hubbard_U(1)": 4.0}}, "missing_dependency"),
        ({"system": {"london_s6": 0.8}}, "missing_dependency"),
        ({"system": {"nqx1": 2}}, "missing_dependency"),
        ({"control": {"disk_io": "everything"}}, "not_allowed"),
        ({"electrons": {"mixing_beta": 1.5}}, "out_of_range"),
        ({"system": {"starting_magnetization(1)": 2.0}}, "out_of_range"),
        ({"system": {"starting_magnetization": 0.5}}, "missing_index"),
        ({"system": {"ecutwfc": 40.0, "ecutrho": 100.0}}, "inconsistent"),
        (
            {
                "system": {
                    "nspin": 2,
                    "occupations": "smearing",
                    "degauss": 0.01,
                    "starting_magnetization(1)": 0.0,
                }
            },
            "inconsistent",
        ),
    ],
)
def test_what_pw_accepts_is_only_a_warning(kg, namelists, kind) -> None:
    """pw.x 6.7 runs these (the setting is ignored or falls back): warnings, not errors."""
    problems = validate_input(namelists, kg)
    assert errors(problems) == []
    assert kind in {p.kind for p in problems if p.severity == "warning"}


def test_a_consistent_metal_spin_input_has_no_errors(kg) -> None:
    good = {
        "control": {"calculation": "relax"},
        "system": {
            "ecutwfc": 30.0,
            "ecutrho": 240.0,
            "occupations": "smearing",
            "smearing": "mv",
            "degauss": 0.02,
            "nspin": 2,
            "starting_magnetization(1)": 0.4,
        },
        "electrons": {"mixing_beta": 0.3},
        "ions": {"ion_dynamics": "bfgs"},
    }
    assert errors(validate_input(good, kg)) == []
    assert split_name("Hubbard_U(2)") == ("Hubbard_U", "2")


def test_undocumented_variables_are_warnings(kg) -> None:
    [p] = validate_input({"electrons": {"emass": 400.0}}, kg)
    assert p.severity == "warning" and p.kind == "undocumented"


@pytest.mark.skipif(shutil.which("pw.x") is None, reason="pw.x is not installed")
def test_pw67_itself_rejects_the_later_names_and_accepts_ours(tmp_path: Path, kg) -> None:
    """A few names checked against the real program (the full check is in docs/dft.md)."""

    def reads(namelist: str, line: str) -> bool:
        text = (
            f"&CONTROL\n{line if namelist == 'control' else ''}\n/\n"
            f"&SYSTEM\n ibrav=2, celldm(1)=10.2, nat=1, ntyp=1, ecutwfc=10\n"
            f"{line if namelist == 'system' else ''}\n/\n&ELECTRONS\n"
            f"{line if namelist == 'electrons' else ''}\n/\n"
        )
        (tmp_path / "in").write_text(text)
        (tmp_path / "CRASH").unlink(missing_ok=True)
        subprocess.run(
            ["pw.x", "-in", "in"], cwd=tmp_path, capture_output=True, timeout=60, check=False
        )
        crash = (tmp_path / "CRASH").read_text() if (tmp_path / "CRASH").exists() else ""
        return "bad line in namelist" not in crash

    assert kg.later_version("nbnd_cond") == "system"
    assert not reads("system", " nbnd_cond=4")
    assert not reads("electrons", " diago_rmm_ndim=4")
    assert reads("system", " lda_plus_u=.false.")
    assert reads("electrons", " mixing_beta=0.5")


def test_cli_params_search_and_show() -> None:
    runner = CliRunner()
    res = runner.invoke(dft_app, ["params", "search", "smearing", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["count"] >= 3 and data["results"][0]["name"] == "smearing"
    res = runner.invoke(dft_app, ["params", "show", "degauss", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["requires"] == ["occupations"]
    res = runner.invoke(dft_app, ["params", "show", "degauss"])
    assert "activated by: metal" in res.stdout
    res = runner.invoke(dft_app, ["params", "show", "tstres", "--json"])
    assert res.exit_code == 2 and "tstress" in json.loads(res.stdout)["error"]


def test_cli_validate(tmp_path: Path) -> None:
    spec = tmp_path / "input.yaml"
    spec.write_text("control:\n  tstres: true\nsystem:\n  ecutwfc: 30.0\n")
    res = CliRunner().invoke(dft_app, ["validate", str(spec), "--json"])
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    assert not data["ok"] and data["problems"][0]["suggestion"] == "tstress"


def test_the_cli_module_imports_no_engine() -> None:
    """``simwright.cli.main`` mounts ``dft_app`` at import; it must stay light."""
    code = (
        "import sys, simwright.cli.dft; "
        "print(sorted(m for m in ('ase', 'h5py', 'networkx', 'numpy') if m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert proc.stdout.strip() == "[]"
