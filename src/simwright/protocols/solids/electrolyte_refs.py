"""Published values the ``solid_electrolyte_diffusivity`` report compares with.

Only what could be stated with its source is recorded; values quoted from memory
of the paper and not checked against it while this was written say *unverified* in
their citation. No published MLIP or AIMD diffusivity of Li₃N was verified for this
table, so none is recorded (the report says so).
"""

from __future__ import annotations

from simwright.results import Reference

REFERENCES: dict[str, tuple[Reference, ...]] = {
    "Li3N": (
        Reference(
            "activation_energy",
            0.29,
            "eV",
            "experiment: ionic conductivity perpendicular to c (in the Li2N plane), single "
            "crystal; U. v. Alpen, A. Rabenau, G. H. Talat, Appl. Phys. Lett. 30, 621 (1977) "
            "(unverified)",
        ),
    ),
    # Li6PS5Cl: the article the knowledge module li_diffusion_argyrodite is derived from
    # (Deiseroth et al. 2008) and a later one (Kraft et al. 2017) report room-temperature
    # conductivities of order 1 mS/cm and activation energies of about 0.2-0.4 eV,
    # depending on the synthesis and the Cl/S site exchange; the single numbers below
    # are quoted from memory and could not be checked against the papers: unverified.
    "Li6PS5Cl": (
        Reference(
            "activation_energy",
            0.3,
            "eV",
            "experiment: impedance of Li6PS5Cl, E_a about 0.2-0.4 eV across reports; "
            "H.-J. Deiseroth et al., Angew. Chem. Int. Ed. 47, 755 (2008); M. A. Kraft et al., "
            "J. Am. Chem. Soc. 139, 10909 (2017) (unverified)",
        ),
        Reference(
            "d_li_300K_extrapolated",
            6.4e-4,
            "1e-5 cm^2/s",
            "Nernst-Einstein from sigma(300 K) = 1 mS/cm (order of magnitude of the reports "
            "above, unverified) with 24 Li per (9.85 Å)^3 and a Haven ratio of 1 (assumed)",
        ),
    ),
}
"""Material → references (experiment first)."""

NO_MLIP_NOTE = (
    "No published MLIP or AIMD value for Li diffusion in Li3N was verified for simwright's "
    "table; compare with the literature before relying on these numbers."
)


NO_ARGYRODITE_MLIP_NOTE = (
    "No published MLIP value for Li diffusion in Li6PS5Cl was verified for simwright's "
    "table; the experimental values compared with are quoted unverified."
)


def references_for(material: str, calculator: str) -> tuple[Reference, ...]:
    """The recorded references of ``material`` (the calculator has no own values yet)."""
    return REFERENCES.get(material, ())
