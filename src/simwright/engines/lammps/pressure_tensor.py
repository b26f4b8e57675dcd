"""The pressure tensor a segment samples for Green–Kubo (``MDSpec.pressure_tensor_every``).

LAMMPS' ``fix ave/time`` writes ``pressure_tensor.dat``: comment lines, then one row per
sample, ``step pxx pyy pzz pxy pxz pyz`` in bar. :func:`parse_pressure_tensor` turns it
into a table with the time in fs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simwright.contract import Column, Table
from simwright.errors import ParseError

COMPONENTS = ("pxx", "pyy", "pzz", "pxy", "pxz", "pyz")
"""Column names of the six components, in LAMMPS' order."""


def parse_pressure_tensor(path: Path, timestep_fs: float) -> Table:
    """The sampled pressure tensor as a table (step, time fs, six components in bar)."""
    rows = [
        line.split()
        for line in Path(path).read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    try:
        data = np.array(rows, dtype=float)
    except ValueError as exc:
        raise ParseError(f"{path}: malformed pressure-tensor row ({exc})") from exc
    if data.ndim != 2 or data.shape[1] != 7 or data.shape[0] == 0:
        raise ParseError(f"{path}: expected rows of step and six components, got {data.shape}")
    step = data[:, 0].astype(np.int64)
    columns = [
        Column("step", step, "1", "MD step"),
        Column("time", (step - step[0]) * timestep_fs, "fs", "time since the first sample"),
    ]
    columns += [
        Column(name, data[:, i + 1], "bar", f"pressure tensor component {name[1:]}")
        for i, name in enumerate(COMPONENTS)
    ]
    return Table(
        name="pressure_tensor",
        columns=tuple(columns),
        description="instantaneous pressure tensor (LAMMPS thermo_press, virial + kinetic)",
    )
