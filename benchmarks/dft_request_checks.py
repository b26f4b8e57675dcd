"""Scoring DFT requests in words against what they must become (``dft_requests.py``).

A case is *completed* when the request goes through the front door ``simwright plan`` and
``simwright run`` use (:func:`~simwright.knowledge.planner.resolver.resolve`), the
recommender builds its pw.x input, and every expected key holds on the *built input*
(not only on the exit status): calculation, structure, functional, cutoffs, k-points,
smearing, spin, magnetic order, Hubbard U, spin-orbit, pseudopotential kind. A refusal
case is completed when the request is refused before anything runs and the message names
one of the expected words.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from simwright.dft.recommender import Recommendation, recommend
from simwright.engines.espresso.pseudo_library import PseudoLibrary, default_pseudo_dirs
from simwright.errors import SimwrightError
from simwright.knowledge.planner.resolver import resolve
from simwright.protocols.registry import Protocol

DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class Case:
    """A request, its category and what it must become."""

    id: str
    category: str
    text: str
    expect: Mapping[str, Any] = field(default_factory=dict)
    refuse: tuple[str, ...] = ()


@dataclass
class Scored:
    """The outcome of one case."""

    case: Case
    completed: bool
    protocol: str = ""
    detail: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    recommendation: Recommendation | None = None


def load_cases(path: Path) -> list[Case]:
    """The cases of a YAML file (``cases: [{id, category, text, expect | refuse}]``)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [
        Case(c["id"], c["category"], c["text"], c.get("expect", {}), tuple(c.get("refuse", ())))
        for c in data["cases"]
    ]


def per_atom_species(rec: Recommendation) -> list[int]:
    """1-based species index of each atom of the input."""
    inp = rec.template
    labels = getattr(inp, "labels", None) or inp.structure.symbols
    names = [getattr(s, "name", s.symbol) for s in inp.species]
    return [names.index(label) + 1 for label in labels]


def starting_moments(rec: Recommendation) -> list[float]:
    """The starting magnetization of each atom (0 where none is set)."""
    system = rec.template.namelists.get("system", {})
    return [
        float(system.get(f"starting_magnetization({i})", 0.0))  # type: ignore[arg-type]
        for i in per_atom_species(rec)
    ]


def magnetic_order(rec: Recommendation) -> str:
    """fm, afm or none, from the signs of the starting magnetizations."""
    system = rec.template.namelists.get("system", {})
    if system.get("nspin", 1) != 2 and not system.get("noncolin"):
        return "none"
    moments = starting_moments(rec)
    if any(m > 0 for m in moments) and any(m < 0 for m in moments):
        return "afm"
    return "fm" if any(m != 0 for m in moments) else "none"


def hubbard(rec: Recommendation) -> dict[str, float]:
    """Element -> U (eV) written to the input."""
    system = rec.template.namelists.get("system", {})
    out = {}
    for i, sp in enumerate(rec.template.species, start=1):
        u = system.get(f"Hubbard_U({i})")
        if u is not None:
            out[sp.symbol] = float(u)  # type: ignore[arg-type]
    return out


def layers(rec: Recommendation) -> int:
    """Distinct atomic planes along z."""
    z = np.round(rec.structure.positions[:, 2], 1)
    return len(set(z.tolist()))


def vacuum(rec: Recommendation) -> float:
    """Vacuum along z (slabs, layers) or the smallest gap between images (molecules)."""
    s = rec.structure
    extent = s.positions.max(axis=0) - s.positions.min(axis=0)
    lengths = np.linalg.norm(s.cell, axis=1)
    if rec.built.kind == "molecule":
        return float(min(lengths - extent))
    return float(lengths[2] - extent[2])


def _kpoints(rec: Recommendation) -> Any:
    k = rec.template.kpoints
    return "gamma" if k.mode == "gamma" else list(k.mesh)


GETTERS: dict[str, Callable[[Recommendation], Any]] = {
    "calculation": lambda r: r.template.calculation,
    "kind": lambda r: r.built.kind,
    "elements": lambda r: sorted(set(r.structure.symbols)),
    "natoms": lambda r: len(r.structure),
    "layers": layers,
    "vacuum_a": vacuum,
    "box_a": lambda r: sorted(np.round(np.linalg.norm(r.structure.cell, axis=1), 3).tolist()),
    "functional": lambda r: r.pseudos.functional,
    "ecutwfc": lambda r: r.template.get("system", "ecutwfc"),
    "ecutrho": lambda r: r.template.get("system", "ecutrho"),
    "kpoints": _kpoints,
    "kspacing": lambda r: r.request.kspacing_inv_a,
    "a_a": lambda r: r.request.structure.a_a,
    "volume_per_atom_a3": lambda r: abs(float(np.linalg.det(r.structure.cell))) / len(r.structure),
    "smearing": lambda r: r.template.get("system", "smearing"),
    "degauss": lambda r: r.template.get("system", "degauss"),
    "occupations": lambda r: r.template.get("system", "occupations"),
    "nspin": lambda r: r.template.get("system", "nspin", 1),
    "tot_magnetization": lambda r: r.template.get("system", "tot_magnetization"),
    "lspinorb": lambda r: bool(r.template.get("system", "lspinorb", False)),
    "order": magnetic_order,
    "hubbard": hubbard,
    "hybrid": lambda r: r.template.get("system", "input_dft"),
    "vdw": lambda r: r.template.get("system", "vdw_corr"),
    "kind_of_pseudo": lambda r: sorted({p.kind for p in r.pseudos.pseudos}),
    "pseudo_name": lambda r: [p.name for p in r.pseudos.pseudos],
}


def _agrees(key: str, got: Any, want: Any) -> bool:
    if key == "vacuum_a":
        return got is not None and abs(got - want) <= 0.3
    if key == "box_a":
        return got == [float(want)] * 3
    if key == "kind_of_pseudo":
        return got == [want]
    if key == "pseudo_name":
        return all(want in name for name in got)
    if key == "hubbard":
        return set(got) == set(want) and all(abs(got[k] - want[k]) < 1e-6 for k in want)
    if isinstance(want, float) and isinstance(got, (int, float)):
        return math.isclose(got, want, rel_tol=1e-3)
    if isinstance(want, int) and isinstance(got, (int, float)) and not isinstance(want, bool):
        return math.isclose(got, want, rel_tol=1e-9)
    return bool(got == want)


def mismatches(case: Case, protocol: str, rec: Recommendation) -> list[str]:
    """Expected keys the plan or the built input does not honour."""
    wrong = []
    for key, want in case.expect.items():
        got = protocol if key == "protocol" else GETTERS[key](rec)
        if not _agrees(key, got, want):
            wrong.append(f"{key}: want {want!r}, got {got!r}")
    return wrong


def score(case: Case, protocols: Mapping[str, Protocol], home: Path) -> Scored:
    """Resolve, recommend and check one case (nothing runs)."""
    try:
        resolution = resolve(case.text, protocols)
        params = resolution.params
        rec = recommend(params, PseudoLibrary(default_pseudo_dirs(home)))  # type: ignore[arg-type]
    except SimwrightError as exc:
        message = str(exc).splitlines()[0]
        if not case.refuse:
            return Scored(case, False, detail=f"refused: {message}")
        named = any(w.lower() in message.lower() for w in case.refuse)
        detail = f"refused: {message}" if named else f"refused without naming: {message}"
        return Scored(case, named, detail=detail)
    name = resolution.protocol.name
    if case.refuse:
        return Scored(case, False, name, "planned, but a refusal was expected")
    wrong = mismatches(case, name, rec)
    dumped = params.model_dump(mode="json", exclude_defaults=True)
    return Scored(case, not wrong, name, "; ".join(wrong), dumped, rec)


RUN_MODEST = {"ecutwfc_ry": 20.0, "kspacing_inv_a": 0.8}
"""Run settings for what a request does not state (a check that pw.x accepts and
converges the built input, not converged physics)."""
RUN_TIMEOUT_S = 240.0
"""Each pw.x call of the run check is stopped after this (two shared cores)."""


def modest(scored: Scored) -> dict[str, Any]:
    """The planned parameters with :data:`RUN_MODEST` where the request states nothing."""
    raw = dict(scored.params)
    rec = scored.recommendation
    assert rec is not None
    if "ecutwfc_ry" not in raw and "ecutrho_ry" not in raw:
        raw["ecutwfc_ry"] = RUN_MODEST["ecutwfc_ry"]
    if not ({"kpoints", "kspacing_inv_a", "gamma_point"} & set(raw)):
        raw["kspacing_inv_a"] = RUN_MODEST["kspacing_inv_a"]
    return raw


def category_table(rows: list[Scored]) -> str:
    """Completed / total per category, as Markdown."""
    cats: dict[str, list[Scored]] = {}
    for r in rows:
        cats.setdefault(r.case.category, []).append(r)
    lines = ["| category | completed | cases |", "|---|---|---|"]
    for cat, rs in cats.items():
        lines.append(f"| {cat} | {sum(r.completed for r in rs)} | {len(rs)} |")
    done = sum(r.completed for r in rows)
    lines.append(f"| **all** | **{done}** ({100 * done / len(rows):.0f} %) | {len(rows)} |")
    return "\n".join(lines)


def failures(rows: list[Scored]) -> str:
    """One line per case that did not complete."""
    return "\n".join(f"- {r.case.id} {r.case.text!r}: {r.detail}" for r in rows if not r.completed)
