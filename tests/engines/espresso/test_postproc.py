"""Readers and inputs of the QE post-processing tools (bands.x, dos.x, projwfc.x) on
files written the way pw.x 6.7's tools write them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simwright.analysis.band_gap import band_gap
from simwright.engines.espresso.postproc import tool_input
from simwright.engines.espresso.postproc_files import (
    pdos_by_element_orbital,
    read_dos,
    read_filband,
    read_pdos,
)
from simwright.errors import ParseError, ValidationError

FILBAND = """ &plot nbnd=  12, nks=     2 /
            0.000000  0.000000  0.000000
   -5.837    6.108    6.108    6.108    8.653    8.653    8.653    9.382   13.100   13.100
   14.000   15.000
            0.000000  0.707107  0.000000
 -101.688   -1.688    3.222    3.222    6.753    6.753   16.103   16.103   17.000   17.000
   18.000   19.000
"""


def test_filband_with_wrapped_rows_and_wide_numbers(tmp_path: Path) -> None:
    path = tmp_path / "bands.dat"
    path.write_text(FILBAND)
    bands = read_filband(path)
    assert bands.energies_ev.shape == (2, 12)
    assert bands.energies_ev[1, 0] == -101.688 and bands.kpoints[1, 1] == pytest.approx(0.707107)
    path.write_text(FILBAND.replace("nks=     2", "nks=     3"))
    with pytest.raises(ParseError, match="expected 3 k-points"):
        read_filband(path)


def test_dos_files_with_and_without_spin(tmp_path: Path) -> None:
    plain = tmp_path / "dos.dat"
    plain.write_text(
        "#  E (eV)   dos(E)     Int dos(E) EFermi =    6.504 eV\n"
        "  -5.837  0.0000E+00  0.0000E+00\n  -5.787  0.1854E-02  0.3090E-04\n"
    )
    dos = read_dos(plain)
    assert set(dos.columns) == {"dos", "int_dos"} and dos.fermi_ev == 6.504
    spin = tmp_path / "dos_spin.dat"
    spin.write_text(
        "#  E (eV)   dosup(E)   dosdw(E)  Int dos(E) EFermi =   12.770 eV\n"
        "  1.0  0.1  0.2  0.0\n  1.1  0.3  0.4  0.1\n"
    )
    assert set(read_dos(spin).columns) == {"dosup", "dosdw", "int_dos"}


def test_pdos_files_are_summed_per_element_and_orbital(tmp_path: Path) -> None:
    header = "# E (eV)  ldos(E)  pdos(E)\n"
    for atom in (1, 2):
        (tmp_path / f"pdos.pdos_atm#{atom}(Si)_wfc#2(p)").write_text(
            header + "0.0 1.0 1.0\n0.1 2.0 2.0\n"
        )
    (tmp_path / "pdos.pdos_tot").write_text(header)
    sums = pdos_by_element_orbital(read_pdos(tmp_path, "pdos"))
    assert list(sums) == ["Si_p"] and np.allclose(sums["Si_p"], [2.0, 4.0])
    with pytest.raises(ParseError, match="no other"):
        read_pdos(tmp_path, "other")


def test_tool_inputs_set_the_paths_and_refuse_others() -> None:
    text = tool_input("dos", {"fildos": "dos.dat", "DeltaE": 0.05})
    assert text.startswith("&DOS\n") and "outdir = './tmp'" in text and "prefix = 'pwscf'" in text
    with pytest.raises(ValidationError, match="plain file name"):
        tool_input("dos", {"fildos": "../elsewhere/dos.dat"})
    with pytest.raises(ValidationError, match="set by simwright"):
        tool_input("bands", {"outdir": "/tmp"})


def test_band_gap_direct_indirect_and_metal() -> None:
    e = np.array([[-1.0, 0.0, 2.0], [-1.0, -0.5, 1.0]])
    gap = band_gap(e, 2)
    assert gap is not None and gap.gap_ev == pytest.approx(1.0) and gap.kind == "indirect"
    assert (gap.vbm_k, gap.cbm_k, gap.direct_gap_ev) == (0, 1, 1.5)
    assert band_gap(np.array([[0.0, 1.0]]), 1).kind == "direct"  # type: ignore[union-attr]
    assert band_gap(np.array([[0.0, 1.0], [1.5, 2.0]]), 1) is None
    with pytest.raises(ValidationError, match="need at least"):
        band_gap(e, 3)


def test_an_explicit_k_point_list_is_written_in_crystal_coordinates() -> None:
    from simwright.engines.espresso.template import KPoints

    k = KPoints("crystal", points=((0.0, 0.0, 0.0), (0.5, 0.0, 0.5)))
    assert k.render().splitlines() == [
        "K_POINTS crystal",
        "  2",
        "  0.0000000000 0.0000000000 0.0000000000 1",
        "  0.5000000000 0.0000000000 0.5000000000 1",
    ]
    assert k.describe() == "2 listed points"
    with pytest.raises(ValidationError, match="needs its points"):
        KPoints("crystal")
