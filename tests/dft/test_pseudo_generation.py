"""Pseudopotential generation with the real ld1.x, a pw.x SCF with a generated file, and
the refusals that stay: nothing generated is found unless it was generated, a named
family is still refused by name, a file that fails ld1.x's tests is not installed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ase.build import bulk
from typer.testing import CliRunner

from simwright.cli.main import app
from simwright.dft.pseudo_generation import generate_pseudopotential
from simwright.engines.espresso.launcher import PwLauncher
from simwright.engines.espresso.ld1_template import Augmentation, Channel, PseudoRecipe
from simwright.engines.espresso.pseudo import read_upf_header
from simwright.engines.espresso.pseudo_generated import provenance_of, pseudo_record, sha256_of
from simwright.engines.espresso.pseudo_library import (
    SYSTEM_PSEUDO_DIR,
    MissingPseudopotentialError,
    PseudoLibrary,
)
from simwright.engines.espresso.pw import run_pw
from simwright.engines.espresso.template import KPoints, PwInput, Species
from simwright.errors import EngineError, ValidationError
from simwright.structure import Structure

pytestmark = pytest.mark.skipif(
    shutil.which("ld1.x") is None or shutil.which("pw.x") is None,
    reason="ld1.x and pw.x (quantum-espresso) are needed",
)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pseudo directory with the generated PBE Ga and As files (ld1.x, seconds)."""
    pseudo = tmp_path_factory.mktemp("home") / "pseudo"
    for element in ("Ga", "As"):
        generate_pseudopotential(element, "pbe", pseudo)
    return pseudo


def test_generation_installs_a_tested_file_with_provenance(generated: Path) -> None:
    upf = generated / "Ga.pbe-dn-rrkjus_simwright.UPF"
    info = read_upf_header(upf)
    assert (info.element, info.functional, info.kind, info.relativistic) == (
        "Ga",
        "pbe",
        "US",
        "scalar",
    )
    assert info.z_valence == 13 and info.core_correction
    record = provenance_of(upf)
    assert record is not None and record["sha256"] == sha256_of(upf)
    assert record["generator"]["program"] == "ld1.x" and record["generator"]["version"]
    assert record["recipe"]["element"] == "Ga" and "pslibrary 1.0.0" in record["recipe"]["source"]
    tests = record["tests"]
    assert tests["passed"] and tests["configurations"] == 5
    assert 0 < tests["max_eigenvalue_error_ry"] < 0.005
    run_dir = generated / "generated" / upf.stem
    assert (run_dir / "generate.in").is_file() and (run_dir / "test.out").is_file()


def test_library_reports_generated_files_and_only_untampered_ones(
    generated: Path, tmp_path: Path
) -> None:
    lib = PseudoLibrary((SYSTEM_PSEUDO_DIR, generated))
    sel = lib.select(["Ga", "As"], "pbe")
    assert {p.name for p in sel.pseudos} == {
        "Ga.pbe-dn-rrkjus_simwright.UPF",
        "As.pbe-n-rrkjus_simwright.UPF",
    }
    assert all(p.generated_here for p in sel.pseudos)
    assert sum("was generated here with ld1.x" in a for a in sel.assumed) == 2
    assert "generated here by ld1.x" in sel.pseudos[0].describe()
    # a copy without its record, or an edited file, is not "generated here"
    other = tmp_path / "pseudo"
    other.mkdir()
    shutil.copy(generated / "As.pbe-n-rrkjus_simwright.UPF", other)
    assert not PseudoLibrary((other,)).by_name("As.pbe-n-rrkjus_simwright.UPF").generated_here


def test_tampered_file_loses_its_generated_mark(tmp_path: Path) -> None:
    pseudo = tmp_path / "pseudo"
    made = generate_pseudopotential("As", "lda", pseudo)
    assert PseudoLibrary((pseudo,)).by_name(made.path.name).generated_here
    made.path.write_text(made.path.read_text().replace("simwright (ld1.x)", "someone else"))
    assert not PseudoLibrary((pseudo,)).by_name(made.path.name).generated_here


def test_pw_scf_runs_with_generated_files(generated: Path, tmp_path: Path) -> None:
    """GaAs at a low 25/150 Ry and a 2×2×2 mesh: a smoke test, not a converged value."""
    inp = PwInput(
        {
            "control": {"calculation": "scf"},
            "system": {"ecutwfc": 25.0, "ecutrho": 150.0, "nbnd": 13},
            "electrons": {"conv_thr": 1e-7},
        },
        (
            Species("Ga", "Ga.pbe-dn-rrkjus_simwright.UPF"),
            Species("As", "As.pbe-n-rrkjus_simwright.UPF"),
        ),
        Structure.from_ase(bulk("GaAs", "zincblende", a=5.653)),
        KPoints(mesh=(2, 2, 2)),
    )
    run = run_pw(inp, tmp_path, launcher=PwLauncher(), pseudo_dirs=(generated,))
    assert run.valid, run.problems
    out = run.output
    assert out.scf_converged and out.n_electrons == pytest.approx(18.0)
    assert out.homo_ev is not None and out.lumo_ev is not None
    assert 0.1 < out.lumo_ev - out.homo_ev < 2.5  # a semiconductor (9 occupied bands)


def test_missing_element_refusal_says_how_to_generate(tmp_path: Path) -> None:
    lib = PseudoLibrary((SYSTEM_PSEUDO_DIR, tmp_path / "pseudo"))
    with pytest.raises(MissingPseudopotentialError) as err:
        lib.select(["Ga", "As"], "pbe")
    assert "generate one with `simwright dft pseudo generate Ga --functional pbe`" in str(err.value)
    with pytest.raises(MissingPseudopotentialError, match="--functional lda"):
        lib.select(["Ga", "As"], "lda")
    with pytest.raises(MissingPseudopotentialError) as no_recipe:
        lib.select(["Ga"], "pbesol")  # no ld1.x recipe for PBEsol: no hint
    assert "generate" not in str(no_recipe.value)


def test_a_named_family_is_still_refused_with_generated_files(generated: Path) -> None:
    lib = PseudoLibrary((SYSTEM_PSEUDO_DIR, generated))
    with pytest.raises(ValidationError, match="no pslibrary pseudopotential for Ga"):
        lib.select(["Ga", "As"], "pbe", families=("pslibrary",))


def test_unknown_element_functional_and_kind_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="recipe for Fe"):
        generate_pseudopotential("Fe", "pbe", tmp_path)
    with pytest.raises(ValidationError, match="pbesol"):
        generate_pseudopotential("Ga", "pbesol", tmp_path)
    with pytest.raises(ValidationError, match="'nc'"):
        generate_pseudopotential("Ga", "pbe", tmp_path, kind="nc")  # type: ignore[arg-type]
    assert not any(tmp_path.iterdir())


def test_a_file_failing_ld1_tests_is_not_installed(tmp_path: Path) -> None:
    """Mg with only 3s in valence and large radii (the older pslibrary 0.3.0 choice)
    misses the strongly ionised 3s0.5 configuration by about 8 mRy."""
    loose = PseudoRecipe(
        element="Mg",
        configuration="[Ne] 3s2.0 3p0.0 3d-2.0",
        valence_tag="n",
        local_l=2,
        rcloc_bohr=None,
        channels=(
            Channel("3S", 1, 0, 2.00, 0.00, 2.30, 2.50),
            Channel("3S", 2, 0, 0.00, 6.50, 1.40, 2.50),
            Channel("3P", 2, 1, 0.00, 0.00, 2.40, 2.60),
            Channel("3P", 3, 1, 0.00, 6.30, 1.40, 2.60),
            Channel("3D", 3, 2, -2.00, 0.30, 2.30, 2.30),
        ),
        us_augmentation=Augmentation("PSQ", 1.9),
        paw_augmentation=Augmentation("PSQ", 1.9),
        core_radius_bohr=2.1,
        tests=("3s2 3p0", "3s0.5 3p0"),
        source="test",
    )
    pseudo = tmp_path / "pseudo"
    with pytest.raises(EngineError, match=r"failed ld1\.x's tests and was not installed"):
        generate_pseudopotential("Mg", "pbe", pseudo, recipe=loose)
    assert not list(pseudo.glob("*.UPF"))
    # regenerating over an installed file that now fails removes the old file too
    stale = pseudo / "Mg.pbe-n-rrkjus_simwright.UPF"
    stale.write_text("an earlier generation")
    with pytest.raises(EngineError):
        generate_pseudopotential("Mg", "pbe", pseudo, recipe=loose)
    assert not stale.exists()
    assert (pseudo / "generated" / "Mg.pbe-n-rrkjus_simwright" / "test.out").is_file()


def test_cli_generates_into_the_home(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "dft",
            "pseudo",
            "generate",
            "As",
            "--functional",
            "pbe",
            "--home",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["file"] == str(tmp_path / "pseudo" / "As.pbe-n-rrkjus_simwright.UPF")
    assert data["provenance"]["generated_here"] is True
    refused = CliRunner().invoke(
        app, ["dft", "pseudo", "generate", "Ga", "--kind", "nc", "--home", str(tmp_path)]
    )
    assert refused.exit_code == 2 and "us or paw" in refused.output


def test_settings_record_says_generated_here(generated: Path) -> None:
    made = pseudo_record(generated / "Ga.pbe-dn-rrkjus_simwright.UPF")
    assert made["generated_here"] is True and made["generator"].startswith("ld1.x 6.")
    assert Path(made["provenance"]).is_file() and "pslibrary 1.0.0" in made["recipe_source"]
    shipped = pseudo_record(SYSTEM_PSEUDO_DIR / "Si.pz-vbc.UPF")
    assert set(shipped) == {"file", "sha256"}
