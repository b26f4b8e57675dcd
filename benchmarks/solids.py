"""Solid-state protocols against the potentials' own published values and experiment.

For Cu (Mishin et al. EAM, PRB 63, 224106 (2001)), Al (Zhou et al. EAM, Acta Mater. 49,
4005 (2001); ``Al_mm.eam.fs``, whose file names no paper; and ``AlCu.adp``, whose pure Al
is Mishin et al.'s EAM, PRB 59, 3393 (1999)) and Si (Tersoff,
PRB 37, 6991 (1988); Stillinger–Weber, PRB 31, 5262 (1985)), runs ``lattice_constant``,
``cohesive_energy`` and ``elastic_constants`` through the real Runner, Store and
LAMMPS, and prints each computed value with the paper's value (where recorded), the
experimental value (Kittel; Simmons & Wang) and the deviations, plus the wall time
of each protocol. ``--mlip`` adds the lattice constant and cohesive energy with a
universal MLIP (CHGNet or SevenNet-0) against experiment; ``--mlip-only`` runs the MLIP
alone, with its elastic constants (and, with ``--defects``, its vacancy formation energy
in the smallest cell). ``--elements`` and ``--potentials`` select cases. ``--phonons`` runs the
``phonons`` protocol instead (Cu with the Mishin EAM and EMT, Si with Stillinger–Weber
and Tersoff, and the MLIP when given) and compares the frequencies at X (Cu) and the
optical frequency at Γ (Si) with experiment. ``--defects`` runs the
lattice-defect protocols instead (``vacancy_formation_energy``, ``surface_energy``,
``stacking_fault`` for fcc; ``vacancy_migration`` too with ``--migration``), at their
default sizes, compared with :mod:`simwright.potentials.defect_values` (values marked
unverified there are marked ``(u)`` in the table).

    python benchmarks/solids.py [--markdown] [--mlip chgnet] [--phonons]
    python benchmarks/solids.py --defects [--migration] [--elements Si] [--markdown]
    python benchmarks/solids.py [--defects] --mlip chgnet --mlip-only --elements Cu

``SIMWRIGHT_THREADS=1`` limits every engine (and an MLIP's torch) to one thread, the
fastest choice on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from simwright.graph import Runner
from simwright.potentials import EXPERIMENT, published_for
from simwright.potentials.defect_values import experiment_value, paper_value
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import (
    cohesive_energy,
    elastic_constants,
    lattice_constant,
    phonons,
    stacking_fault,
    surface_energy,
    vacancy_formation_energy,
    vacancy_migration,
)
from simwright.protocols.solids.phonon_refs import EXPERIMENT_FREQUENCIES
from simwright.settings import Settings
from simwright.store import Store

CASES: tuple[tuple[str, str], ...] = (
    ("Cu", "Cu_mishin1.eam.alloy"),
    ("Al", "Al_zhou.eam.alloy"),
    ("Al", "Al_mm.eam.fs"),
    ("Al", "AlCu.adp"),
    ("Si", "Si.tersoff"),
    ("Si", "Si.sw"),
)
RUNS: tuple[tuple[Protocol, dict[str, Any], dict[str, str]], ...] = (
    (
        lattice_constant.PROTOCOL,
        {"strain_percent": 2.0, "n_points": 9},
        {"lattice_constant": "lattice_constant", "bulk_modulus_eos": "bulk_modulus"},
    ),
    (cohesive_energy.PROTOCOL, {}, {"cohesive_energy": "cohesive_energy"}),
    (
        elastic_constants.PROTOCOL,
        {},
        {"c11": "c11", "c12": "c12", "c44": "c44", "bulk_modulus": "bulk_modulus"},
    ),
)


DEFECT_RUNS: tuple[tuple[Protocol, dict[str, Any], tuple[str, ...]], ...] = (
    (vacancy_formation_energy.PROTOCOL, {}, ("vacancy_formation_energy",)),
    (
        surface_energy.PROTOCOL,
        {},
        ("surface_energy_111", "surface_energy_100", "surface_energy_110"),
    ),
    (
        stacking_fault.PROTOCOL,
        {},
        ("intrinsic_stacking_fault_energy", "unstable_stacking_fault_energy"),
    ),
)
MIGRATION_RUN = (vacancy_migration.PROTOCOL, {}, ("vacancy_migration_energy",))


def run_protocol(proto: Protocol, raw: dict[str, Any], home: Path) -> tuple[dict[str, Any], float]:
    """Run one protocol; its result values and wall time (s)."""
    store = Store.at(home / "simwright.db")
    try:
        start = time.perf_counter()
        params = proto.validate(raw)
        threads = int(os.environ.get("SIMWRIGHT_THREADS", "0"))
        out = Runner(store, Settings(home=home, threads=threads)).start(
            proto.graph, proto.first_step(params), protocol=proto.name
        )
        wall = time.perf_counter() - start
    finally:
        store.close()
    if out.status != "completed":
        raise SystemExit(f"{proto.name} {raw} failed: {out.error}")
    return {k: q.value for k, q in out.result.values.items()}, wall


def deviation(value: float, reference: float | None) -> float | None:
    """Relative deviation (%) from ``reference``."""
    return None if reference is None else 100.0 * (value - reference) / reference


def case(
    element: str, engine: dict[str, str], home: Path, mlip_elastic: bool = False
) -> dict[str, Any]:
    """All protocols for one element and engine (an MLIP's elastic constants only when
    ``mlip_elastic``: some 30 stress evaluations)."""
    label = engine.get("potential") or engine.get("calculator", "")
    paper = published_for(label, element)
    rows: list[dict[str, Any]] = []
    times: dict[str, float] = {}
    for proto, extra, wanted in RUNS:
        if proto is elastic_constants.PROTOCOL and "potential" not in engine and not mlip_elastic:
            continue
        values, wall = run_protocol(proto, {"element": element, **engine, **extra}, home)
        times[proto.name] = round(wall, 1)
        for name, key in wanted.items():
            prop = "bulk_modulus" if name == "bulk_modulus_eos" else name
            own = paper.values.get(prop) if paper else None
            exp = EXPERIMENT.get(element, {}).get(prop, (None, ""))[0]
            rows.append(
                {
                    "property": name,
                    "computed": round(values[key], 4),
                    "published": own,
                    "published_verified": paper is None or paper.verified(prop),
                    "dev_published_pct": _round(deviation(values[key], own)),
                    "experiment": exp,
                    "dev_experiment_pct": _round(deviation(values[key], exp)),
                }
            )
    return {"element": element, "engine": label, "rows": rows, "wall_s": times}


PHONON_CASES: tuple[tuple[str, dict[str, str]], ...] = (
    ("Cu", {"potential": "Cu_mishin1.eam.alloy"}),
    ("Cu", {"calculator": "emt"}),
    ("Si", {"potential": "Si.sw"}),
    ("Si", {"potential": "Si.tersoff"}),
)
PHONON_RAW: dict[str, Any] = {"supercell": 3, "mesh": 16}
"""3×3×3 conventional cells: 108 atoms (fcc), 216 (diamond)."""


def phonon_case(element: str, engine: dict[str, str], home: Path) -> dict[str, Any]:
    """The phonons protocol for one element and engine, against measured frequencies."""
    label = engine.get("potential") or engine.get("calculator", "")
    values, wall = run_protocol(
        phonons.PROTOCOL, {"element": element, **engine, **PHONON_RAW}, home
    )
    rows = [
        {
            "property": name,
            "computed": round(values[name], 3),
            "published": None,
            "dev_published_pct": None,
            "experiment": exp,
            "dev_experiment_pct": _round(deviation(values[name], exp)),
        }
        for name, exp, _ in EXPERIMENT_FREQUENCIES.get(element, ())
    ]
    rows.append(
        {
            "property": "cv_300K (k_B)",
            "computed": round(values["cv_300K"], 3),
            "published": None,
            "dev_published_pct": None,
            "experiment": None,
            "dev_experiment_pct": None,
        }
    )
    return {
        "element": element,
        "engine": label,
        "rows": rows,
        "wall_s": {"phonons": round(wall, 1)},
    }


def defect_case(element: str, potential: str, home: Path, migration: bool) -> dict[str, Any]:
    """The defect protocols for one element and potential (stacking faults: fcc only)."""
    runs = DEFECT_RUNS + ((MIGRATION_RUN,) if migration else ())
    rows: list[dict[str, Any]] = []
    times: dict[str, float] = {}
    for proto, extra, wanted in runs:
        if proto is stacking_fault.PROTOCOL and element == "Si":
            continue
        raw = {"element": element, "potential": potential, **extra}
        values, wall = run_protocol(proto, raw, home)
        times[proto.name] = round(wall, 1)
        for name in wanted:
            if name not in values:
                continue
            own = paper_value(potential, element, name)
            exp = experiment_value(element, name)
            rows.append(
                {
                    "property": name,
                    "computed": round(values[name], 4),
                    "published": None if own is None else own.value,
                    "published_verified": own is not None and own.verified,
                    "dev_published_pct": _round(
                        deviation(values[name], None if own is None else own.value)
                    ),
                    "experiment": None if exp is None else exp.value,
                    "experiment_verified": exp is not None and exp.verified,
                    "dev_experiment_pct": _round(
                        deviation(values[name], None if exp is None else exp.value)
                    ),
                }
            )
    return {"element": element, "engine": potential, "rows": rows, "wall_s": times}


MLIP_VACANCY_RAW: dict[str, Any] = {"sizes": (2,)}
"""The smallest cell only (2³ conventional cells: 32 atoms for fcc, 64 for Si): one
size, so the report cannot show convergence in size."""


def mlip_vacancy_case(element: str, calculator: str, home: Path) -> dict[str, Any]:
    """``vacancy_formation_energy`` with an MLIP in the smallest cell, against experiment."""
    values, wall = run_protocol(
        vacancy_formation_energy.PROTOCOL,
        {"element": element, "calculator": calculator, **MLIP_VACANCY_RAW},
        home,
    )
    name = "vacancy_formation_energy"
    exp = experiment_value(element, name)
    row = {
        "property": f"{name} (2³ cell)",
        "computed": round(values[name], 4),
        "published": None,
        "dev_published_pct": None,
        "experiment": None if exp is None else exp.value,
        "experiment_verified": exp is not None and exp.verified,
        "dev_experiment_pct": _round(deviation(values[name], None if exp is None else exp.value)),
    }
    return {
        "element": element,
        "engine": calculator,
        "rows": [row],
        "wall_s": {"vacancy_formation_energy": round(wall, 1)},
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def markdown(results: list[dict[str, Any]]) -> str:
    """The results as the table of docs/benchmarks.md."""
    lines = [
        "| element | engine | property | computed | paper | Δ paper | experiment | Δ exp. |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for res in results:
        for r in res["rows"]:
            pub = "" if r["published"] is None else f"{r['published']:g}"
            if r["published"] is not None and not r.get("published_verified", True):
                pub += " (u)"
            dp = "" if r["dev_published_pct"] is None else f"{r['dev_published_pct']:+.1f} %"
            exp = "" if r["experiment"] is None else f"{r['experiment']:g}"
            if r["experiment"] is not None and not r.get("experiment_verified", True):
                exp += " (u)"
            de = "" if r["dev_experiment_pct"] is None else f"{r['dev_experiment_pct']:+.1f} %"
            lines.append(
                f"| {res['element']} | {res['engine']} | {r['property']} | {r['computed']:.4g} "
                f"| {pub} | {dp} | {exp} | {de} |"
            )
    lines += ["", "| element | engine | wall time per protocol (s) |", "|---|---|---|"]
    for res in results:
        times = ", ".join(f"{k} {v:.1f}" for k, v in res["wall_s"].items())
        lines.append(f"| {res['element']} | {res['engine']} | {times} |")
    return "\n".join(lines)


def main() -> None:
    """Run the cases and print JSON (or the markdown table)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the docs table")
    parser.add_argument("--mlip", choices=("chgnet", "sevennet"), help="add an MLIP row")
    parser.add_argument("--phonons", action="store_true", help="the phonons benchmark only")
    parser.add_argument("--defects", action="store_true", help="the defect protocols instead")
    parser.add_argument("--migration", action="store_true", help="with --defects: add NEB")
    parser.add_argument("--elements", nargs="+", help="only these elements' cases")
    parser.add_argument("--potentials", nargs="+", help="only these potential files' cases")
    parser.add_argument(
        "--mlip-only",
        action="store_true",
        help="with --mlip: only the MLIP, with its elastic constants (and --defects: the "
        "vacancy in the smallest cell)",
    )
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="simwright-solids-") as tmp:
        home = Path(tmp)
        if args.phonons:
            cases = list(PHONON_CASES)
            if args.mlip:
                cases += [("Cu", {"calculator": args.mlip}), ("Si", {"calculator": args.mlip})]
            results = [phonon_case(element, engine, home) for element, engine in cases]
            print(markdown(results) if args.markdown else json.dumps(results, indent=2))
            return
        elements = tuple(args.elements or ("Cu", "Al", "Si"))
        cases = [
            (e, pot)
            for e, pot in CASES
            if e in elements and (not args.potentials or pot in args.potentials)
        ]
        if args.mlip_only:
            if not args.mlip:
                parser.error("--mlip-only needs --mlip")
            cases = []
        if args.defects:
            results = [defect_case(e, pot, home, args.migration) for e, pot in cases]
            if args.mlip_only:
                results += [mlip_vacancy_case(e, args.mlip, home) for e in elements]
            print(markdown(results) if args.markdown else json.dumps(results, indent=2))
            return
        for element, potential in cases:
            results.append(case(element, {"potential": potential}, home))
        if args.mlip:
            for element in elements:
                results.append(case(element, {"calculator": args.mlip}, home, args.mlip_only))
    print(markdown(results) if args.markdown else json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
