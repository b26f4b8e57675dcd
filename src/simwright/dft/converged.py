"""Converged plane-wave settings, stored so that later DFT runs can reuse them.

``dft_convergence`` writes one :class:`ConvergedSettings` per system, functional and
set of pseudopotential files to ``<home>/dft/converged/<key>.json``. The other DFT
protocols look it up when they recommend an input: they record it (an event, a note in
the report) and, when the request asks for it (``use_converged``), take its cutoffs
and k-point spacing for what the request does not state.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from simwright.errors import ValidationError


@dataclass(frozen=True)
class ConvergedSettings:
    """Cutoffs and k-point spacing a convergence study found, with its tolerances."""

    system: str
    functional: str
    pseudopotentials: tuple[str, ...]
    ecutwfc_ry: float
    ecutrho_ry: float
    kspacing_inv_a: float
    energy_tol_mev_atom: float
    force_tol_ev_a: float
    pressure_tol_kbar: float
    run_id: str
    demonstrated: bool
    """False when the tolerance was only met by the most accurate value scanned."""

    def describe(self) -> str:
        """One line for reports."""
        flag = "" if self.demonstrated else " (not demonstrated within the scanned range)"
        return (
            f"ecutwfc {self.ecutwfc_ry:g} Ry, ecutrho {self.ecutrho_ry:g} Ry, k-spacing "
            f"{self.kspacing_inv_a:g} Å⁻¹ converged to {self.energy_tol_mev_atom:g} meV/atom, "
            f"{self.force_tol_ev_a:g} eV/Å, {self.pressure_tol_kbar:g} kbar by dft_convergence "
            f"run {self.run_id}{flag}"
        )


def settings_key(system: str, functional: str, pseudopotentials: tuple[str, ...]) -> str:
    """A file-safe key of the system, the functional and the files."""
    digest = hashlib.sha256("|".join(sorted(set(pseudopotentials))).encode()).hexdigest()[:12]
    safe = "".join(c if c.isalnum() else "_" for c in system)
    return f"{safe}-{functional}-{digest}"


def _path(home: Path, key: str) -> Path:
    return home / "dft" / "converged" / f"{key}.json"


def save_converged(home: Path, settings: ConvergedSettings) -> Path:
    """Write ``settings`` (replacing an earlier study of the same key); its path."""
    key = settings_key(settings.system, settings.functional, settings.pseudopotentials)
    path = _path(home, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(settings), indent=2, ensure_ascii=False))
    return path


def find_converged(
    home: Path, system: str, functional: str, pseudopotentials: tuple[str, ...]
) -> ConvergedSettings | None:
    """The stored study of this system, functional and files, or None."""
    path = _path(home, settings_key(system, functional, pseudopotentials))
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    try:
        data["pseudopotentials"] = tuple(data["pseudopotentials"])
        return ConvergedSettings(**data)
    except TypeError as exc:
        raise ValidationError(f"unreadable converged settings {path}: {exc}") from exc
