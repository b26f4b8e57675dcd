"""One Zeo++ analysis: ``python -m simwright.engines.zeo.worker`` in the step's folder.

Reads ``zeo.json``, writes ``zeo_out.json``: the free-sphere line, the area and volume
result texts at the probe radius and at zero radius, and each atom's Zeo++ radius (Å).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from simwright.engines.zeo.spec import INPUT_NAME, OUTPUT_NAME


def _text(result: Any) -> str:
    value = result[0] if isinstance(result, tuple) else result
    return value.decode() if isinstance(value, bytes) else str(value)


def analyse(folder: Path, request: dict[str, Any]) -> dict[str, Any]:
    """Zeo++'s results for the CIF of ``request`` (names relative to ``folder``)."""
    # lazy: pyzeo is the optional extra [mofs] and runs only in this child process
    from pyzeo import AtomNetwork, surface_area, volume

    net = AtomNetwork.read_from_CIF(str(folder / request["cif"]))
    res = folder / "pores.res"
    net.calculate_free_sphere_parameters(str(res))
    probe, samples = float(request["probe_radius"]), int(request["samples"])
    return {
        "free_sphere": res.read_text(encoding="utf-8").strip(),
        "area": _text(surface_area(net, probe, probe, samples)),
        "volume": _text(volume(net, probe, probe, samples)),
        "void": _text(volume(net, 0.0, 0.0, samples)),
        "radii": [float(atom.radius) for atom in net.atoms],
    }


def main(folder: Path) -> int:
    """Read the input in ``folder``, analyse, write the output."""
    request = json.loads((folder / INPUT_NAME).read_text(encoding="utf-8"))
    out = analyse(folder, request)
    (folder / OUTPUT_NAME).write_text(json.dumps(out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path.cwd()))
