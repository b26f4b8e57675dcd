"""The simulated cells of ``solid_electrolyte_diffusivity``: α-Li₃N with in-plane Li
vacancies (:mod:`simwright.builders.cited`) or argyrodite Li₆PS₅Cl, ordered or with
Cl/S exchanged between 4a and 4c (:mod:`simwright.builders.argyrodite`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simwright.builders.argyrodite import CITATION as ARGYRODITE_CITATION
from simwright.builders.argyrodite import ArgyroditeSpec, build_argyrodite
from simwright.builders.cited import CITED, CitedSpec, build_cited
from simwright.builders.defects import vacancy
from simwright.errors import ValidationError
from simwright.structure import Structure

if TYPE_CHECKING:
    from simwright.protocols.solids.solid_electrolyte_diffusivity import SolidDiffusivityParams

ARGYRODITE_ATOMS = 52
"""Atoms of the conventional Li₆PS₅Cl cell (Li₂₄P₄S₂₀Cl₄)."""


def material_defaults(data: Any) -> Any:
    """Raw parameters with the material's defaults filled in (Li₆PS₅Cl: one conventional
    cell, no removed Li) and the options of the other material refused by name."""
    if not isinstance(data, dict):
        return data
    if data.get("material") != "Li6PS5Cl":
        if data.get("anion_exchange"):
            raise ValueError("anion_exchange applies to Li6PS5Cl only (Li3N has no 4a/4c sites)")
        return data
    if data.get("li_vacancies"):
        raise ValueError(
            "Li6PS5Cl's 48h Li sites are half empty already; li_vacancies applies to Li3N only"
        )
    return {"repeat": (1, 1, 1), **data, "li_vacancies": 0}


def in_plane_li(structure: Structure, c_unit_a: float) -> list[int]:
    """Indices of the Li atoms in the Li₂N planes (fractional z of the unit cell ≈ 0)."""
    z = structure.positions[:, 2] / c_unit_a
    return [
        i for i, s in enumerate(structure.symbols) if s == "Li" and abs(z[i] - round(z[i])) < 1e-3
    ]


def build_cell(p: SolidDiffusivityParams) -> Structure:
    """The simulated supercell: Li₃N with ``li_vacancies`` in-plane Li removed, spread
    over the sites, or Li₆PS₅Cl with ``anion_exchange`` of its Cl/S swapped."""
    if p.material == "Li6PS5Cl":
        return build_argyrodite(ArgyroditeSpec(p.repeat, p.anion_exchange, p.seed))
    crystal = build_cited(CitedSpec(p.material, p.repeat))
    sites = in_plane_li(crystal, CITED[p.material].cellpar[2])
    if p.li_vacancies > len(sites):
        raise ValidationError(f"only {len(sites)} in-plane Li sites for {p.li_vacancies} vacancies")
    chosen = sorted(
        (sites[round(k * len(sites) / max(p.li_vacancies, 1))] for k in range(p.li_vacancies)),
        reverse=True,
    )
    for index in chosen:
        crystal = vacancy(crystal, index)
    return crystal


def citation(material: str) -> str:
    """The source of the material's structure."""
    return ARGYRODITE_CITATION if material == "Li6PS5Cl" else CITED[material].citation


def cell_description(p: SolidDiffusivityParams) -> str:
    """What was built, in words ('1×1×1 Li6PS5Cl with 50 % Cl/S exchanged …')."""
    size = "×".join(map(str, p.repeat))
    if p.material == "Li6PS5Cl":
        return (
            f"{size} Li6PS5Cl, 24 Li per cell on half the 48h sites, "
            f"{100 * p.anion_exchange:g} % of Cl (4a) exchanged with S (4c)"
        )
    return f"{size} {p.material} with {p.li_vacancies} in-plane Li vacancies"
