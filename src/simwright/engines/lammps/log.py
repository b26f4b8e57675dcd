"""Parsers of LAMMPS output: thermo data from ``log.lammps`` and the heat-current file.

Values come in LAMMPS ``units metal`` and leave in simwright's canonical units
(time in fs, temperature K, pressure bar, energies eV, volume Å^3, density g/cm^3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np

from simwright.contract import Column, Table
from simwright.engines.lammps.live import LogFollower
from simwright.errors import ParseError

PRODUCER: Final = "simwright.engines.lammps.segment"

PS_TO_FS: Final = 1000.0


@dataclass(frozen=True)
class ThermoColumn:
    """How one LAMMPS thermo keyword becomes a canonical column: name, unit, factor."""

    name: str
    unit: str
    factor: float = 1.0
    description: str = ""


THERMO_COLUMNS: Final[dict[str, ThermoColumn]] = {
    "Step": ThermoColumn("step", "1", description="absolute timestep number"),
    "Elapsed": ThermoColumn("elapsed", "1", description="steps since the start of this run"),
    "Time": ThermoColumn("time", "fs", PS_TO_FS, "simulated time"),
    "Temp": ThermoColumn("temperature", "K", description="instantaneous temperature"),
    "Press": ThermoColumn("pressure", "bar", description="instantaneous pressure"),
    "PotEng": ThermoColumn("potential_energy", "eV", description="total potential energy"),
    "KinEng": ThermoColumn("kinetic_energy", "eV", description="total kinetic energy"),
    "TotEng": ThermoColumn("total_energy", "eV", description="potential + kinetic energy"),
    "E_pair": ThermoColumn("pair_energy", "eV", description="pairwise energy incl. kspace"),
    "E_mol": ThermoColumn("molecular_energy", "eV", description="bonded energy"),
    "E_vdwl": ThermoColumn("vdw_energy", "eV", description="van der Waals pair energy"),
    "E_coul": ThermoColumn("coulomb_energy", "eV", description="real-space Coulomb energy"),
    "E_long": ThermoColumn("kspace_energy", "eV", description="long-range Coulomb energy"),
    "Enthalpy": ThermoColumn("enthalpy", "eV"),
    "Volume": ThermoColumn("volume", "Å^3", description="box volume"),
    "Density": ThermoColumn("density", "g/cm^3", description="mass density"),
    "Lx": ThermoColumn("lx", "Å"),
    "Ly": ThermoColumn("ly", "Å"),
    "Lz": ThermoColumn("lz", "Å"),
    "CPU": ThermoColumn("cpu", "s", description="wall time since the start of this run"),
}
"""Known thermo header keywords (as LAMMPS prints them) and their canonical columns."""

UNKNOWN_UNIT: Final = "lammps-metal"
"""Unit given to thermo columns simwright does not know: LAMMPS metal units as printed."""

RUN_COLUMN: Final = "run"


@dataclass
class _Block:
    header: tuple[str, ...]
    rows: list[tuple[float, ...]] = field(default_factory=list)


def parse_log(path: Path) -> Table:
    """All thermo blocks of a LAMMPS log as one table, in canonical units.

    Blocks of successive ``run``/``minimize`` commands are concatenated; the
    ``run`` column numbers them from 0 (the first row of a block repeats the last
    step of the one before). Lines that are not thermo rows (warnings, messages)
    are skipped. A column missing from some block is NaN there.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ParseError(f"{path}: cannot read LAMMPS log ({exc})") from exc
    blocks = [b for b in _thermo_blocks(text.splitlines()) if b.rows]
    if not blocks:
        raise ParseError(f"{path}: no thermo output found in the LAMMPS log")
    return _blocks_table(blocks, path)


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def _is_header(tokens: list[str]) -> bool:
    return bool(tokens) and tokens[0] == "Step" and not any(_is_number(t) for t in tokens)


def _is_row(tokens: list[str], header: tuple[str, ...]) -> bool:
    return len(tokens) == len(header) and all(_is_number(t) for t in tokens)


def _thermo_blocks(lines: list[str]) -> list[_Block]:
    blocks: list[_Block] = []
    current: _Block | None = None
    for line in lines:
        tokens = line.split()
        if _is_header(tokens):
            current = _Block(tuple(tokens))
            blocks.append(current)
        elif current is not None and line.startswith("Loop time of"):
            current = None
        elif current is not None and _is_row(tokens, current.header):
            current.rows.append(tuple(float(t) for t in tokens))
    return blocks


def _blocks_table(blocks: list[_Block], path: Path) -> Table:
    keywords: list[str] = []
    for block in blocks:
        keywords += [k for k in block.header if k not in keywords]
    n_rows = sum(len(b.rows) for b in blocks)
    data = {k: np.full(n_rows, math.nan) for k in keywords}
    run = np.zeros(n_rows, dtype=np.int64)
    start = 0
    for index, block in enumerate(blocks):
        values = np.array(block.rows, dtype=float)
        stop = start + len(block.rows)
        for col, keyword in enumerate(block.header):
            data[keyword][start:stop] = values[:, col]
        run[start:stop] = index
        start = stop
    columns = [_thermo_column(k, data[k]) for k in keywords]
    columns.append(Column(RUN_COLUMN, run, "1", "index of the run/minimize block (from 0)"))
    return Table(
        name="thermo",
        columns=tuple(columns),
        description=f"LAMMPS thermo output of {path.name}, canonical units",
        producer=PRODUCER,
        links=(path.name,),
    )


def _thermo_column(keyword: str, values: np.ndarray) -> Column:
    spec = THERMO_COLUMNS.get(keyword)
    if spec is None:
        return Column(_column_name(keyword), values, UNKNOWN_UNIT, f"LAMMPS thermo {keyword}")
    if spec.name == "step" and np.all(np.isfinite(values)):
        return Column(spec.name, values.astype(np.int64), spec.unit, spec.description)
    return Column(spec.name, values * spec.factor, spec.unit, spec.description)


def _column_name(keyword: str) -> str:
    name = keyword.replace("/", "_").replace("[", "_").replace("]", "")
    return name.lower()


HEAT_FLUX_NAMES: Final = ("jx", "jy", "jz", "jcx", "jcy", "jcz")
HEAT_FLUX_UNIT: Final = "eV*Å/fs"


def parse_heat_flux(path: Path, timestep_fs: float | None = None) -> Table:
    """The heat current written by ``compute heat/flux`` through ``fix ave/time``.

    Columns ``step``, then ``jx, jy, jz`` (total) and ``jcx, jcy, jcz`` (convective
    part), each the extensive heat current J·V summed over atoms in eV·Å/fs — divide
    by the volume for a flux. With ``timestep_fs`` a ``time`` column (fs) is added.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise ParseError(f"{path}: cannot read heat-flux file ({exc})") from exc
    rows = [line.split() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    bad = [r for r in rows if len(r) != 7 or not all(_is_number(t) for t in r)]
    if bad:
        raise ParseError(
            f"{path}: expected rows of a step and 6 heat-current values, got {' '.join(bad[0])!r}"
        )
    if not rows:
        raise ParseError(f"{path}: heat-flux file holds no data rows")
    values = np.array(rows, dtype=float)
    columns = [Column("step", values[:, 0].astype(np.int64), "1", "absolute timestep number")]
    if timestep_fs is not None:
        columns.append(Column("time", values[:, 0] * timestep_fs, "fs", "simulated time"))
    columns += [
        Column(name, values[:, i + 1] / PS_TO_FS, HEAT_FLUX_UNIT, _flux_description(name))
        for i, name in enumerate(HEAT_FLUX_NAMES)
    ]
    return Table(
        name="heat_flux",
        columns=tuple(columns),
        description="heat current J·V from LAMMPS compute heat/flux (centroid stress)",
        producer=PRODUCER,
        links=(path.name,),
    )


def _flux_description(name: str) -> str:
    part = "convective part of the" if name.startswith("jc") else "total"
    return f"{part} heat current J·V along {name[-1]}"


def steps_done(log: Path) -> int | None:
    """Steps completed by the run LAMMPS is writing to ``log`` (None before its first line).

    The current run block is found however long the log is (the whole file is read;
    a running engine is followed incrementally by
    :class:`~simwright.engines.lammps.live.LogFollower`).
    """
    live = LogFollower(log).poll()
    return None if live is None else live.steps_done
