"""ld1.x inputs from typed recipes, and the reading of ld1.x's test output (no ld1.x run
here: tests/dft/test_pseudo_generation.py runs the real program)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simwright.engines.espresso.ld1_output import (
    MAX_EIGENVALUE_ERROR_RY,
    ld1_version,
    parse_test_output,
)
from simwright.engines.espresso.ld1_template import (
    Augmentation,
    generated_file_name,
    render_generation,
    render_test,
)
from simwright.engines.espresso.pseudo_recipes import ARSENIC, GALLIUM, MAGNESIUM, recipe_for
from simwright.errors import ParseError, ValidationError


def test_generation_input_carries_every_recipe_choice() -> None:
    text = render_generation(GALLIUM, "pbe", "us", "Ga.x.UPF")
    assert "zed=31.0," in text and "config='[Ar] 3d10 4s2 4p1'" in text
    assert "iswitch=3," in text and "dft='PBE'" in text
    assert "lloc=-1," in text and "rcloc=1.90," in text
    assert "nlcc=.true.," in text and "rcore=1.10," in text
    assert "rmatch_augfun_nc=.true.," in text and "lpaw" not in text
    cards = text.strip().splitlines()[-7:]
    assert cards[0] == "6" and cards[1].split() == [
        "4S",
        "1",
        "0",
        "2.00",
        "0.00",
        "1.30",
        "2.20",
        "0.0",
    ]
    assert cards[6].split()[:5] == ["3D", "3", "2", "0.00", "-1.30"]


def test_lda_paw_and_explicit_augmentation_radius() -> None:
    recipe = replace(ARSENIC, paw_augmentation=Augmentation("BESSEL", 1.9))
    text = render_generation(recipe, "lda", "paw", "As.y.UPF")
    assert "dft='PZ'" in text and "lpaw=.true.," in text
    assert "which_augfun='BESSEL'," in text and "rmatch_augfun=1.90," in text
    assert "rcloc" not in text and "lloc=2," in text


def test_file_names_say_generated_here() -> None:
    assert generated_file_name(GALLIUM, "pbe", "us") == "Ga.pbe-dn-rrkjus_simwright.UPF"
    assert generated_file_name(MAGNESIUM, "lda", "paw") == "Mg.pz-spn-kjpaw_simwright.UPF"
    with pytest.raises(ValidationError, match="pbesol"):
        generated_file_name(GALLIUM, "pbesol", "us")


def test_test_input_lists_the_configurations_and_the_bessel_scan() -> None:
    text = render_test(MAGNESIUM, "pbe", "Mg.z.UPF")
    assert "iswitch=2," in text and "file_pseudo='Mg.z.UPF'," in text
    assert f"nconf={len(MAGNESIUM.tests)}," in text
    assert "configts(5)='2s2 2p6 3s0.5 3p0'," in text and "ecutmax=90" in text


def test_recipes_refuse_unknown_elements_by_name() -> None:
    assert recipe_for("As") is ARSENIC
    with pytest.raises(ValidationError, match="no pseudopotential generation recipe for Fe"):
        recipe_for("Fe")
    with pytest.raises(ValidationError, match="rcloc"):
        replace(GALLIUM, rcloc_bohr=None)


def _block(de_ps: float, delta: str, bessel_s: float) -> str:
    return f"""
     ---------------------- Testing the pseudopotential ----------------------
     n l     nl             e AE (Ry)        e PS (Ry)    De AE-PS (Ry)
     1 0     4S   1( 2.00)       -1.20034       {de_ps:.5f}        0.00014
     2 1     4P   1( 0.00)       -0.66647       -0.66661        0.00013
     {delta}
     ---------------------- End of pseudopotential test ----------------------
     -------------- Test with a basis set of Bessel functions ----------
     Cutoff (Ry) :   30.0
     E(L=0) =        -1.2011 Ry   -0.2863 Ry    0.0245 Ry
     Cutoff (Ry) :   90.0
     E(L=0) =        {bessel_s:.4f} Ry   -0.2863 Ry    0.0245 Ry
     E(L=1) =        -0.6675 Ry   -0.1770 Ry   -0.0821 Ry
     -------------- End of Bessel function test ------------------------
"""


def test_a_clean_test_passes() -> None:
    text = (
        "     Program LD1 v.6.7MaX starts\n"
        + _block(-1.2004, "", -1.2011)
        + _block(-1.2004, "dEtot_ps =  0.4181 Ry,   Delta E=      -0.000078 Ry", -1.2011)
    )
    report = parse_test_output(text)
    assert report.passed and report.version == "6.7MaX" and len(report.configurations) == 2
    assert report.configurations[0].energy_error_ry is None
    assert report.configurations[1].energy_error_ry == pytest.approx(-0.000078)
    assert report.configurations[1].bessel_lowest_ry == {0: -1.2011, 1: -0.6675}
    eig, tot = report.worst_errors_ry()
    assert eig == pytest.approx(0.00014, abs=1e-6) and tot == pytest.approx(0.000078)


def test_eigenvalue_energy_and_ghost_failures_are_named() -> None:
    off = -1.20034 + 2 * MAX_EIGENVALUE_ERROR_RY
    bad = _block(off, "Delta E=      0.012 Ry", -1.9)
    problems = parse_test_output(bad).problems
    assert any("4S eigenvalue off by 10.0 mRy" in p for p in problems)
    assert any("energy difference off by 12.0 mRy" in p for p in problems)
    assert any("ghost state for l=0 at -1.9000 Ry" in p for p in problems)


def test_not_a_test_output_is_refused() -> None:
    with pytest.raises(ParseError):
        parse_test_output("     Program LD1 v.6.7MaX starts\n")
    assert ld1_version("nothing") == ""
