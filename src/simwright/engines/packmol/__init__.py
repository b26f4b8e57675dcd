"""PACKMOL adapter: pack rigid molecules into a periodic cubic box.

:mod:`~simwright.engines.packmol.spec` (what to pack),
:mod:`~simwright.engines.packmol.template` (input files and output reader, pure),
:mod:`~simwright.engines.packmol.launcher` (finding and starting ``packmol``) and
:mod:`~simwright.engines.packmol.run` (:func:`pack`, joining them). The names callers
use are re-exported here.
"""

from simwright.engines.packmol.launcher import PackmolLauncher, find_packmol
from simwright.engines.packmol.run import ENGINE, PackResult, pack
from simwright.engines.packmol.spec import VDW_BOX_FACTOR, PackSpec, box_edge_a
from simwright.engines.packmol.template import (
    PackmolTemplate,
    component_file_names,
    min_intermolecular_distance_a,
    molecule_xyz,
    render_packmol_input,
)

__all__ = [
    "ENGINE",
    "VDW_BOX_FACTOR",
    "PackResult",
    "PackSpec",
    "PackmolLauncher",
    "PackmolTemplate",
    "box_edge_a",
    "component_file_names",
    "find_packmol",
    "min_intermolecular_distance_a",
    "molecule_xyz",
    "pack",
    "render_packmol_input",
]
