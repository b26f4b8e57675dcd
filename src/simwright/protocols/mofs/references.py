"""Published pore figures of three well-known frameworks, for reports and the benchmark.

Every number here is quoted from memory and marked *unverified* in its citation
string until someone checks it against the paper: the benchmark prints the marker
with the row. Zeo++ figures depend on the radii, the probe and the crystal model
(solvent, disorder, linker orientation), so agreement within ~10 % is what to expect.
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.results import Reference


@dataclass(frozen=True)
class KnownFramework:
    """A framework by name, how PORMAKE builds it, and its published figures."""

    name: str
    topology: str
    nodes: tuple[str, ...]
    linker: str | None
    references: tuple[Reference, ...]


_UNVERIFIED = " (unverified: quoted from memory)"
KNOWN: tuple[KnownFramework, ...] = (
    KnownFramework(
        "MOF-5",
        "pcu",
        ("N16",),
        "E14",
        (
            Reference(
                "largest_included_sphere",
                15.1,
                "Å",
                "Zeo++ on the experimental IRMOF-1 structure, CoRE MOF 2019 (Chung et al., "
                "J. Chem. Eng. Data 64, 5985 (2019))" + _UNVERIFIED,
            ),
            Reference(
                "accessible_surface_area",
                3800.0,
                "m^2/g",
                "experiment, N2 BET: Kaye, Dailly, Yaghi, Long, J. Am. Chem. Soc. 129, "
                "14176 (2007)" + _UNVERIFIED,
            ),
        ),
    ),
    KnownFramework(
        "HKUST-1",
        "tbo",
        ("N10", "N409"),
        None,
        (
            Reference(
                "largest_included_sphere",
                13.2,
                "Å",
                "Zeo++ on the experimental structure, CoRE MOF 2019 (Chung et al., "
                "J. Chem. Eng. Data 64, 5985 (2019))" + _UNVERIFIED,
            ),
            Reference(
                "accessible_surface_area",
                1800.0,
                "m^2/g",
                "experiment, N2 BET of activated samples, typical of reports since Chui et "
                "al., Science 283, 1148 (1999)" + _UNVERIFIED,
            ),
        ),
    ),
    KnownFramework(
        "UiO-66",
        "fcu",
        ("N419",),
        "E14",
        (
            Reference(
                "largest_included_sphere",
                8.5,
                "Å",
                "Zeo++ on the experimental structure, CoRE MOF 2019 (Chung et al., "
                "J. Chem. Eng. Data 64, 5985 (2019))" + _UNVERIFIED,
            ),
            Reference(
                "accessible_surface_area",
                1187.0,
                "m^2/g",
                "experiment, Langmuir area: Cavka et al., J. Am. Chem. Soc. 130, 13850 "
                "(2008)" + _UNVERIFIED,
            ),
        ),
    ),
)


def known_framework(
    name: str, topology: str | None, nodes: tuple[str, ...], linker: str | None
) -> KnownFramework | None:
    """The known framework with this name, or built from these blocks (ids resolved)."""
    for known in KNOWN:
        if name and name.lower().replace("-", "") == known.name.lower().replace("-", ""):
            return known
        if (topology, nodes, linker) == (known.topology, known.nodes, known.linker):
            return known
    return None
