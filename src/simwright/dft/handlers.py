"""Diagnose a failed pw.x run and repair its input with prioritized rules.

:func:`diagnose` reads the CRASH file, the exit code and the output and names
the failure; each :class:`Handler` turns one kind of failure into a
:class:`Repair` (namelist changes, perhaps a restart geometry) or declines. A
rule is a pure function of the diagnosis, the failed run and a context; it
looks at the current input to escalate (a second unconverged SCF gets a
different remedy than the first).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simwright.dft.kg_rules import Value
from simwright.dft.knowledge_graph import KnowledgeGraph
from simwright.dft.validation import validate_input
from simwright.engines.espresso.parse import crash_message
from simwright.engines.espresso.pw import PwRun
from simwright.structure import Structure

Changes = Mapping[str, Mapping[str, Value | None]]

_REPAIRABLE = frozenset(
    {"unknown_variable", "wrong_namelist", "later_version", "rejected", "missing_index"}
)


@dataclass(frozen=True)
class Diagnosis:
    """What went wrong, in one code, with the evidence."""

    code: str
    message: str
    details: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Repair:
    """A rule's answer: input changes (and a restart geometry), or a terminal failure."""

    rule: str
    reason: str
    changes: Changes = field(default_factory=dict)
    structure: Structure | None = None
    terminal: bool = False


@dataclass(frozen=True)
class RepairContext:
    """What rules may consult besides the run: the graph, electron count, where files live."""

    kg: KnowledgeGraph
    valence_electrons: float | None = None
    pseudo_dirs: tuple[Path, ...] = ()


_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("bad_namelist", re.compile(r"bad line in namelist &(\w+): \"(.*)\"|reading namelist (\w+)")),
    ("missing_pseudo", re.compile(r"from readpp[^\n]*\n\s*file (\S+) not found")),
    ("fr_pp_needs_spin_orbit", re.compile(r"FR-PP please use lspinorb")),
    # pw.x 6.7, DFT+U with noncolin: "from iosys : error # 1 / simplified LDA+U not
    # implemented with noncol. magnetism, use lda_plus_u_kind = 1"
    ("noncollinear_plus_u", re.compile(r"simplified LDA\+U not implemented with noncol")),
    # ... and then "from force_hub : error # 1 / forces in full LDA+U scheme are not yet
    # implemented" (stress likewise)
    ("full_plus_u_forces", re.compile(r"(?:forces|stress) in full LDA\+U scheme")),
    ("smearing_needed", re.compile(r"smearing is needed")),
    # pw.x 6.7 nscf with tetrahedra and fewer bands than filled states:
    # "from tetra_weights : error # 1 / bad Fermi energy"
    ("too_few_bands", re.compile(r"too few bands|tetra_weights[^\n]*\n\s*bad Fermi energy")),
    # nscf/bands (and dos.x, bands.x) without the SCF's saved data:
    # "from read_conf_from_file : error # 1 / fatal error reading xml file"
    ("missing_saved_data", re.compile(r"fatal error reading xml file")),
    ("too_many_bands", re.compile(r"too many bands are required")),
    (
        "cholesky",
        re.compile(
            r"S matrix not positive definite|problems computing cholesky|"
            r"[cr]diaghg|cholesky",
            re.IGNORECASE,
        ),
    ),
)


def diagnose(run: PwRun) -> Diagnosis:
    """Name the failure of ``run`` from its CRASH text, exit code and output."""
    crash = crash_message(run.crash) if run.crash else ""
    for code, pattern in _PATTERNS:
        m = pattern.search(crash)
        if m is not None:
            groups = {f"g{i}": g for i, g in enumerate(m.groups()) if g}
            return Diagnosis(code, crash.splitlines()[-1] if crash else code, groups)
    if run.call.exit_code == 124:
        return Diagnosis(
            "timed_out",
            f"pw.x was stopped at the wall-time limit after {run.call.wall_s:.0f} s "
            "([limits] in config.toml)",
        )
    out = run.output
    if run.call.exit_code == 2 or (out.job_done and not out.scf_converged):
        n = out.scf_iterations[-1] if out.scf_iterations else 0
        return Diagnosis("scf_unconverged", f"SCF not converged after {n} iterations")
    if out.max_steps_reached or out.relax_converged is False:
        return Diagnosis("relax_unconverged", "the geometry optimisation reached nstep")
    text = crash or "; ".join(run.problems) or "unknown failure"
    return Diagnosis("unknown", text)


def _get(run: PwRun, namelist: str, name: str, default: Value) -> Value:
    value = run.input.get(namelist, name)
    return default if value is None else value


def scf_unconverged(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """Lower mixing_beta with more steps; then local Thomas-Fermi mixing; then give up."""
    beta = float(_get(run, "electrons", "mixing_beta", 0.7))
    steps = int(_get(run, "electrons", "electron_maxstep", 100))
    mode = str(_get(run, "electrons", "mixing_mode", "plain")).lower()
    if beta > 0.2:
        new_beta = max(0.1, round(beta / 2, 3))
        return Repair(
            "scf_mixing",
            f"SCF unconverged: mixing_beta {beta:g} -> {new_beta:g}, "
            f"electron_maxstep -> {max(2 * steps, 100)}",
            {"electrons": {"mixing_beta": new_beta, "electron_maxstep": max(2 * steps, 100)}},
        )
    if mode != "local-tf":
        return Repair(
            "scf_local_tf",
            "SCF still unconverged: local Thomas-Fermi mixing, more steps",
            {
                "electrons": {
                    "mixing_mode": "local-TF",
                    "mixing_ndim": 12,
                    "electron_maxstep": max(2 * steps, 200),
                }
            },
        )
    return None


def bad_namelist(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """Repair unknown, misplaced or misspelt variables through the knowledge graph."""
    merged: dict[str, dict[str, Value | None]] = {}
    fixed: list[str] = []
    for p in validate_input(run.input.written_namelists(), ctx.kg):
        if p.kind in _REPAIRABLE and p.severity == "error":
            for nl, values in p.fix.items():
                merged.setdefault(nl, {}).update(values)
            fixed.append(p.message)
    if not merged:
        return None
    return Repair("namelist_knowledge_graph", "; ".join(fixed), merged)


def missing_pseudo(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair:
    """A pseudopotential file is missing: fail, naming it and every directory searched."""
    name = Path(d.details.get("g0") or d.details.get("g1") or "?").name
    dirs = ", ".join(str(p) for p in ctx.pseudo_dirs) or "(none configured)"
    return Repair(
        "missing_pseudopotential",
        f"pseudopotential file {name} was not found; looked in {dirs}",
        terminal=True,
    )


def fr_pp(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """A fully relativistic file in a scalar run: switch on noncolin and lspinorb."""
    if run.input.get("system", "lspinorb") is True:
        return None
    changes: dict[str, Value | None] = {"noncolin": True, "lspinorb": True}
    if run.input.get("system", "nspin") is not None:
        changes["nspin"] = None  # the moment lives in the spinors now
    return Repair(
        "spin_orbit_for_fr_pp",
        "fully relativistic pseudopotential: noncolin + lspinorb",
        {"system": changes},
    )


def full_lda_plus_u(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """DFT+U in a non-collinear run: pw.x needs the full (Liechtenstein) scheme."""
    if run.input.get("system", "lda_plus_u_kind") == 1:
        return None
    return Repair(
        "full_lda_plus_u",
        "non-collinear DFT+U needs lda_plus_u_kind = 1 (J = 0 unless given)",
        {"system": {"lda_plus_u_kind": 1}},
    )


def full_lda_plus_u_forces(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """pw.x 6.7 has no forces or stress with full DFT+U: an SCF drops them, a relaxation
    cannot be done."""
    if run.input.calculation != "scf":
        return Repair(
            "full_lda_plus_u_forces",
            "pw.x 6.7 computes no forces or stress with the full DFT+U scheme "
            "(non-collinear DFT+U): this relaxation cannot be run",
            terminal=True,
        )
    system_off = {k: False for k in ("tprnfor", "tstress") if run.input.get("control", k)}
    if not system_off:
        return None
    return Repair(
        "full_lda_plus_u_forces",
        "no forces or stress with the full DFT+U scheme: tprnfor, tstress off",
        {"control": system_off},
    )


def smearing_needed(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """A metal with fixed occupations: switch on cold smearing."""
    if str(run.input.get("system", "occupations", "fixed")).lower() == "smearing":
        return None
    return Repair(
        "metal_smearing",
        "metal without smearing: occupations='smearing', mv, 0.02 Ry",
        {"system": {"occupations": "smearing", "smearing": "mv", "degauss": 0.02}},
    )


def needed_bands(valence: float, *, smearing: bool, noncolin: bool) -> int:
    """Bands pw.x needs: half the electrons (all when non-collinear), +20 % (≥ 4) for metals."""
    occupied = valence if noncolin else valence / 2
    if not smearing:
        return math.ceil(occupied)
    return max(math.ceil(1.2 * occupied), math.ceil(occupied) + 4)


def too_few_bands(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """nbnd below the occupied states: raise it (or let pw.x choose)."""
    current = run.input.get("system", "nbnd")
    if ctx.valence_electrons is None:
        if current is None:
            return None
        return Repair(
            "more_bands", "too few bands: let pw.x choose nbnd", {"system": {"nbnd": None}}
        )
    occupations = str(run.input.get("system", "occupations", "fixed")).lower()
    smearing = occupations == "smearing" or occupations.startswith("tetrahedra")
    noncolin = run.input.get("system", "noncolin") is True
    needed = needed_bands(ctx.valence_electrons, smearing=smearing, noncolin=noncolin)
    if isinstance(current, int) and current >= needed:
        needed = current + 4
    return Repair(
        "more_bands", f"too few bands: nbnd {current} -> {needed}", {"system": {"nbnd": needed}}
    )


def too_many_bands(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """More bands than plane waves: drop nbnd, or raise the cutoff."""
    if run.input.get("system", "nbnd") is not None:
        return Repair(
            "fewer_bands",
            "more bands than basis functions: let pw.x choose nbnd",
            {"system": {"nbnd": None}},
        )
    wfc = float(_get(run, "system", "ecutwfc", 30.0))
    return Repair(
        "larger_basis",
        "more bands than basis functions: raise ecutwfc by half",
        {"system": {"ecutwfc": 1.5 * wfc}},
    )


def cholesky(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """Overlap matrix not positive definite: cg diagonalization, then gentler mixing."""
    if str(run.input.get("electrons", "diagonalization", "david")).lower() != "cg":
        return Repair(
            "cg_diagonalization",
            "S matrix / Cholesky failure: diagonalization='cg'",
            {"electrons": {"diagonalization": "cg"}},
        )
    beta = float(_get(run, "electrons", "mixing_beta", 0.7))
    if beta > 0.1:
        return Repair(
            "cholesky_mixing",
            f"Cholesky failure with cg: mixing_beta -> {beta / 2:g}",
            {"electrons": {"mixing_beta": round(beta / 2, 3)}},
        )
    return None


def relax_unconverged(d: Diagnosis, run: PwRun, ctx: RepairContext) -> Repair | None:
    """The optimisation ran out of steps: restart from its last geometry with more steps."""
    nstep = int(_get(run, "control", "nstep", 50))
    new = max(2 * nstep, 50)
    return Repair(
        "relax_restart",
        f"relaxation reached nstep={nstep}: restart from the last geometry with nstep={new}",
        {"control": {"nstep": new}},
        structure=run.structure,
    )


@dataclass(frozen=True)
class Handler:
    """A named rule for the diagnosis codes it handles."""

    name: str
    codes: frozenset[str]
    apply: Callable[[Diagnosis, PwRun, RepairContext], Repair | None]


HANDLERS: Sequence[Handler] = (
    Handler("missing_pseudopotential", frozenset({"missing_pseudo"}), missing_pseudo),
    Handler("namelist_knowledge_graph", frozenset({"bad_namelist"}), bad_namelist),
    Handler("spin_orbit_for_fr_pp", frozenset({"fr_pp_needs_spin_orbit"}), fr_pp),
    Handler("full_lda_plus_u", frozenset({"noncollinear_plus_u"}), full_lda_plus_u),
    Handler("full_lda_plus_u_forces", frozenset({"full_plus_u_forces"}), full_lda_plus_u_forces),
    Handler("metal_smearing", frozenset({"smearing_needed"}), smearing_needed),
    Handler("more_bands", frozenset({"too_few_bands"}), too_few_bands),
    Handler("fewer_bands", frozenset({"too_many_bands"}), too_many_bands),
    Handler("cholesky", frozenset({"cholesky"}), cholesky),
    Handler("scf_mixing", frozenset({"scf_unconverged"}), scf_unconverged),
    Handler("relax_restart", frozenset({"relax_unconverged"}), relax_unconverged),
)
"""The rule-based handlers, in priority order."""


def find_repair(
    d: Diagnosis, run: PwRun, ctx: RepairContext, handlers: Sequence[Handler] = HANDLERS
) -> Repair | None:
    """The first repair a handler for ``d.code`` proposes."""
    for h in handlers:
        if d.code in h.codes:
            repair = h.apply(d, run, ctx)
            if repair is not None:
                return repair
    return None
