"""Refusals of stated choices that help: the phrase, why it cannot be honoured, and
what the protocol offers instead (its choices of the same kind, the choices its
procedure fixes, or how a spec file can say it), in one or two lines.
"""

from __future__ import annotations

from simwright.knowledge.modules import KnowledgeModule
from simwright.knowledge.planner.stated import FIXED_BY_PROTOCOL, Stated, find_stated

_HINTS: dict[str, str] = {
    "pseudopotential family": (
        "simwright picks one file per element from the installed pseudopotentials; a spec "
        "file may name them: parameters: {pseudopotentials: {Al: Al.pbe-n-kjpaw.UPF}}"
    ),
    "mesh or supercell": "it builds its own cell",
    "box size": "molecules and slabs take the vacuum instead, e.g. '10 Å of vacuum'",
    "Hubbard U": "a dft_* spec file can set it: parameters: {hubbard_u_ev: {Ni: 6.0}}",
    "dispersion correction": "a dft_* spec file can set it: parameters: {vdw: grimme-d3}",
    "structure prototype": (
        "other structures come from a CIF file in a spec file: structure: {kind: file, path: x.cif}"
    ),
    "magnetic order": "the DFT protocols offer collinear ferromagnetic spin or none",
    "hardware": (
        "engines run with the configured threads and MPI ranks (config.toml); an MLIP "
        "calculator takes calculator_kwargs {device: cuda} in a spec file"
    ),
    "convergence threshold": (
        "the protocol sets it; a dft_* spec file can: overrides: {electrons: {conv_thr: 1e-8}}"
    ),
    "confinement": "the MD protocols simulate a bulk liquid in a periodic box",
    "condition": "give it in numbers (argon's triple point is 83.8 K, water's 273.16 K)",
    "aggregate": (
        "a spec file can give the structure from a file: structure: {kind: file, path: x.xyz}"
    ),
    "phase": (
        "simwright runs liquids with the MD protocols (diffusivity, thermal_conductivity), "
        "crystals, slabs, molecules and 2D layers with the DFT and ASE ones"
    ),
}


_VALUE_HINTS: dict[tuple[str, bool], str] = {
    ("mesh", True): "give a k-point spacing instead, e.g. 'k-spacing 0.2 Å-1'",
    ("kpoint count", True): "give a k-point spacing instead, e.g. 'k-spacing 0.2 Å-1'",
    ("gamma", True): "molecules get the Γ point; for a crystal give a k-point spacing",
    ("surface cell", True): (
        "slabs are 1×1 in-plane from words; a spec file sets the repeats: "
        "structure: {kind: surface, name: Cu, facet: '111', size: [2, 2, 4]}"
    ),
}


def cannot_honour(s: Stated, module: KnowledgeModule, protocol: str) -> str:
    """The refusal of a stated choice: the phrase, its category, what can be done."""
    hint = _VALUE_HINTS.get((s.value, protocol.startswith("dft_")))
    if hint is not None:
        return f"{s.text!r} ({s.category}) cannot be honoured by {protocol}: {hint}"
    offers = _offers(s, module)
    fixed = [
        f"{v} ({why})"
        for v, why in _fixed_of(protocol).items()
        if any(t.category == s.category for t in find_stated(v))
    ]
    if offers:
        instead = f"it offers {offers}"
        if s.category in _HINTS:
            instead += f"; {_HINTS[s.category]}"
    elif s.category in _HINTS:
        instead = _HINTS[s.category]
    elif fixed:
        instead = f"its procedure fixes: {'; '.join(fixed)}"
    else:
        instead = f"{protocol} has no setting for it"
    return f"{s.text!r} ({s.category}) cannot be honoured by {protocol}: {instead}"


def _fixed_of(protocol: str) -> dict[str, str]:
    return FIXED_BY_PROTOCOL.get(protocol, {})


def _offers(s: Stated, module: KnowledgeModule) -> str:
    """The module's choices of the same category as ``s`` ("calculator: emt, lj")."""
    for name, spec in module.parameters.items():
        aliases = [a for alist in spec.phrases().values() for a in alist]
        if any(t.category == s.category for a in aliases for t in find_stated(a)):
            return f"{name}: {', '.join(spec.choices or {})}"
    return ""
