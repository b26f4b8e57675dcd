"""Is the state a plan asks for physically sensible? Checked before any compute.

From known data, not from a model:

- water (SPC/E) is run as a liquid: below 230 K (the homogeneous nucleation limit
  of supercooled water) or above its boiling point at the stated pressure (from
  Clausius–Clapeyron with ΔH_vap = 40.65 kJ/mol, 373.15 K at 1.01325 bar) or above the
  critical temperature (647.1 K), the request is refused; between 230 K and 273.15 K
  it is run with a warning (supercooled);
- argon is run as a liquid: below its triple point (83.8 K) or above its critical
  point (150.7 K) the request is refused; at a stated pressure, above the boiling
  point at that pressure (ΔH_vap = 6.43 kJ/mol, 87.3 K at 1.01325 bar) too;
- a Lennard-Jones calculator has documented parameters only for argon here (Rahman
  1964); for another element ASE's σ = 1 Å, ε = 1 eV would be meaningless;
- a DFT structure must be buildable (a compound with a known prototype, a facet with
  a builder), refused with the request's words otherwise.

Data: NIST Chemistry WebBook (water, argon: triple and critical points, enthalpies
of vaporization at the normal boiling point).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from simwright.errors import ParseError

R_J_MOL_K = 8.314462618
ATM_BAR = 1.01325


@dataclass(frozen=True)
class Liquid:
    """A liquid's range: triple, normal boiling and critical points, ΔH_vap."""

    name: str
    lowest_k: float
    lowest_why: str
    boiling_k: float
    critical_k: float
    dh_vap_j_mol: float
    supercooled_below_k: float | None = None

    def boiling_at(self, pressure_bar: float) -> float:
        """The boiling point at ``pressure_bar`` (Clausius–Clapeyron), at most critical."""
        inv = (
            1.0 / self.boiling_k - R_J_MOL_K * math.log(pressure_bar / ATM_BAR) / self.dh_vap_j_mol
        )
        return self.critical_k if inv <= 0 else min(1.0 / inv, self.critical_k)


LIQUIDS: dict[str, Liquid] = {
    "spce_water": Liquid(
        "water",
        230.0,
        "supercooled water crystallizes below about 230 K",
        373.15,
        647.1,
        40650.0,
        supercooled_below_k=273.15,
    ),
    "lj_argon": Liquid("argon", 83.8, "argon's triple point is 83.8 K", 87.3, 150.7, 6430.0),
}
"""The liquids of the MD protocols, by their ``system`` value."""

LJ_ELEMENTS = frozenset({"Ar"})
"""Elements with documented Lennard-Jones parameters for the lattice_constant protocol."""


def _text(parameters: Mapping[str, Any], name: str) -> str:
    p = parameters.get(name)
    text = getattr(p, "text", None)
    value = getattr(p, "value", None)
    return str(text) if text else f"{value}"


def check(protocol: str, params: BaseModel, parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """Warnings for an unusual but possible state; raises :class:`ParseError` for an
    impossible one. ``params`` are the protocol's validated values, ``parameters`` the
    plan's resolved ones (for the words the request used)."""
    values = params.model_dump()
    if protocol in ("diffusivity", "thermal_conductivity"):
        return _liquid(values, parameters)
    if protocol == "lattice_constant":
        return _lennard_jones(values, parameters)
    structure = getattr(params, "structure", None)
    if protocol.startswith("dft_") and structure is not None:
        return _buildable(structure, parameters)
    return ()


_STRUCTURE_WORDS = ("formula", "structure", "lattice", "facet", "layers", "vacuum_a", "a_a")


def _buildable(structure: Any, parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """A crystal, slab, molecule or layer that cannot be built is refused here, with
    the request's own words (ASE only; files and database ids are left to the run)."""
    # lazy: ASE's builders load only when a DFT structure is checked
    from simwright.dft.structures import build_structure
    from simwright.errors import ValidationError

    if structure.kind in ("file", "materials_project"):
        return ()
    try:
        build_structure(structure)
    except ValidationError as exc:
        words = [
            repr(parameters[n].text)
            for n in _STRUCTURE_WORDS
            if n in parameters and getattr(parameters[n], "text", None)
        ]
        said = ", ".join(dict.fromkeys(words)) or repr(structure.name)
        raise ParseError(f"{said}: {exc}") from exc
    return ()


def _liquid(values: Mapping[str, Any], parameters: Mapping[str, Any]) -> tuple[str, ...]:
    liquid = LIQUIDS.get(str(values.get("system")))
    t = values.get("temperature_k")
    if liquid is None or t is None:
        return ()
    said = _text(parameters, "temperature_k")
    if t < liquid.lowest_k:
        raise ParseError(
            f"{said!r}: {liquid.name} is not a liquid there ({liquid.lowest_why}); "
            f"give a temperature above {liquid.lowest_k:g} K"
        )
    if t > liquid.critical_k:
        raise ParseError(
            f"{said!r} is above {liquid.name}'s critical point ({liquid.critical_k:g} K): "
            f"there is no liquid; give a temperature below {liquid.critical_k:g} K"
        )
    p = values.get("pressure_bar")
    if p is not None and values.get("density_g_cm3") is None:
        boil = liquid.boiling_at(float(p))
        if t > boil:
            raise ParseError(
                f"{said!r} at {p:g} bar: {liquid.name} boils at {boil:.0f} K at that "
                f"pressure, so an NPT run would vaporize; raise the pressure or lower the "
                "temperature"
            )
    if liquid.supercooled_below_k is not None and t < liquid.supercooled_below_k:
        return (f"{said}: {liquid.name} is supercooled below {liquid.supercooled_below_k} K",)
    return ()


def _lennard_jones(values: Mapping[str, Any], parameters: Mapping[str, Any]) -> tuple[str, ...]:
    if values.get("calculator") != "lj" or values.get("calculator_kwargs"):
        return ()
    element = str(values.get("element"))
    if element in LJ_ELEMENTS:
        return ()
    said = _text(parameters, "calculator")
    raise ParseError(
        f"{said!r}: simwright has documented Lennard-Jones parameters only for "
        f"{', '.join(sorted(LJ_ELEMENTS))}, not {element} (ASE's defaults σ = 1 Å, "
        "ε = 1 eV mean nothing physical); use EMT for fcc metals, or a spec file with "
        "calculator_kwargs {sigma, epsilon}"
    )
