"""Geometry optimisation with geomeTRIC (translation-rotation-internal coordinates;
L.-P. Wang, C. Song, J. Chem. Phys. 144, 214108 (2016)) over any gradient function.

geomeTRIC calls back into :mod:`simwright.engines.qc.calculator` for energies and
gradients; its log is written to ``<workdir>/<prefix>.log`` only (the process's root
logger is restored afterwards), its trajectory to ``<prefix>_optim.xyz``. A
transition-state search (``transition=True``) starts from a finite-difference Hessian
and follows the lowest mode uphill.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simwright.engines.qc.calculator import GradientFn
from simwright.engines.qc.xtb_calc import BOHR_A
from simwright.errors import EngineError
from simwright.molecules.qc import QcMolecule

_LOG_INI = """[loggers]
keys=root,geometric

[handlers]
keys=file_handler

[formatters]
keys=formatter

[logger_root]
level=WARNING
handlers=

[logger_geometric]
level=INFO
handlers=file_handler
qualname=geometric
propagate=0

[handler_file_handler]
class=geometric.nifty.RawFileHandler
level=INFO
formatter=formatter
args=(r'%(logfilename)s',)

[formatter_formatter]
format=%(message)s
"""

CONVERGENCE: dict[str, float] = {
    "convergence_energy": 1e-6,
    "convergence_grms": 3e-4,
    "convergence_gmax": 4.5e-4,
    "convergence_drms": 1.2e-3,
    "convergence_dmax": 1.8e-3,
}
"""geomeTRIC's default ("GAU"-like) criteria: hartree, hartree/bohr and Å."""


@dataclass(frozen=True)
class Optimised:
    """An optimised molecule, its energy (hartree), the steps taken and convergence."""

    molecule: QcMolecule
    energy_ha: float
    steps: int
    converged: bool
    energies_ha: tuple[float, ...]


def _engine(molecule: QcMolecule, gradient: GradientFn, energies: list[float]) -> Any:
    # lazy: geomeTRIC (extra [molecules]) is optional and imports slowly
    import geometric.engine
    import geometric.molecule

    class _Engine(geometric.engine.Engine):
        """Energies and gradients from simwright's calculator."""

        def calc_new(self, coords: np.ndarray, dirname: str) -> dict[str, Any]:
            moved = molecule.moved(np.asarray(coords).reshape(-1, 3) * BOHR_A)
            e, g = gradient(moved)
            energies.append(e)
            return {"energy": e, "gradient": np.asarray(g).ravel()}

    mol = geometric.molecule.Molecule()
    mol.elem = list(molecule.symbols)
    mol.xyzs = [np.array(molecule.positions)]
    return _Engine(mol)


def optimise(
    molecule: QcMolecule,
    gradient: GradientFn,
    workdir: Path,
    *,
    prefix: str = "opt",
    max_steps: int = 100,
    transition: bool = False,
) -> Optimised:
    """Optimise ``molecule`` (a minimum, or a saddle point with ``transition``)."""
    # lazy: geomeTRIC (extra [molecules]) is optional and imports slowly
    import geometric.optimize
    from geometric.errors import GeomOptNotConvergedError

    workdir.mkdir(parents=True, exist_ok=True)
    if len(molecule.symbols) == 1:
        e, _ = gradient(molecule)
        return Optimised(molecule, e, 0, True, (e,))
    ini = workdir / f"{prefix}.log.ini"
    ini.write_text(_LOG_INI, encoding="utf-8")
    energies: list[float] = []
    engine = _engine(molecule, gradient, energies)
    root = logging.getLogger()
    saved = (root.level, root.handlers[:])
    converged = True
    try:
        result = geometric.optimize.run_optimizer(
            customengine=engine,
            input=str(workdir / f"{prefix}.tmp"),
            prefix=str(workdir / prefix),
            logIni=str(ini),
            maxiter=max_steps,
            transition=transition,
            **CONVERGENCE,
        )
        xyz = np.asarray(result.xyzs[-1])
    except GeomOptNotConvergedError:
        converged = False
        xyz = np.asarray(engine.M.xyzs[-1])
    except Exception as exc:
        raise EngineError(f"geomeTRIC failed on {molecule.name}: {exc}") from exc
    finally:
        _close(logging.getLogger("geometric"))
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
    if not energies:
        raise EngineError(f"geomeTRIC evaluated no energy of {molecule.name}")
    final = molecule.moved(xyz)
    return Optimised(final, energies[-1], len(energies), converged, tuple(energies))


def _close(logger: logging.Logger) -> None:
    for handler in logger.handlers[:]:
        handler.close()
        logger.removeHandler(handler)
