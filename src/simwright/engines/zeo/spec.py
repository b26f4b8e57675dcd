"""What a Zeo++ analysis takes and gives (the worker's JSON contract) and the parser of
Zeo++'s result lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

INPUT_NAME = "zeo.json"
OUTPUT_NAME = "zeo_out.json"
N2_PROBE_RADIUS_A = 1.86
"""Radius of the N2 probe (Å): half of 3.72 Å, the N2 diameter common in MOF
screening with Zeo++ (Willems et al. 2012 use 1.86 Å for N2-accessible areas;
unverified: quoted from memory, not checked against the paper)."""


@dataclass(frozen=True)
class ZeoSpec:
    """A CIF file (in the worker's folder), the probe radius (Å) for accessibility and
    sampling, and Monte Carlo samples per atom for areas and volumes."""

    cif: str
    probe_radius_a: float = N2_PROBE_RADIUS_A
    samples_per_atom: int = 2000

    def as_json(self) -> dict[str, object]:
        """The worker's input."""
        return {
            "cif": self.cif,
            "probe_radius": self.probe_radius_a,
            "samples": self.samples_per_atom,
        }


@dataclass(frozen=True)
class PoreGeometry:
    """Zeo++'s figures for one framework at one probe radius.

    Diameters in Å; ``di`` largest included sphere, ``df`` largest free sphere,
    ``dif`` largest included sphere along the free-sphere path. Accessible (``asa``,
    ``av``) and non-accessible (``nasa``, ``nav``) surface area and volume; the
    geometric void fraction ``void_fraction`` is the volume a zero-radius probe reaches.
    """

    di_a: float
    df_a: float
    dif_a: float
    density_g_cm3: float
    cell_volume_a3: float
    asa_m2_g: float
    asa_m2_cm3: float
    nasa_m2_g: float
    av_fraction: float
    av_cm3_g: float
    nav_fraction: float
    void_fraction: float
    channels: int
    pockets: int


_NUMBER = r"([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"


def field(text: str, name: str) -> float:
    """The number after ``name:`` in a Zeo++ result line (``ASA_m^2/g: 3831.6``)."""
    match = re.search(rf"(?<![\w^/]){re.escape(name)}:\s*{_NUMBER}", text)
    if match is None:
        raise ValueError(f"Zeo++ output has no {name!r}: {text[:200]!r}")
    return float(match.group(1))


def parse_geometry(free_sphere: str, area: str, volume: str, void: str) -> PoreGeometry:
    """The :class:`PoreGeometry` from Zeo++'s ``.res`` line and the area and volume
    result texts (``void`` the volume text of a zero-radius probe)."""
    words = free_sphere.split()
    di, df, dif = (float(w) for w in words[1:4])
    return PoreGeometry(
        di_a=di,
        df_a=df,
        dif_a=dif,
        density_g_cm3=field(area, "Density"),
        cell_volume_a3=field(area, "Unitcell_volume"),
        asa_m2_g=field(area, "ASA_m^2/g"),
        asa_m2_cm3=field(area, "ASA_m^2/cm^3"),
        nasa_m2_g=field(area, "NASA_m^2/g"),
        av_fraction=field(volume, "AV_Volume_fraction"),
        av_cm3_g=field(volume, "AV_cm^3/g"),
        nav_fraction=field(volume, "NAV_Volume_fraction"),
        void_fraction=field(void, "AV_Volume_fraction") + field(void, "NAV_Volume_fraction"),
        channels=int(field(area, "Number_of_channels")),
        pockets=int(field(area, "Number_of_pockets")),
    )
