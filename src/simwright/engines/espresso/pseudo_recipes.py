"""Generation recipes for the elements the shipped pseudopotential set lacks.

Debian's ``quantum-espresso-data`` has no Ga file at all, As only as an LDA
norm-conserving file and Mg only as an LDA one, so "band gap of GaAs with PBE" and
"formation energy of MgO with PBE" are refused. These recipes let
``simwright dft pseudo generate`` make the missing files with ld1.x.

The parameter values (reference configurations, core/valence split, radii, reference
energies, local channel, augmentation and core-correction radii) follow the choices of
pslibrary (A. Dal Corso, "Pseudopotentials periodic table: From H to Pu", Comput.
Mater. Sci. 95, 337 (2014); github.com/dalcorso/pslibrary, version 1.0.0): Ga as in its
``Ga.*-dnl-*_psl.1.0.0`` inputs, As as in ``As.*-n-*_psl.1.0.0``, Mg as in
``Mg.*-spnl-*_psl.1.0.0``.
Parameters are facts; the recipes themselves, the test configurations and the checks
are simwright's. The generated files are **not** pslibrary files and are never named
as such: they end in ``_simwright.UPF``.
"""

from __future__ import annotations

from simwright.engines.espresso.ld1_template import Augmentation, Channel, PseudoRecipe
from simwright.errors import ValidationError

PSLIBRARY = (
    "parameters after pslibrary 1.0.0 (A. Dal Corso, Comput. Mater. Sci. 95, 337 (2014); "
    "github.com/dalcorso/pslibrary, {inputs})"
)

GALLIUM = PseudoRecipe(
    element="Ga",
    configuration="[Ar] 3d10 4s2 4p1",
    valence_tag="dn",
    valence_note="3d10 4s2 4p1 in valence (13 electrons), nonlinear core correction",
    local_l=-1,
    rcloc_bohr=1.9,
    channels=(
        Channel("4S", 1, 0, 2.00, 0.00, 1.30, 2.20),
        Channel("4S", 1, 0, 0.00, 6.10, 1.30, 2.20),
        Channel("4P", 2, 1, 1.00, 0.00, 1.30, 2.20),
        Channel("4P", 2, 1, 0.00, 6.30, 1.30, 2.20),
        Channel("3D", 3, 2, 10.00, 0.00, 1.30, 1.70),
        Channel("3D", 3, 2, 0.00, -1.30, 1.30, 1.70),
    ),
    us_augmentation=Augmentation("PSQ"),
    paw_augmentation=Augmentation("PSQ"),
    core_radius_bohr=1.1,
    tests=("3d10 4s2 4p1", "3d10 4s2 4p0", "3d10 4s1 4p2", "3d10 4s1 4p1", "3d10 4s1.5 4p0.5"),
    source=PSLIBRARY.format(inputs="Ga.$fct-dnl-rrkjus_psl.1.0.0 / -kjpaw_psl.1.0.0"),
)
"""Ga with the 3d shell in valence: pslibrary's choice, needed for GaAs."""

ARSENIC = PseudoRecipe(
    element="As",
    configuration="[Ar] 3d10 4s2 4p3 4d-1",
    valence_tag="n",
    valence_note="4s2 4p3 in valence (5 electrons), 3d in the core with core correction",
    local_l=2,
    rcloc_bohr=None,
    channels=(
        Channel("4S", 1, 0, 2.00, 0.00, 1.60, 1.80),
        Channel("4S", 1, 0, 0.00, 0.40, 1.60, 1.80),
        Channel("4P", 2, 1, 3.00, 0.00, 1.60, 2.00),
        Channel("4P", 2, 1, 0.00, 0.40, 1.60, 2.00),
        Channel("4D", 3, 2, -2.00, 0.50, 2.00, 2.00),
    ),
    us_augmentation=Augmentation("PSQ"),
    paw_augmentation=Augmentation("PSQ"),
    core_radius_bohr=1.5,
    tests=("4s2 4p3", "4s2 4p2", "4s1 4p4", "4s1 4p3", "4s2 4p3.5"),
    source=PSLIBRARY.format(inputs="As.$fct-n-rrkjus_psl.1.0.0 / -kjpaw_psl.1.0.0"),
)
"""As with 4s4p valence and the d channel local: pslibrary's choice."""

MAGNESIUM = PseudoRecipe(
    element="Mg",
    configuration="[Ne] 3s2.0 3p0 3d-1",
    valence_tag="spn",
    valence_note="2s2 2p6 3s2 in valence (10 electrons), nonlinear core correction",
    local_l=2,
    rcloc_bohr=None,
    channels=(
        Channel("2S", 1, 0, 2.00, 0.00, 0.70, 1.40),
        Channel("3S", 2, 0, 2.00, 0.00, 0.70, 1.40),
        Channel("2P", 2, 1, 6.00, 0.00, 0.90, 1.30),
        Channel("2P", 2, 1, 0.00, -3.05, 0.90, 1.30),
        Channel("3D", 3, 2, 0.00, 1.00, 1.20, 1.20),
    ),
    us_augmentation=Augmentation("PSQ"),
    paw_augmentation=Augmentation("PSQ"),
    core_radius_bohr=0.5,
    tests=(
        "2s2 2p6 3s2 3p0",
        "2s2 2p6 3s1 3p1",
        "2s2 2p6 3s1 3p0",
        "2s2 2p6 3s1.5 3p0.5",
        "2s2 2p6 3s0.5 3p0",
    ),
    source=PSLIBRARY.format(inputs="Mg.$fct-spnl-rrkjus_psl.1.0.0 / -kjpaw_psl.1.0.0"),
)
"""Mg with the 2s2p semicore shell in valence: pslibrary 1.0.0's choice (a 3s-only file
with its large radii failed the ionised test configurations here, by 8 mRy)."""

RECIPES: dict[str, PseudoRecipe] = {r.element: r for r in (GALLIUM, ARSENIC, MAGNESIUM)}
"""The elements simwright can generate a pseudopotential for."""


def recipe_for(element: str) -> PseudoRecipe:
    """The recipe of ``element``; refused by name when there is none."""
    try:
        return RECIPES[element]
    except KeyError:
        raise ValidationError(
            f"no pseudopotential generation recipe for {element}; recipes exist for "
            f"{', '.join(sorted(RECIPES))}"
        ) from None
