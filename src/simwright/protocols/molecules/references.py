"""Experimental and high-level reference values the molecular reports compare with.

Each entry names its source; a value marked ``unverified`` was quoted from memory of
the literature and not checked against the source while writing (say so in reports).
"""

from __future__ import annotations

from collections.abc import Mapping

from simwright.results import Reference

HOY_BUNKER = "A. R. Hoy, P. R. Bunker, J. Mol. Spectrosc. 74, 1 (1979): equilibrium geometry"
BENEDICT = (
    "W. S. Benedict, N. Gailar, E. K. Plyler, J. Chem. Phys. 24, 1139 (1956): harmonic "
    "wavenumbers of H2O"
)
SHIMANOUCHI = (
    "T. Shimanouchi, Tables of Molecular Vibrational Frequencies, NSRDS-NBS 39 (1972): fundamentals"
)
CODATA_KEY = (
    "J. D. Cox, D. D. Wagman, V. A. Medvedev, CODATA Key Values for Thermodynamics "
    "(Hemisphere, 1989): S°(298.15 K, 1 bar)"
)
HUBER_HERZBERG = (
    "K. P. Huber, G. Herzberg, Constants of Diatomic Molecules (Van Nostrand Reinhold, 1979)"
)

MOLECULE_REFERENCES: Mapping[str, tuple[Reference, ...]] = {
    "water": (
        Reference("r_OH", 0.9572, "Å", HOY_BUNKER),
        Reference("angle_HOH", 104.52, "deg", HOY_BUNKER),
        Reference("harmonic_frequency_1", 1648.5, "cm^-1", BENEDICT + " (unverified)"),
        Reference("harmonic_frequency_2", 3832.2, "cm^-1", BENEDICT + " (unverified)"),
        Reference("harmonic_frequency_3", 3942.5, "cm^-1", BENEDICT + " (unverified)"),
        Reference("fundamental_1", 1595.0, "cm^-1", SHIMANOUCHI),
        Reference("fundamental_2", 3657.0, "cm^-1", SHIMANOUCHI),
        Reference("fundamental_3", 3756.0, "cm^-1", SHIMANOUCHI),
        Reference("entropy", 188.835, "J/(mol K)", CODATA_KEY),
    ),
    "hydrogen": (
        Reference("r_HH", 0.74144, "Å", HUBER_HERZBERG),
        Reference("harmonic_frequency_1", 4401.2, "cm^-1", HUBER_HERZBERG),
        Reference("entropy", 130.680, "J/(mol K)", CODATA_KEY),
    ),
}
"""Per molecule (table name): geometry, wavenumbers and standard entropy."""

WIBERG = (
    "K. B. Wiberg, Angew. Chem. Int. Ed. Engl. 25, 312 (1986): conventional strain "
    "enthalpies from heats of formation"
)
RING_STRAIN_KJ_MOL: Mapping[str, Reference] = {
    "cyclopropane": Reference("strain_energy", 27.5 * 4.184, "kJ/mol", WIBERG),
    "cyclobutane": Reference("strain_energy", 26.5 * 4.184, "kJ/mol", WIBERG),
    "cyclopentane": Reference("strain_energy", 6.2 * 4.184, "kJ/mol", WIBERG + " (unverified)"),
    "cyclohexane": Reference("strain_energy", 0.0, "kJ/mol", WIBERG + " (unverified)"),
}
"""Conventional ring-strain enthalpies (kcal/mol in the source, converted)."""

CRC_PKA = (
    "CRC Handbook of Chemistry and Physics (97th ed., 2016), 'Dissociation constants of "
    "organic acids and bases', 25 °C"
)
PKA: Mapping[str, Reference] = {
    "acetic acid": Reference("pKa", 4.756, "1", CRC_PKA),
    "formic acid": Reference("pKa", 3.75, "1", CRC_PKA),
    "benzoic acid": Reference("pKa", 4.204, "1", CRC_PKA),
    "chloroacetic acid": Reference("pKa", 2.87, "1", CRC_PKA),
    "phenol": Reference("pKa", 9.99, "1", CRC_PKA),
    "4-chlorophenol": Reference("pKa", 9.41, "1", CRC_PKA + " (unverified)"),
    "4-nitrophenol": Reference("pKa", 7.15, "1", CRC_PKA),
    "water": Reference("pKa", 14.0, "1", "pKw = 14.0 at 25 °C (convention: 15.7 with [H2O])"),
}
"""Aqueous pKa at 25 °C."""

THIEL = (
    "M. Schreiber, M. R. Silva-Junior, S. P. A. Sauer, W. Thiel, J. Chem. Phys. 128, "
    "134110 (2008): theoretical best estimate of the vertical excitation"
)
EXCITATIONS_EV: Mapping[str, Reference] = {
    "formaldehyde": Reference("n_pi_star", 3.88, "eV", THIEL),
    "acetone": Reference("n_pi_star", 4.40, "eV", THIEL),
}
"""Vertical n→π* excitation energies (gas phase)."""

HYDRIDE_AFFINITY_KJ_MOL: Mapping[str, Reference] = {
    name: Reference(
        "hydride_affinity",
        kcal * 4.184,
        "kJ/mol",
        "gas-phase hydride ion affinities from heats of formation, as compiled by "
        "D. H. Aue, in Dicoordinated Carbocations (Wiley, 1997) (unverified)",
    )
    for name, kcal in (
        ("methyl cation", 312.0),
        ("ethyl cation", 270.0),
        ("isopropyl cation", 250.0),
        ("tert-butyl cation", 233.0),
    )
}
"""Gas-phase hydride affinities (ΔH of R⁺ + H⁻ → RH, sign reversed); the order
methyl > ethyl > isopropyl > tert-butyl is textbook, the numbers are unverified."""
