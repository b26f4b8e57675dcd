"""DFT requests end to end: how many complete zero-shot, how many after repair, how fast.

Three sets of requests in words are scored separately: the original 42 (``REQUESTS``),
the 63 fresh ones of ``data/dft_requests_fresh.yaml`` (issue 15, written before the
parsers were changed for them) and the held-out ``data/dft_requests_heldout.yaml``
(written after, never tuned on). ``--plan`` scores each request through the front door
(``resolve``) and the recommender, checking every stated choice on the built pw.x input
(:mod:`dft_request_checks`), with a per-category table; ``--run-set fresh`` also runs
pw.x on each planned request with modest settings for what the request does not state.

Each request is free text claimed by one of the protocols ``dft_scf``, ``dft_relax``
(``parse_request``), run through the real Runner, SQLite store, recommender,
recovery machine and pw.x, with modest settings (30 Ry wave-function cutoff, the
density cutoff in the recommended ratio, k-spacing 0.4 Å⁻¹) so that the whole set
fits in minutes on two cores. A second set holds inputs with typical user
mistakes (given as namelist overrides) that must be repaired. Finally the Si and
Cu lattice constants come from ``dft_eos`` with the recommended (converged)
settings and are compared with experiment (Kittel).

    python benchmarks/dft_requests.py [--quick] [--no-eos] [--json out.json]
    python benchmarks/dft_requests.py --plan                # the three sets, no pw.x (~1 min)
    python benchmarks/dft_requests.py --run-set fresh       # plan + pw.x run of the fresh set
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dft_request_checks as checks
from simwright.graph import Runner
from simwright.protocols.dft import eos as dft_eos
from simwright.protocols.dft import relax as dft_relax
from simwright.protocols.dft import scf as dft_scf
from simwright.protocols.registry import Protocol
from simwright.settings import Settings
from simwright.store import Store

MODEST = {"ecutwfc_ry": 30.0, "kspacing_inv_a": 0.4}

REQUESTS: list[tuple[str, str]] = [
    # metals
    ("metal", "SCF of an Al fcc crystal with LDA"),
    ("metal", "SCF of bulk Cu with PBE"),
    ("metal, spin", "SCF of bcc Fe with PBE"),
    ("metal, spin", "SCF of fcc Ni with PBE"),
    ("metal, spin", "SCF of hcp Co with DFT"),
    ("metal", "SCF of bcc Cr with PBE"),
    ("metal, spin-orbit", "SCF of fcc Pt with PBE"),
    ("metal", "SCF of fcc Au with LDA"),
    ("metal", "SCF of fcc Rh with PBE"),
    ("metal", "SCF of fcc Pb with LDA"),
    ("metal", "SCF of hcp Ti with LDA"),
    ("metal", "SCF of hcp Mg with LDA"),
    ("metal", "SCF of bcc Li with PBEsol"),
    ("alloy, spin", "SCF of NiAl with LDA"),
    # semiconductors and insulators
    ("semiconductor", "SCF of bulk Si with PBE"),
    ("semiconductor", "SCF of bulk Si with LDA"),
    ("semiconductor", "SCF of bulk Ge with PBE"),
    ("insulator", "SCF of diamond C with PBE"),
    ("insulator", "SCF of MgO with LDA"),
    ("semiconductor", "SCF of SiC with PBE"),
    ("insulator", "SCF of BN with PBE"),
    ("semiconductor", "SCF of AlAs with LDA"),
    ("metal", "SCF of TiC with LDA"),
    # molecules
    ("molecule", "CO molecule with PBE"),
    ("molecule", "SCF of water with PBE"),
    ("molecule", "SCF of a CH4 molecule with PBE"),
    ("molecule", "SCF of an N2 molecule with PBE"),
    ("molecule", "SCF of an NH3 molecule with PBE"),
    ("molecule, relax", "relax a CO molecule with PBE"),
    # 2D and slabs
    ("2D", "graphene SCF with PBE"),
    ("2D", "hBN SCF with PBE"),
    ("slab", "Cu(111) slab with PBE"),
    ("slab", "Al(100) slab with LDA"),
    ("slab, relax", "relax an Al(111) slab with LDA"),
    # relaxations
    ("relax", "relax bulk Si with PBE"),
    ("vc-relax", "vc-relax of bulk Si with LDA"),
    ("vc-relax", "vc-relax of MgO with LDA"),
    ("vc-relax, metal", "vc-relax of fcc Al with LDA"),
    ("vc-relax", "vc-relax of diamond C with PBE"),
    ("vc-relax, spin", "vc-relax of bcc Fe with PBE"),
    ("vc-relax, metal", "vc-relax of fcc Cu with PBE"),
    ("vc-relax", "vc-relax of SiC with PBE"),
]
"""(category, request) pairs written for this benchmark."""

FAULTY: list[tuple[str, dict[str, Any]]] = [
    (
        "electron_maxstep too small",
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "lda",
            "overrides": {"electrons": {"electron_maxstep": 3}},
        },
    ),
    (
        "metal without smearing",
        {
            "structure": {"kind": "bulk", "name": "Al"},
            "overrides": {"system": {"occupations": None, "smearing": None, "degauss": None}},
        },
    ),
    (
        "nbnd too small (Al)",
        {"structure": {"kind": "bulk", "name": "Al"}, "overrides": {"system": {"nbnd": 1}}},
    ),
    (
        "nbnd too small (Fe)",
        {
            "structure": {"kind": "bulk", "name": "Fe"},
            "functional": "pbe",
            "overrides": {"system": {"nbnd": 3}},
        },
    ),
    (
        "misspelt variable",
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "lda",
            "overrides": {"electrons": {"conv_tr": 1e-8}},
        },
    ),
    (
        "variable in the wrong namelist",
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "lda",
            "overrides": {"system": {"mixing_beta": 0.4}},
        },
    ),
    (
        "FR pseudopotential without spin-orbit",
        {
            "structure": {"kind": "bulk", "name": "Pt"},
            "pseudopotentials": {"Pt": "Pt.rel-pz-n-rrkjus.UPF"},
            "overrides": {"system": {"noncolin": None, "lspinorb": None}},
        },
    ),
    (
        "relaxation out of steps",
        {
            "structure": {"kind": "bulk", "name": "Si"},
            "functional": "lda",
            "calculation": "relax",
            "rattle_a": 0.05,
            "overrides": {"control": {"nstep": 2}},
        },
    ),
]
"""Inputs with typical mistakes a user makes by hand; each needs a repair."""

EXPERIMENT = {"Si": 5.431, "Cu": 3.61}
"""Room-temperature lattice constants (Å): C. Kittel, Introduction to Solid State Physics,
8th ed. (Wiley, 2005): Si from ch. 1 (diamond structure), Cu from Table 1.3."""


@dataclass
class Outcome:
    name: str
    category: str
    protocol: str
    status: str
    pw_runs: int
    repairs: str
    wall_s: float
    error: str = ""

    @property
    def zero_shot(self) -> bool:
        return self.status == "completed" and self.pw_runs == 1 and not self.repairs


def claimed(text: str) -> tuple[Protocol, dict[str, Any]]:
    claims = [
        (p, raw)
        for p in (dft_scf.PROTOCOL, dft_relax.PROTOCOL)
        if (raw := p.parse_request(text)) is not None
    ]
    if len(claims) != 1:
        raise SystemExit(f"{text!r} is claimed by {len(claims)} protocols")
    return claims[0]


def run_one(
    name: str, category: str, proto: Protocol, raw: dict[str, Any], store: Store, settings: Settings
) -> Outcome:
    start = time.perf_counter()
    try:
        params = proto.validate(raw)
        out = Runner(store, settings).start(
            proto.graph, proto.first_step(params), protocol=proto.name, params=params, request=name
        )
    except Exception as exc:  # a refusal before any compute counts as a failure here
        return Outcome(
            name,
            category,
            proto.name,
            "refused",
            0,
            "",
            time.perf_counter() - start,
            str(exc).splitlines()[0],
        )
    wall = time.perf_counter() - start
    calls = store.engine_calls(out.run_id)
    repairs: list[str] = []
    for artifact in store.artifacts(out.run_id):
        if artifact.kind == "recovery":
            repairs += json.loads((out.run_dir / artifact.path).read_text())["repairs"]
    error = (out.error or "").splitlines()[0] if out.error else ""
    return Outcome(
        name, category, proto.name, out.status, len(calls), ", ".join(repairs), wall, error
    )


def lattice_constant(element: str, store: Store, settings: Settings) -> tuple[float, float]:
    params = dft_eos.PROTOCOL.validate(
        {"structure": {"kind": "bulk", "name": element}, "functional": "pbe"}
    )
    start = time.perf_counter()
    out = Runner(store, settings).start(
        dft_eos.GRAPH, dft_eos.PROTOCOL.first_step(params), protocol="dft_eos", params=params
    )
    if out.status != "completed":
        raise SystemExit(f"dft_eos of {element} failed: {out.error}")
    return out.result.values["lattice_constant"].value, time.perf_counter() - start


def summarize(rows: list[Outcome]) -> dict[str, Any]:
    n = len(rows)
    done = [r for r in rows if r.status == "completed"]
    return {
        "requests": n,
        "zero_shot": sum(r.zero_shot for r in rows) / n,
        "after_repair": len(done) / n,
        "mean_wall_s": statistics.mean(r.wall_s for r in rows),
        "total_wall_s": sum(r.wall_s for r in rows),
        "pw_runs": sum(r.pw_runs for r in rows),
    }


def table(rows: list[Outcome]) -> str:
    lines = [
        "| request | category | protocol | status | pw.x runs | repairs | wall (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        status = r.status if not r.error else f"{r.status}: {r.error[:60]}"
        lines.append(
            f"| {r.name} | {r.category} | {r.protocol} | {status} | {r.pw_runs} | "
            f"{r.repairs or '-'} | {r.wall_s:.1f} |"
        )
    return "\n".join(lines)


SETS = {"fresh": "dft_requests_fresh.yaml", "heldout": "dft_requests_heldout.yaml"}


def old_cases() -> list[checks.Case]:
    """The original requests as cases: planned by the protocol that claims them."""
    return [
        checks.Case(f"o{i:02d}", cat.split(",")[0], text, {"protocol": claimed(text)[0].name})
        for i, (cat, text) in enumerate(REQUESTS, start=1)
    ]


def plan_sets(home: Path) -> dict[str, list[checks.Scored]]:
    """Every set scored at plan level (resolve + recommend + checks)."""
    # lazy: the registry imports every protocol
    from simwright.protocols import load_protocols

    protocols = load_protocols()
    sets = {"old": old_cases()}
    sets.update({k: checks.load_cases(checks.DATA / v) for k, v in SETS.items()})
    return {name: [checks.score(c, protocols, home) for c in cases] for name, cases in sets.items()}


def run_set(rows: list[checks.Scored], home: Path, ids: set[str]) -> list[Outcome]:
    """Run pw.x on every planned (non-refusal) case of a scored set (of ``ids`` if given)."""
    # lazy: the registry imports every protocol
    from simwright.protocols import load_protocols

    protocols = load_protocols()
    settings = Settings(home=home, threads=1).with_engine_timeout(checks.RUN_TIMEOUT_S)
    store = Store.at(home / "simwright.db")
    out = []
    for r in rows:
        if not r.completed or r.case.refuse or (ids and r.case.id not in ids):
            continue
        proto = protocols[r.protocol]
        out.append(run_one(r.case.text, r.case.category, proto, checks.modest(r), store, settings))
        print(f"{out[-1].status:>9} {out[-1].wall_s:6.1f} s  {r.case.text}", flush=True)
    store.close()
    return out


def plan_main(run: str | None, json_path: Path | None, ids: set[str]) -> None:
    """Score the sets at plan level (and run one of them)."""
    with tempfile.TemporaryDirectory(prefix="simwright-dft-plan-") as tmp:
        sets = plan_sets(Path(tmp))
        figures: dict[str, Any] = {}
        for name, rows in sets.items():
            done = sum(r.completed for r in rows)
            figures[name] = {"cases": len(rows), "completed": done}
            print(f"\n## {name}: {done}/{len(rows)} completed\n")
            print(checks.category_table(rows))
            if done < len(rows):
                print("\n" + checks.failures(rows))
        if run is not None:
            chosen = [r for r in sets[run] if not ids or r.case.id in ids]
            runs = run_set(chosen, Path(tmp) / "run", ids)
            refusals = sum(r.completed for r in chosen if r.case.refuse)
            ran = sum(o.status == "completed" for o in runs)
            n = len(chosen)
            figures[f"{run}_run"] = {
                "cases": n,
                "refused_correctly": refusals,
                "ran": len(runs),
                "ran_completed": ran,
                "completed_fraction": (refusals + ran) / n,
                "summary": summarize(runs) if runs else {},
            }
            print("\n" + table(runs) + "\n")
    print(json.dumps(figures, indent=2))
    if json_path:
        json_path.write_text(json.dumps(figures, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="every fourth request only")
    parser.add_argument("--no-eos", action="store_true", help="skip the lattice constants")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--plan", action="store_true", help="score the three sets, no pw.x")
    parser.add_argument("--run-set", choices=sorted(SETS), help="plan, then run this set")
    parser.add_argument("--ids", default="", help="run only these case ids (comma-separated)")
    args = parser.parse_args()
    if args.plan or args.run_set:
        plan_main(args.run_set, args.json, {i for i in args.ids.split(",") if i})
        return
    requests = REQUESTS[::4] if args.quick else REQUESTS
    with tempfile.TemporaryDirectory(prefix="simwright-dft-bench-") as tmp:
        settings = Settings(home=Path(tmp), threads=1)
        store = Store.at(Path(tmp) / "simwright.db")
        natural = []
        for category, text in requests:
            proto, raw = claimed(text)
            natural.append(run_one(text, category, proto, {**raw, **MODEST}, store, settings))
            print(f"{natural[-1].status:>9} {natural[-1].wall_s:6.1f} s  {text}", flush=True)
        faulty = []
        for name, raw in FAULTY:
            proto = dft_relax.PROTOCOL if raw.get("calculation") == "relax" else dft_scf.PROTOCOL
            faulty.append(run_one(name, "user mistake", proto, {**MODEST, **raw}, store, settings))
            print(f"{faulty[-1].status:>9} {faulty[-1].wall_s:6.1f} s  {name}", flush=True)
        eos = {}
        if not args.no_eos:
            for element in EXPERIMENT:
                a0, wall = lattice_constant(element, store, settings)
                eos[element] = {
                    "a0": a0,
                    "experiment": EXPERIMENT[element],
                    "deviation_percent": 100 * (a0 - EXPERIMENT[element]) / EXPERIMENT[element],
                    "wall_s": wall,
                }
                print(f"{element}: a0 = {a0:.4f} Å ({eos[element]['deviation_percent']:+.2f} %)")
        store.close()
    figures = {
        "natural": summarize(natural),
        "user_mistakes": summarize(faulty),
        "all": summarize(natural + faulty),
        "lattice_constants": eos,
    }
    print("\n" + table(natural + faulty) + "\n")
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(
            json.dumps(
                {"figures": figures, "rows": [r.__dict__ for r in natural + faulty]}, indent=2
            )
        )


if __name__ == "__main__":
    main()
