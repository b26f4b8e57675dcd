"""The file contract: versioned files passed between steps.

Tables with units are HDF5 files, structures are extended XYZ, trajectories are
a binary coordinate file plus a topology described by a ``*.traj.json``
manifest. Every file carries the schema version :data:`SCHEMA_VERSION`;
:func:`inspect_file` summarizes any of them in a few lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.lazy import lazy_exports

if TYPE_CHECKING:
    from simwright.contract.detect import detect_kind
    from simwright.contract.inspect import inspect_file
    from simwright.contract.schema import SCHEMA_VERSION
    from simwright.contract.structures import (
        read_structure,
        read_structure_info,
        read_structures,
        write_structure,
    )
    from simwright.contract.tables import Column, Table, read_table, write_table
    from simwright.contract.trajectories import (
        DcdHeader,
        TrajectoryManifest,
        dcd_header,
        read_trajectory_manifest,
        write_trajectory_manifest,
    )

_WHERE = {
    "Column": "tables",
    "dcd_header": "trajectories",
    "DcdHeader": "trajectories",
    "detect_kind": "detect",
    "inspect_file": "inspect",
    "read_structure": "structures",
    "read_structure_info": "structures",
    "read_structures": "structures",
    "read_table": "tables",
    "read_trajectory_manifest": "trajectories",
    "SCHEMA_VERSION": "schema",
    "Table": "tables",
    "TrajectoryManifest": "trajectories",
    "write_structure": "structures",
    "write_table": "tables",
    "write_trajectory_manifest": "trajectories",
}

__all__ = [
    "SCHEMA_VERSION",
    "Column",
    "DcdHeader",
    "Table",
    "TrajectoryManifest",
    "dcd_header",
    "detect_kind",
    "inspect_file",
    "read_structure",
    "read_structure_info",
    "read_structures",
    "read_table",
    "read_trajectory_manifest",
    "write_structure",
    "write_table",
    "write_trajectory_manifest",
]

__getattr__ = lazy_exports(__name__, _WHERE)
