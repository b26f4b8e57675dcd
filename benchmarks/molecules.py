"""Molecular quantum chemistry against experiment and high-level references: water's
geometry and harmonic frequencies, ring strains, pKa of carboxylic acids and phenols,
n→π* excitations, the carbocation stability order. Each request runs end to end through
its protocol (resolver, real Runner, SQLite store, PySCF / tblite / geomeTRIC), with its
wall time; rows compare with the cited values of
``simwright.protocols.molecules.references`` (those marked unverified say so).

Levels are the protocols' defaults unless the request states one: water B3LYP/def2-SVP;
ring strain B3LYP-D3(BJ)/6-31G* (electronic strain energy); pKa B3LYP/6-31+G* with
IEF-PCM water on GFN2-xTB (ALPB water) geometries, relative to a reference acid;
excitations B3LYP/def2-SVP TDDFT on GFN2-xTB geometries; hydride affinities
B3LYP/def2-SVP electronic energies (ΔE, no ZPE).

    python benchmarks/molecules.py [--only TEXT] [--threads 2] [--json out.json]
                                   [--level "GFN2-xTB"]

``--level`` states another level for every selected request (it replaces a level the
request names): for a smaller level where the default cannot finish on the machine
at hand; the rows then say which level gave them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from simwright.graph import Runner
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols.molecules.references import (
    EXCITATIONS_EV,
    HYDRIDE_AFFINITY_KJ_MOL,
    MOLECULE_REFERENCES,
    PKA,
    RING_STRAIN_KJ_MOL,
)
from simwright.protocols.registry import LazyProtocols
from simwright.settings import Settings
from simwright.store import Store

_W = {r.quantity: r for r in MOLECULE_REFERENCES["water"]}

RUNS: list[tuple[str, list[tuple[str, str, float, str, str]]]] = [
    # (request, [(row label, value key, reference, unit, citation)])
    (
        "harmonic frequencies of water with B3LYP/def2-SVP",
        [
            ("water r(OH)", "r_OH", _W["r_OH"].value, "Å", _W["r_OH"].citation),
            ("water ∠HOH", "angle_HOH", _W["angle_HOH"].value, "deg", _W["angle_HOH"].citation),
            *(
                (
                    f"water ω{i}",
                    f"harmonic_frequency_{i}",
                    _W[f"harmonic_frequency_{i}"].value,
                    "cm^-1",
                    _W[f"harmonic_frequency_{i}"].citation,
                )
                for i in (1, 2, 3)
            ),
            (
                "water S°(298 K)",
                "entropy",
                _W["entropy"].value,
                "J/(mol K)",
                _W["entropy"].citation,
            ),
        ],
    ),
    *(
        (
            f"ring strain of {ring}",
            [
                (
                    f"strain {ring}",
                    "strain_energy",
                    RING_STRAIN_KJ_MOL[ring].value,
                    "kJ/mol",
                    RING_STRAIN_KJ_MOL[ring].citation,
                )
            ],
        )
        for ring in ("cyclopropane", "cyclobutane")
    ),
    *(
        (
            f"pKa of {acid} relative to {ref}",
            [(f"pKa {acid} (ref. {ref})", "pKa", PKA[acid].value, "1", PKA[acid].citation)],
        )
        for acid, ref in (
            ("acetic acid", "formic acid"),
            ("formic acid", "acetic acid"),
            ("chloroacetic acid", "acetic acid"),
            ("phenol", "acetic acid"),
            ("4-nitrophenol", "acetic acid"),
        )
    ),
    *(
        (
            f"excitation energies of {mol}, 3 states",
            [
                (
                    f"n→π* {mol}",
                    "S1_gas",
                    EXCITATIONS_EV[mol].value,
                    "eV",
                    EXCITATIONS_EV[mol].citation,
                )
            ],
        )
        for mol in ("formaldehyde", "acetone")
    ),
    (
        "hydride affinities (electronic energies) of the methyl, ethyl, isopropyl and "
        "tert-butyl cations with "
        "B3LYP/def2-SVP",
        [
            (
                f"HIA {c}",
                f"hydride_affinity_{c.replace('-', '_').replace(' ', '_')}",
                r.value,
                "kJ/mol",
                r.citation,
            )
            for c, r in HYDRIDE_AFFINITY_KJ_MOL.items()
        ],
    ),
]


def run_one(request: str, home: Path, threads: int) -> tuple[dict[str, float], float, str]:
    """Run ``request`` end to end: values, wall time, and the level's label."""
    settings = Settings(home=home, threads=threads)
    res = resolve(request, LazyProtocols(), settings=settings)
    params = res.params.model_copy(update={"threads": threads})
    store = Store.at(home / "simwright.db")
    start = time.perf_counter()
    out = Runner(store, settings).start(
        res.protocol.graph, res.protocol.first_step(params), protocol=res.protocol.name
    )
    wall = time.perf_counter() - start
    store.close()
    if out.status != "completed":
        raise RuntimeError(f"{request}: {out.status}: {out.error}")
    level = getattr(params, "level", None)
    return {k: q.value for k, q in out.result.values.items()}, wall, level.label() if level else ""


def at_level(request: str, level: str) -> str:
    """``request`` with its stated level replaced by ``level`` (or ``level`` added)."""
    if not level:
        return request
    head, sep, _ = request.rpartition(" with ")
    return f"{head if sep else request} with {level}"


def main() -> None:
    """Run the cases and print the table with error statistics."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--level", default="", help="state this level in every request")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (request, cases) in enumerate(RUNS):
            if args.only and args.only.lower() not in request.lower():
                continue
            request = at_level(request, args.level)
            values, wall, level = run_one(request, Path(tmp) / f"h{i}", args.threads)
            for label, key, ref, unit, cite in cases:
                v = values[key]
                rows.append(
                    {
                        "case": label,
                        "value": v,
                        "reference": ref,
                        "unit": unit,
                        "error": v - ref,
                        "level": level,
                        "wall_s": wall,
                        "citation": cite,
                        "request": request,
                    }
                )
                print(
                    f"| {label} | {level} | {v:.4g} | {ref:.4g} | {v - ref:+.3g} {unit} | "
                    f"{wall:.0f} s |",
                    flush=True,
                )
    hia = {r["case"]: r["value"] for r in rows if r["case"].startswith("HIA")}
    if len(hia) == 4:
        order = sorted(hia, key=lambda k: -hia[k])
        print("hydride affinity order (highest first):", " > ".join(order))
    by_unit: dict[str, list[float]] = {}
    for r in rows:
        by_unit.setdefault(r["unit"], []).append(abs(r["error"]))
    for unit, errs in by_unit.items():
        print(f"MAE [{unit}] = {statistics.mean(errs):.3g} over {len(errs)} row(s)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
