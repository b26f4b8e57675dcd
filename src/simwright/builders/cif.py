"""Crystals read from CIF files (ASE's reader), confined to one folder.

The file name is checked with the one confinement rule of
:mod:`simwright.engines.confine` against ``root`` (the spec's folder or the
project's): no absolute path, no ``..``, no link leading outside. Only ordered
structures are accepted: a site with a partial occupancy (as in the refined
structures of many Li conductors) is refused, since an engine needs one atom per
site; choose an ordered model first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simwright.engines.confine import Confinement
from simwright.errors import ValidationError
from simwright.structure import Structure


@dataclass(frozen=True)
class CifSpec:
    """The crystal in CIF file ``path`` (relative to ``root``), repeated ``repeat``."""

    path: str
    root: Path
    repeat: tuple[int, int, int] = (1, 1, 1)


def read_cif(spec: CifSpec) -> Structure:
    """The ordered crystal of the CIF file; refuses paths outside ``root``, unreadable
    files and partial occupancies."""
    # lazy: ase.io takes ~1 s to import
    from ase.io import read

    from simwright.builders.crystals import supercell

    path = Confinement(spec.root).require(spec.path, read=True)
    if path.suffix.lower() != ".cif":
        raise ValidationError(f"{spec.path!r} is not a .cif file")
    if not path.is_file():
        raise ValidationError(f"no CIF file {spec.path!r} in {spec.root}")
    try:
        atoms = read(path, format="cif", index=0, fractional_occupancies=True)
    except Exception as exc:  # ASE raises many kinds on a malformed file
        raise ValidationError(f"cannot read {spec.path!r} as CIF: {exc}") from exc
    assert not isinstance(atoms, list)  # index=0 gives the first block
    partial = {
        str(symbol): occupancy
        for site in (atoms.info.get("occupancy") or {}).values()
        for symbol, occupancy in site.items()
        if abs(float(occupancy) - 1.0) > 1e-6
    }
    if partial:
        shown = ", ".join(f"{s} {o:g}" for s, o in sorted(partial.items()))
        raise ValidationError(
            f"{spec.path!r} has partially occupied sites ({shown}); give an ordered model"
        )
    return supercell(Structure.from_ase(atoms), spec.repeat)
