"""Where a water molecule is: interlayer or external, from the sheets' current positions.

The same rule the LAMMPS script applies to every sample (atom-style variables on
the water oxygens): a molecule is in the **interlayer** when its oxygen lies
strictly between the mid-planes of sheet 1 and sheet 2, **below** when at or below
sheet 1's mid-plane, **above** when at or above sheet 2's. Heights are the box's
wrapped z; the sheets stay inside the box (the vacuum is far larger than their
motion), which the campaign checks through the sheets' positions.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simwright.errors import ParseError


def assign_water_regions(z_oxygen: np.ndarray, z_sheet1: float, z_sheet2: float) -> dict[str, int]:
    """Counts of water oxygens ``below`` sheet 1, in the ``interlayer``, ``above`` sheet 2."""
    if not z_sheet1 < z_sheet2:
        raise ValueError(f"sheet 1 (z = {z_sheet1}) must lie below sheet 2 (z = {z_sheet2})")
    z = np.asarray(z_oxygen, dtype=float)
    return {
        "below": int(np.count_nonzero(z <= z_sheet1)),
        "interlayer": int(np.count_nonzero((z > z_sheet1) & (z < z_sheet2))),
        "above": int(np.count_nonzero(z >= z_sheet2)),
    }


def read_oxygen_heights(dump: Path, oxygen_type: int) -> np.ndarray:
    """z of every atom of ``oxygen_type`` in a ``write_dump ... custom id type mol z`` file."""
    lines = dump.read_text().splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("ITEM: ATOMS"))
    except StopIteration as exc:
        raise ParseError(f"{dump}: no ITEM: ATOMS section") from exc
    header = lines[start].split()[2:]
    rows = np.array([line.split() for line in lines[start + 1 :] if line.strip()], dtype=float)
    if rows.size == 0:
        return np.zeros(0)
    return rows[rows[:, header.index("type")] == oxygen_type, header.index("z")]
