"""Measured phonon frequencies the ``phonons`` report compares with (THz).

Each entry names the value of the report it matches (``frequency_X_min`` is the
lowest branch at X, the transverse acoustic one of an fcc metal). Values marked
*unverified* are quoted from memory of the cited paper and were not checked
against it while this table was written; they are kept for orientation, with the
mark in the citation so the report shows it.
"""

from __future__ import annotations

from simwright.results import Reference

EXPERIMENT_FREQUENCIES: dict[str, tuple[tuple[str, float, str], ...]] = {
    "Cu": (
        (
            "frequency_X_min",
            5.13,
            "experiment: inelastic neutron scattering, 49 K; E. C. Svensson, B. N. Brockhouse, "
            "J. M. Rowe, Phys. Rev. 155, 619 (1967) (T(X); unverified)",
        ),
        (
            "frequency_X_max",
            7.25,
            "experiment: inelastic neutron scattering, 49 K; E. C. Svensson, B. N. Brockhouse, "
            "J. M. Rowe, Phys. Rev. 155, 619 (1967) (L(X); unverified)",
        ),
    ),
    "Si": (
        (
            "gamma_max",
            15.61,
            "experiment: Raman line 520.7 cm⁻¹ at room temperature; P. A. Temple, C. E. "
            "Hathaway, Phys. Rev. B 7, 3685 (1973)",
        ),
    ),
}
"""Element → (value name, frequency in THz, citation)."""


def experiment_frequencies(element: str) -> tuple[Reference, ...]:
    """The measured frequencies recorded for ``element`` (none: an empty tuple)."""
    return tuple(
        Reference(name, value, "THz", citation)
        for name, value, citation in EXPERIMENT_FREQUENCIES.get(element, ())
    )
