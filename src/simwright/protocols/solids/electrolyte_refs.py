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
}
"""Material → references (experiment first)."""

NO_MLIP_NOTE = (
    "No published MLIP or AIMD value for Li diffusion in Li3N was verified for simwright's "
    "table; compare with the literature before relying on these numbers."
)


def references_for(material: str, calculator: str) -> tuple[Reference, ...]:
    """The recorded references of ``material`` (the calculator has no own values yet)."""
    return REFERENCES.get(material, ())
