"""Preflight of the molecular protocols: the size estimate and the build stage.

Every parameters model of this family has ``molecule_inputs()`` (the molecules it will
compute) and ``levels()`` (the levels of theory it uses); the build stage embeds each
molecule (RDKit) and checks the engines are installed, without running them.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from simwright.builders.qc_molecules import build_molecule
from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import EngineError
from simwright.protocols.estimate import Estimate
from simwright.protocols.inputs import BuiltInputs
from simwright.settings import Settings

BASIS_COST: dict[str, float] = {"sto-3g": 0.2, "3-21g": 0.3, "6-31g": 0.4}
"""Cost of a basis relative to def2-SVP (rough); larger sets count 1 (def2-SVP, 6-31G*)
to 8 (triple zeta)."""


def gradient_core_s(n_atoms: int, level: LevelOfTheory) -> float:
    """Core-seconds of one energy + gradient (rough): xTB 0.01·n; SCF 0.3·n² × basis."""
    if level.engine == "xtb":
        return 0.01 * n_atoms + 0.05
    basis = level.basis or ""
    factor = BASIS_COST.get(basis, 8.0 if "tz" in basis or "311" in basis else 1.0)
    solvent = 1.5 if level.solvent else 1.0
    return 0.3 * n_atoms**2 * factor * solvent + 0.5


def _atoms(params: Any) -> list[int]:
    return [len(build_molecule(m.source()).symbols) for m in params.molecule_inputs()]


def molecule_estimate(params: Any, settings: Settings) -> Estimate:
    """Optimisations of ~(10 + n) gradients per molecule and level, plus a Hessian of 6n
    gradients where frequencies are computed (rough, upper side)."""
    sizes = _atoms(params)
    levels: list[LevelOfTheory] = list(params.levels())
    hessians = bool(getattr(params, "hessians", lambda: True)())
    total, longest = 0.0, 0.0
    for n in sizes:
        for level in levels:
            grads = (10 + n) + (6 * n if hessians else 0)
            cost = grads * gradient_core_s(n, level)
            total += cost
            longest = max(longest, cost)
    calls = len(sizes) * len(levels) * (2 if hessians else 1)
    return Estimate(
        atoms=max(sizes, default=0),
        engine_calls=calls,
        output_bytes=calls * 20_000,
        core_hours=total / 3600,
        longest_call_core_s=longest,
        basis=(
            f"{len(sizes)} molecule(s) × {len(levels)} level(s); optimisation ~(10 + n) "
            "gradients" + (", Hessian ≤ 6n gradients" if hessians else ""),
            "one gradient: xTB 0.01·n, SCF 0.3·n² core-seconds × basis factor (rough)",
        ),
    )


def molecule_inputs(params: Any, settings: Settings) -> BuiltInputs:
    """Build every molecule and check that the engines it needs are installed."""
    lines = []
    for m in params.molecule_inputs():
        mol = build_molecule(m.source())
        lines.append(
            f"molecule: {mol.name} {mol.formula}, charge {mol.charge:+d}, multiplicity "
            f"{mol.multiplicity}" + (" (assumed)" if m.multiplicity is None else "")
        )
    for level in params.levels():
        need: tuple[str, ...] = ("tblite",) if level.engine == "xtb" else ("pyscf", "geometric")
        if level.dispersion != "none":
            need += ("dftd3",)
        missing = [n for n in need if importlib.util.find_spec(n) is None]
        if missing:
            raise EngineError(
                f"{level.label()} needs {', '.join(missing)}: pip install 'simwright[molecules]'"
            )
        lines.append(f"level: {level.label()}")
    return BuiltInputs(tuple(dict.fromkeys(lines)))
