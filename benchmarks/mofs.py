"""Pore geometry of three well-known MOFs built by PORMAKE (``mof_pores``).

MOF-5 (pcu: Zn4O + BDC), HKUST-1 (tbo: BTC + Cu paddlewheel) and UiO-66 (fcu: Zr6 +
BDC) are built from PORMAKE's blocks, optionally relaxed with a universal MLIP, and
measured with Zeo++ (N2 probe, 1.86 Å) through the real Runner and Store. Each row
gives Di, Df, the accessible surface area and density with the published values the
protocol compares with (marked unverified where they were recalled, not re-read).

    python benchmarks/mofs.py [--only MOF-5,HKUST-1,UiO-66,MOF-5-CIF] [--calculator chgnet]
        [--relax-steps 20] [--samples 2000] [--threads 1] [--markdown]

``MOF-5-CIF`` is MOF-5 (IRMOF-1) read from a CIF that this script writes from the
published crystal structure (:data:`IRMOF1`), so the protocol's CIF path is measured
against the same references as the PORMAKE build.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from ase.io import write
from ase.spacegroup import crystal

from simwright.graph import Runner
from simwright.protocols.mofs import pores
from simwright.protocols.mofs.params import MofParams
from simwright.protocols.mofs.references import KNOWN
from simwright.settings import Settings
from simwright.store import Store

IRMOF1_SOURCE = (
    "M. Eddaoudi, J. Kim, N. Rosi, D. Vodak, J. Wachter, M. O'Keeffe, O. M. Yaghi, "
    "Science 295, 469 (2002): IRMOF-1, Fm-3m, a = 25.832 Å (asymmetric unit as listed "
    "in RASPA2's share/raspa/structures/cif/IRMOF-1.cif, which cites this paper; H "
    "positions there, not re-checked against the deposited structure: unverified)"
)
IRMOF1: tuple[tuple[str, tuple[float, float, float]], ...] = (
    ("Zn", (0.2934, 0.2066, 0.2066)),
    ("O", (0.25, 0.25, 0.25)),
    ("O", (0.2819, 0.2181, 0.134)),
    ("C", (0.25, 0.25, 0.1113)),
    ("C", (0.25, 0.25, 0.0538)),
    ("C", (0.2829, 0.2171, 0.0269)),
    ("H", (0.3049, 0.1951, 0.0448)),
)
"""MOF-5's asymmetric unit in space group 225 (fractional coordinates, IRMOF1_SOURCE)."""
IRMOF1_A = 25.832


def write_irmof1_cif(folder: Path) -> Path:
    """The conventional cell of MOF-5 (424 atoms, P1) generated from :data:`IRMOF1`."""
    atoms = crystal(
        [s for s, _ in IRMOF1],
        basis=[xyz for _, xyz in IRMOF1],
        spacegroup=225,
        cellpar=[IRMOF1_A] * 3 + [90.0] * 3,
    )
    if len(atoms) != 424:  # Zn32 O104 C192 H96: 8 formula units Zn4O(BDC)3
        raise SystemExit(f"IRMOF-1 cell has {len(atoms)} atoms, expected 424")
    path = folder / "irmof1_eddaoudi2002.cif"
    write(path, atoms)
    return path


SHOWN = (
    ("largest_included_sphere", "Di (Å)"),
    ("largest_free_sphere", "Df (Å)"),
    ("accessible_surface_area", "ASA (m²/g)"),
    ("density", "ρ (g/cm³)"),
    ("channel_dimensionality", "channels"),
)


def run_one(name: str, args: argparse.Namespace, home: Path) -> dict[str, Any]:
    """One framework through mof_pores; its values, references and wall time."""
    if name == "MOF-5-CIF":
        params = MofParams(
            cif=str(write_irmof1_cif(home)),
            name="MOF-5",
            calculator=args.calculator,
            relax_steps=args.relax_steps,
            samples_per_atom=args.samples,
        )
    else:
        known = next(k for k in KNOWN if k.name == name)
        params = MofParams(
            topology=known.topology,
            nodes=known.nodes,
            linker=known.linker,
            name=name,
            calculator=args.calculator,
            relax_steps=args.relax_steps,
            samples_per_atom=args.samples,
        )
    store = Store.at(home / "simwright.db")
    try:
        start = time.perf_counter()
        out = Runner(store, Settings(home=home, threads=args.threads)).start(
            pores.GRAPH, pores.start(params), protocol="mof_pores", params=params
        )
        wall = time.perf_counter() - start
    finally:
        store.close()
    if out.status != "completed":
        raise SystemExit(f"{name} failed: {out.error}")
    values = {k: q.value for k, q in out.result.values.items()}
    refs = {r.quantity: (r.value, r.citation) for r in out.result.references}
    return {"name": name, "values": values, "references": refs, "wall_s": round(wall, 1)}


def markdown(rows: list[dict[str, Any]]) -> str:
    """The table of docs/benchmarks.md."""
    head = "| MOF | atoms | " + " | ".join(label for _, label in SHOWN)
    head += " | published Di (Å) | published area (m²/g) | wall (s) |"
    lines = [head, "|" + "---|" * (len(SHOWN) + 5)]
    for r in rows:
        v, refs = r["values"], r["references"]
        cells = [f"{v[key]:.4g}" for key, _ in SHOWN]
        di = refs.get("largest_included_sphere", (float("nan"), ""))[0]
        area = refs.get("accessible_surface_area", (float("nan"), ""))[0]
        lines.append(
            f"| {r['name']} | {v['atoms']:.0f} | "
            + " | ".join(cells)
            + f" | {di:g}* | {area:g}* | {r['wall_s']} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Run each framework once and print JSON (or the Markdown table)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="MOF-5,HKUST-1,UiO-66")
    parser.add_argument("--calculator", choices=("chgnet", "sevennet"), default=None)
    parser.add_argument("--relax-steps", type=int, default=20)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    # the MLIPs print banners on stdout: keep stdout for the table or the JSON
    with tempfile.TemporaryDirectory(prefix="simwright-mofs-") as tmp, redirect_stdout(sys.stderr):
        for name in args.only.split(","):
            rows.append(run_one(name.strip(), args, Path(tmp)))
    if args.markdown:
        print(markdown(rows))
        print("\n* " + "\n* ".join(sorted({c for r in rows for _, c in r["references"].values()})))
    else:
        print(json.dumps(rows, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
