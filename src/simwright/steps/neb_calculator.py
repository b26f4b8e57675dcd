"""The ASE calculator of one intermediate image of a band (:mod:`simwright.steps.neb`).

Kept apart so that importing :mod:`simwright.steps.neb` does not import ASE's
calculator machinery; :func:`~simwright.steps.neb.run_neb` imports it when a band runs.
"""

from __future__ import annotations

from typing import Any

from ase.calculators.calculator import Calculator, all_changes


class BandCalculator(Calculator):
    """Energy and forces of image ``k`` from the shared band evaluator."""

    implemented_properties = ["energy", "forces"]  # noqa: RUF012 - ASE declares a list

    def __init__(self, band: Any, k: int) -> None:
        """``band`` is a :class:`simwright.steps.neb.Band`; ``k`` the image (1 … n)."""
        super().__init__()
        self.band = band
        self.k = k

    def calculate(
        self,
        atoms: Any = None,
        properties: Any = ("energy",),
        system_changes: Any = all_changes,
    ) -> None:
        """Ask the band (which evaluates every image when any has moved)."""
        super().calculate(atoms, properties, system_changes)
        energy, forces = self.band.result(self.k)
        self.results = {"energy": energy, "forces": forces}
