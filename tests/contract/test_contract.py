"""The file contract: tables, structures, trajectory manifests, DCD headers, inspect."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pytest

from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    TrajectoryManifest,
    dcd_header,
    detect_kind,
    inspect_file,
    read_structure,
    read_structure_info,
    read_structures,
    read_table,
    read_trajectory_manifest,
    write_structure,
    write_table,
    write_trajectory_manifest,
)
from simwright.errors import ContractError
from simwright.structure import Structure

# --------------------------------------------------------------------------- fixtures


def thermo_table() -> Table:
    time = np.arange(5) * 10.0
    return Table(
        name="thermo",
        columns=(
            Column("time", time, "fs", "simulation time"),
            Column("temperature", np.array([300.0, 301.5, 299.0, 298.2, 300.4]), "K"),
            Column("box", np.full((5, 3), 20.0), "Å", "box lengths a, b, c"),
            Column("converged", np.array([False, False, True, True, True]), "1"),
            Column("phase", np.array(["heat", "heat", "hold", "hold", "hold"]), "1"),
        ),
        description="thermodynamic output of an NVT run",
        producer="run-1/003-NPTEquilibrate",
        links=("final.xyz",),
        attrs={"fit_slope_A2_fs": 0.125, "n_blocks": 4, "method": "block average"},
    )


def water(n_molecules: int = 2) -> Structure:
    symbols: list[str] = []
    positions: list[list[float]] = []
    mol_ids: list[int] = []
    for m in range(n_molecules):
        x = 3.0 * m + 1.0
        symbols += ["O", "H", "H"]
        positions += [[x, 1.0, 1.0], [x + 0.96, 1.0, 1.0], [x - 0.24, 1.93, 1.0]]
        mol_ids += [m + 1] * 3
    return Structure(
        symbols=tuple(symbols),
        positions=np.array(positions),
        cell=np.diag([3.0 * n_molecules, 6.0, 6.0]),
        pbc=(True, True, True),
        molecule_ids=tuple(mol_ids),
    )


LJ_MELT = """\
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 3 0 3 0 3
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
fix 1 all nve
dump 1 all dcd 10 traj.dcd
dump_modify 1 unwrap yes
write_data topo.data
run 50
"""


@pytest.fixture(scope="module")
def lammps_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding traj.dcd (6 frames of 108 atoms) and topo.data, written by LAMMPS."""
    lmp = Path(sys.executable).parent / "lmp"
    exe = str(lmp) if lmp.exists() else shutil.which("lmp")
    if exe is None:
        pytest.skip("LAMMPS executable 'lmp' not found")
    workdir = tmp_path_factory.mktemp("lj")
    (workdir / "in.melt").write_text(LJ_MELT)
    subprocess.run(
        [exe, "-in", "in.melt", "-log", "log.lammps", "-screen", "none"],
        cwd=workdir,
        check=True,
        timeout=120,
        capture_output=True,
    )
    return workdir


def lj_manifest(**changes: Any) -> TrajectoryManifest:
    fields: dict[str, Any] = {
        "trajectory": "traj.dcd",
        "format": "dcd",
        "topology": "topo.data",
        "topology_format": "lammps-data",
        "n_atoms": 108,
        "n_frames": 6,
        "timestep_fs": 2.0,
        "frame_interval_steps": 10,
        "unwrapped": True,
        "producer": "run-1/004-NVTProduction",
        "description": "LJ melt",
    }
    fields.update(changes)
    return TrajectoryManifest(**fields)


# --------------------------------------------------------------------------- tables


def test_table_round_trip_keeps_units_order_and_metadata(tmp_path: Path) -> None:
    table = thermo_table()
    path = write_table(tmp_path / "sub" / "thermo.h5", table)

    back = read_table(path)

    assert back == table
    assert back.names == ("time", "temperature", "box", "converged", "phase")
    assert back.column("box").unit == "Å"
    assert back.column("time").description == "simulation time"
    assert back["box"].shape == (5, 3)
    assert back["phase"].tolist() == ["heat", "heat", "hold", "hold", "hold"]
    assert back.n_rows == 5
    assert back.attrs == {"fit_slope_A2_fs": 0.125, "n_blocks": 4, "method": "block average"}
    assert list(back.attrs) == ["fit_slope_A2_fs", "n_blocks", "method"]
    assert back.links == ("final.xyz",)
    assert back.producer == "run-1/003-NPTEquilibrate"


def test_table_file_layout_uses_documented_attribute_names(tmp_path: Path) -> None:
    path = write_table(tmp_path / "thermo.h5", thermo_table())
    with h5py.File(path, "r") as h5:
        assert h5.attrs["simwright_schema"] == SCHEMA_VERSION
        assert h5.attrs["kind"] == "table"
        assert json.loads(h5.attrs["links"]) == ["final.xyz"]
        assert json.loads(h5["columns"].attrs["order"])[0] == "time"
        assert h5["columns/temperature"].attrs["units"] == "K"
        assert h5["attrs"].attrs["n_blocks"] == 4


def test_missing_column_error_lists_available_columns() -> None:
    with pytest.raises(ContractError, match="available: time, temperature, box"):
        thermo_table().column("pressure")


@pytest.mark.parametrize("unit", ["", "  "])
def test_column_without_unit_is_refused(unit: str) -> None:
    with pytest.raises(ContractError, match="'pressure' has no unit"):
        Column("pressure", np.zeros(3), unit)


def test_ragged_columns_are_refused() -> None:
    with pytest.raises(ContractError, match=r"same number of rows.*a=3, b=4"):
        Table("t", (Column("a", np.zeros(3), "1"), Column("b", np.zeros(4), "1")), "ragged")


def test_column_of_three_dimensions_is_refused() -> None:
    with pytest.raises(ContractError, match=r"1-D .* or 2-D"):
        Column("x", np.zeros((2, 2, 2)), "Å")


def _rewrite_schema(path: Path, value: str | None) -> None:
    with h5py.File(path, "r+") as h5:
        if value is None:
            del h5.attrs["simwright_schema"]
        else:
            h5.attrs["simwright_schema"] = value


def test_table_from_newer_major_schema_is_refused(tmp_path: Path) -> None:
    path = write_table(tmp_path / "t.h5", thermo_table())
    _rewrite_schema(path, "2.0")
    with pytest.raises(ContractError, match=r"contract 2\.0.*reads contract 1\.x"):
        read_table(path)


def test_table_from_newer_minor_schema_is_read(tmp_path: Path) -> None:
    path = write_table(tmp_path / "t.h5", thermo_table())
    _rewrite_schema(path, "1.7")
    assert read_table(path).name == "thermo"


def test_table_without_schema_is_refused(tmp_path: Path) -> None:
    path = write_table(tmp_path / "t.h5", thermo_table())
    _rewrite_schema(path, None)
    with pytest.raises(ContractError, match="not a simwright contract file"):
        read_table(path)


def test_reading_a_non_hdf5_file_as_table_is_a_contract_error(tmp_path: Path) -> None:
    path = tmp_path / "t.h5"
    path.write_text("not hdf5")
    with pytest.raises(ContractError, match="not a readable HDF5 file"):
        read_table(path)
    with pytest.raises(ContractError, match="no such table file"):
        read_table(tmp_path / "absent.h5")


# --------------------------------------------------------------------------- structures


def test_structure_round_trip_keeps_molecule_ids_and_info(tmp_path: Path) -> None:
    original = water()
    path = write_structure(
        tmp_path / "water.xyz",
        original,
        producer="run-1/001-Pack",
        info={"temperature_K": 298.15, "note": "packed box", "stage": 1},
    )

    back = read_structure(path)
    info = read_structure_info(path)

    assert back == original
    assert back.molecule_ids == (1, 1, 1, 2, 2, 2)
    assert info["kind"] == "structure"
    assert info["producer"] == "run-1/001-Pack"
    assert info["temperature_K"] == pytest.approx(298.15)
    assert info["note"] == "packed box"
    assert info["stage"] == 1
    assert float(info["simwright_schema"]) == float(SCHEMA_VERSION)


def test_reserved_info_keys_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ContractError, match="reserved"):
        write_structure(tmp_path / "w.xyz", water(), info={"kind": "other"})


def test_multi_frame_extxyz_is_read_in_order(tmp_path: Path) -> None:
    from ase.io import write

    frames = [water(1).with_positions(water(1).positions + shift) for shift in (0.0, 0.1, 0.2)]
    path = tmp_path / "frames.xyz"
    with path.open("w") as handle:
        write(handle, [s.to_ase() for s in frames], format="extxyz")

    assert read_structures(path) == frames
    assert read_structure(path, index=0) == frames[0]
    assert read_structure(path) == frames[-1]
    assert "frames: 3, showing the last" in inspect_file(path)


def test_structure_from_newer_major_schema_is_refused(tmp_path: Path) -> None:
    path = write_structure(tmp_path / "w.xyz", water())
    path.write_text(path.read_text().replace("simwright_schema=1.0", "simwright_schema=2.0"))
    with pytest.raises(ContractError, match="upgrade simwright"):
        read_structure(path)


@pytest.mark.parametrize("content", ["", "garbage\nmore\n", "3\n\nH 0 0 0\n"])
def test_unreadable_structure_is_a_contract_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.xyz"
    path.write_text(content)
    with pytest.raises(ContractError, match="not a readable extxyz file"):
        read_structure(path)


def test_missing_structure_is_a_contract_error(tmp_path: Path) -> None:
    with pytest.raises(ContractError, match="no such structure file"):
        read_structures(tmp_path / "absent.xyz")


# --------------------------------------------------------------------------- trajectories


def test_manifest_round_trip(tmp_path: Path) -> None:
    manifest = lj_manifest(units={"length": "Å", "time": "fs", "velocity": "Å/fs"})
    path = write_trajectory_manifest(tmp_path / "prod.traj.json", manifest)

    back = read_trajectory_manifest(path)

    assert back == manifest
    assert back.duration_fs == pytest.approx(100.0)
    assert back.trajectory_path(tmp_path) == tmp_path / "traj.dcd"
    body = json.loads(path.read_text())
    assert body["simwright_schema"] == SCHEMA_VERSION
    assert body["kind"] == "trajectory"


@pytest.mark.parametrize(
    "bad", ["../traj.dcd", "sub/../../traj.dcd", "/tmp/traj.dcd", "C:\\data\\traj.dcd", "."]
)
def test_manifest_path_outside_its_folder_is_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ContractError, match="trajectory path"):
        lj_manifest(trajectory=bad)
    path = write_trajectory_manifest(tmp_path / "ok.traj.json", lj_manifest())
    body = json.loads(path.read_text())
    body["trajectory"] = bad
    path.write_text(json.dumps(body))
    with pytest.raises(ContractError, match="trajectory path"):
        read_trajectory_manifest(path)


def test_manifest_path_that_stays_inside_is_accepted() -> None:
    assert lj_manifest(topology="data/../topo.data").topology == "data/../topo.data"


def test_manifest_validation_and_naming(tmp_path: Path) -> None:
    with pytest.raises(ContractError, match="format must be one of dcd, xtc, extxyz"):
        lj_manifest(format="trr")
    with pytest.raises(ContractError, match="timestep_fs must be a positive number"):
        lj_manifest(timestep_fs=0)
    with pytest.raises(ContractError, match=r"named <name>\.traj\.json"):
        write_trajectory_manifest(tmp_path / "prod.json", lj_manifest())


def test_manifest_schema_and_required_keys_are_checked(tmp_path: Path) -> None:
    path = write_trajectory_manifest(tmp_path / "t.traj.json", lj_manifest())
    body = json.loads(path.read_text())
    path.write_text(json.dumps({**body, "simwright_schema": "3.1"}))
    with pytest.raises(ContractError, match="upgrade simwright"):
        read_trajectory_manifest(path)
    del body["n_frames"]
    path.write_text(json.dumps(body))
    with pytest.raises(ContractError, match="lacks n_frames"):
        read_trajectory_manifest(path)


def test_dcd_header_matches_mdanalysis_on_a_lammps_dcd(lammps_run: Path) -> None:
    from MDAnalysis.coordinates.DCD import DCDReader

    header = dcd_header(lammps_run / "traj.dcd")
    with warnings.catch_warnings():  # MDAnalysis announces a 3.0 behaviour change
        warnings.filterwarnings("ignore", "DCDReader currently", DeprecationWarning)
        reader = DCDReader(str(lammps_run / "traj.dcd"))
    try:
        assert header["n_atoms"] == reader.n_atoms == 108
        assert header["n_frames"] == reader.n_frames == 6
        assert header["n_frames_in_file"] == 6
        assert header["has_cell"] is True
        assert reader.ts.dimensions is not None
    finally:
        reader.close()
    assert header["nsavc"] == 10
    assert header["trailing_bytes"] == 0


def test_dcd_frames_counted_from_size_when_nset_is_zero(lammps_run: Path, tmp_path: Path) -> None:
    data = bytearray((lammps_run / "traj.dcd").read_bytes())
    data[8:12] = (0).to_bytes(4, "little")  # NSET
    path = tmp_path / "nset0.dcd"
    path.write_bytes(bytes(data))

    header = dcd_header(path)

    assert header["nset"] == 0
    assert header["n_frames"] == 6


def test_dcd_header_refuses_other_files(tmp_path: Path) -> None:
    path = tmp_path / "x.dcd"
    path.write_bytes(b"\x00" * 200)
    with pytest.raises(ContractError, match="not a DCD file"):
        dcd_header(path)


# --------------------------------------------------------------------------- inspect


def test_detect_kind_by_content(tmp_path: Path, lammps_run: Path) -> None:
    table = write_table(tmp_path / "renamed.bin", thermo_table())
    structure = write_structure(tmp_path / "s.txt", water())
    manifest = write_trajectory_manifest(tmp_path / "m.traj.json", lj_manifest())
    plain_json = tmp_path / "r.json"
    plain_json.write_text(json.dumps({"a": 1}))
    notes = tmp_path / "notes.md"
    notes.write_text("# notes\nhello\n")
    garbage = tmp_path / "g.bin"
    garbage.write_bytes(bytes(range(256)))

    assert detect_kind(table) == "table"
    assert detect_kind(structure) == "structure"
    assert detect_kind(manifest) == "trajectory"
    assert detect_kind(lammps_run / "traj.dcd") == "trajectory-binary"
    assert detect_kind(plain_json) == "json"
    assert detect_kind(notes) == "text"
    assert detect_kind(garbage) == "unknown"
    assert detect_kind(tmp_path / "absent") == "unknown"


def test_inspect_table_with_200_columns_stays_short(tmp_path: Path) -> None:
    columns = tuple(
        Column(f"quantity_with_a_long_name_{i:03d}", np.linspace(0, i, 50), "eV", "x" * 60)
        for i in range(200)
    )
    attrs = {f"attr_{i}": i * 0.5 for i in range(100)}
    table = Table("wide", columns, "d" * 5000, producer="p", links=("a",) * 50, attrs=attrs)
    path = write_table(tmp_path / "wide.h5", table)

    text = inspect_file(path)

    assert len(text) < 2000
    assert "rows: 50, columns: 200" in text
    assert "more)" in text


def test_inspect_table_shows_units_ranges_and_attrs(tmp_path: Path) -> None:
    text = inspect_file(write_table(tmp_path / "thermo.h5", thermo_table()))
    assert len(text) < 2000
    assert "kind: table 'thermo' (schema 1.0)" in text
    assert "time [fs] (5,) 0 → 40 (increasing)" in text
    assert "temperature [K] (5,) min 298.2, max 301.5" in text
    assert "producer: run-1/003-NPTEquilibrate" in text
    assert "links: final.xyz (missing)" in text
    assert "n_blocks=4" in text


def test_inspect_structure(tmp_path: Path) -> None:
    path = write_structure(tmp_path / "w.xyz", water(), producer="run-1/001-Pack", info={"k": 2})
    text = inspect_file(path)
    assert len(text) < 2000
    assert "kind: structure (schema 1.0), frames: 1" in text
    assert "formula: H4O2, atoms: 6, molecules: 2" in text
    assert "cell: a=6.0000 b=6.0000 c=6.0000 Å" in text
    assert "density:" in text
    assert "sanity: H4O2 (6 atoms)" in text
    assert "info: k=2" in text


def test_inspect_manifest_checks_referenced_files(tmp_path: Path, lammps_run: Path) -> None:
    good = write_trajectory_manifest(lammps_run / "good.traj.json", lj_manifest())
    bad = write_trajectory_manifest(lammps_run / "bad.traj.json", lj_manifest(n_atoms=100))
    lonely = write_trajectory_manifest(tmp_path / "lonely.traj.json", lj_manifest())

    good_text, bad_text, lonely_text = (inspect_file(p) for p in (good, bad, lonely))

    assert "dcd header: 108 atoms, 6 frames (6 in file)" in good_text
    assert "matches the manifest" in good_text
    assert "MISMATCH: n_atoms manifest 100 vs dcd 108" in bad_text
    assert "traj.dcd [dcd] MISSING" in lonely_text
    assert all(len(t) < 2000 for t in (good_text, bad_text, lonely_text))


def test_inspect_binary_trajectory_json_and_text(tmp_path: Path, lammps_run: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({f"key{i}": list(range(100)) for i in range(100)}))
    notes = tmp_path / "notes.txt"
    notes.write_text("line\n" * 10_000)

    dcd_text = inspect_file(lammps_run / "traj.dcd")
    json_text = inspect_file(report)
    notes_text = inspect_file(notes)

    assert "atoms: 108, frames: 6" in dcd_text
    assert "json object with 100 keys" in json_text
    assert "more)" in json_text
    assert "kind: text" in notes_text
    assert all(len(t) < 2000 for t in (dcd_text, json_text, notes_text))


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("garbage.bin", bytes(range(256)) * 50),
        ("fake.h5", b"\x89HDF\r\n\x1a\n" + b"\x00" * 100),
        ("broken.xyz", b"3\ncomment\nH 0 0 0\nnot numbers\n"),
        ("broken.traj.json", b'{"kind": "trajectory", "trajectory": "../x"'),
        ("fake.dcd", b"T\x00\x00\x00CORD" + b"\x01" * 20),
        ("empty", b""),
        ("long.json", json.dumps(["x" * 10_000]).encode()),
    ],
)
def test_inspect_never_raises_on_weird_files(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    text = inspect_file(path)
    assert text.startswith("file: ")
    assert len(text) < 2000


def test_inspect_foreign_hdf5_and_missing_path(tmp_path: Path) -> None:
    path = tmp_path / "foreign.h5"
    with h5py.File(path, "w") as h5:
        h5.create_dataset("data", data=np.arange(3))
    assert "without simwright_schema" in inspect_file(path)
    assert "no such file" in inspect_file(tmp_path / "absent.h5")
