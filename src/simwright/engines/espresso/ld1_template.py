"""Inputs of ld1.x, Quantum ESPRESSO's atomic code, written from a typed recipe.

ld1.x generates a pseudopotential from an all-electron calculation of the free atom
(``iswitch=3``) and tests a pseudopotential on other atomic configurations
(``iswitch=2``). A :class:`PseudoRecipe` holds every choice of a generation: the
reference configuration, which states are valence, the cutoff radii and reference
energies of each channel, the local potential, the augmentation functions and the
nonlinear core correction. The functional and the kind (ultrasoft or PAW) are chosen
when the input is rendered, so one recipe serves PBE and LDA alike.

Radii are in bohr and energies in Ry, as ld1.x reads them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from ase.data import atomic_numbers

from simwright.errors import ValidationError

GeneratedKind = Literal["us", "paw"]
"""Kinds this generator writes: ultrasoft (RRKJ, ``rrkjus``) or PAW (``kjpaw``)."""

LD1_FUNCTIONALS: dict[str, tuple[str, str]] = {
    "pbe": ("PBE", "pbe"),
    "lda": ("PZ", "pz"),
}
"""Functional family -> (ld1.x's ``dft`` name, the file-name tag QE files use)."""

KIND_TAGS: dict[str, str] = {"us": "rrkjus", "paw": "kjpaw"}
"""Kind -> the file-name tag of that kind."""

GENERATED_SUFFIX = "_simwright"
"""Every generated file name ends in this before ``.UPF``: it says where it was made."""


@dataclass(frozen=True)
class Channel:
    """One pseudized state of the generation (one line of ld1.x's pseudization cards).

    ``pseudo_n`` is the principal number of the pseudo-wavefunction (1 for the lowest
    state of each ``l``); ``energy_ry`` 0 means: the bound-state eigenvalue, any other
    value a scattering state at that energy. ``rcut_nc_bohr`` is the norm-conserving
    radius, ``rcut_us_bohr`` the ultrasoft (and PAW) one.
    """

    label: str
    pseudo_n: int
    l: int  # noqa: E741  (the angular momentum, as the field is called everywhere)
    occupation: float
    energy_ry: float
    rcut_nc_bohr: float
    rcut_us_bohr: float

    def card(self) -> str:
        """The card line ld1.x reads (label, n, l, occupation, energy, rcut, rcutus, j)."""
        return (
            f"{self.label:<3} {self.pseudo_n:d}  {self.l:d}  {self.occupation:5.2f}  "
            f"{self.energy_ry:5.2f}  {self.rcut_nc_bohr:4.2f}  {self.rcut_us_bohr:4.2f}  0.0"
        )


@dataclass(frozen=True)
class Augmentation:
    """How the augmentation charges are pseudized: ``PSQ`` (polynomials inside
    ``rmatch_bohr``, or, with ``rmatch_bohr`` None, inside each channel's norm-conserving
    radius: ld1.x's ``rmatch_augfun_nc``) or ``BESSEL`` (Bessel functions, PAW only)."""

    method: Literal["PSQ", "BESSEL"]
    rmatch_bohr: float | None = None

    def lines(self) -> list[str]:
        """The ``&inputp`` lines of this choice."""
        match = (
            f"   rmatch_augfun={self.rmatch_bohr:.2f},"
            if self.rmatch_bohr is not None
            else "   rmatch_augfun_nc=.true.,"
        )
        return [f"   which_augfun='{self.method}',", match]


@dataclass(frozen=True)
class PseudoRecipe:
    """Everything a generation needs except the functional and the kind.

    ``configuration`` is the all-electron reference configuration in ld1.x's notation
    (a negative occupation marks an unbound state used only for its channel);
    ``valence_tag`` the file-name tag of the core/valence split (``n``: plain valence,
    with nonlinear core correction; ``dn``: semicore d in valence, with it too);
    ``local_l`` the angular momentum of the local potential, or -1 for a smoothed
    all-electron potential inside ``rcloc_bohr``; ``core_radius_bohr`` where the
    pseudized core charge of the nonlinear core correction starts (None: no
    correction). ``tests`` are valence configurations ld1.x must reproduce
    (transferability); ``source`` cites where the parameter values come from.
    """

    element: str
    configuration: str
    valence_tag: str
    local_l: int
    rcloc_bohr: float | None
    channels: tuple[Channel, ...]
    us_augmentation: Augmentation
    paw_augmentation: Augmentation
    core_radius_bohr: float | None
    tests: tuple[str, ...]
    source: str
    valence_note: str = ""

    def __post_init__(self) -> None:
        if self.element not in atomic_numbers:
            raise ValidationError(f"recipe for unknown element {self.element!r}")
        if self.local_l < 0 and self.rcloc_bohr is None:
            raise ValidationError(f"{self.element}: a smoothed local potential needs rcloc")
        if not self.channels:
            raise ValidationError(f"{self.element}: a recipe needs at least one channel")
        if not self.tests:
            raise ValidationError(f"{self.element}: a recipe needs test configurations")

    @property
    def nlcc(self) -> bool:
        """True when the recipe uses a nonlinear core correction."""
        return self.core_radius_bohr is not None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (for provenance records)."""
        return asdict(self)


def ld1_functional(functional: str) -> tuple[str, str]:
    """(ld1.x ``dft``, file tag) of a functional family; refused by name when unknown."""
    try:
        return LD1_FUNCTIONALS[functional]
    except KeyError:
        known = ", ".join(sorted(LD1_FUNCTIONALS))
        raise ValidationError(
            f"pseudopotential generation supports the functionals {known}, not {functional!r}"
        ) from None


def generated_file_name(recipe: PseudoRecipe, functional: str, kind: GeneratedKind) -> str:
    """``Ga.pbe-dn-rrkjus_simwright.UPF``: QE's naming, marked as generated here."""
    _, tag = ld1_functional(functional)
    return f"{recipe.element}.{tag}-{recipe.valence_tag}-{KIND_TAGS[kind]}{GENERATED_SUFFIX}.UPF"


def _atom_namelist(recipe: PseudoRecipe, functional: str, iswitch: int, config: str) -> str:
    dft, _ = ld1_functional(functional)
    zed = atomic_numbers[recipe.element]
    return (
        " &input\n"
        f"   title='{recipe.element}',\n"
        f"   zed={zed:d}.0,\n"
        "   rel=1,\n"
        f"   config='{config}',\n"
        f"   iswitch={iswitch:d},\n"
        f"   dft='{dft}'\n"
        " /\n"
    )


def render_generation(
    recipe: PseudoRecipe, functional: str, kind: GeneratedKind, file_name: str
) -> str:
    """The ld1.x input that generates ``file_name`` (scalar-relativistic, TM pseudization)."""
    aug = recipe.paw_augmentation if kind == "paw" else recipe.us_augmentation
    lines = [
        " &inputp",
        *(["   lpaw=.true.,"] if kind == "paw" else []),
        "   pseudotype=3,",
        f"   file_pseudopw='{file_name}',",
        "   author='simwright (ld1.x)',",
        f"   lloc={recipe.local_l:d},",
        *([f"   rcloc={recipe.rcloc_bohr:.2f},"] if recipe.rcloc_bohr is not None else []),
        *aug.lines(),
    ]
    if recipe.core_radius_bohr is not None:
        lines += [
            "   nlcc=.true.,",
            "   new_core_ps=.true.,",
            f"   rcore={recipe.core_radius_bohr:.2f},",
        ]
    lines += ["   tm=.true.", " /", str(len(recipe.channels))]
    lines += [c.card() for c in recipe.channels]
    return _atom_namelist(recipe, functional, 3, recipe.configuration) + "\n".join(lines) + "\n"


BESSEL_TEST_CUTOFFS_RY: tuple[float, float, float] = (30.0, 90.0, 30.0)
"""(ecutmin, ecutmax, decut) of ld1.x's test in a basis of spherical Bessel functions,
whose lowest eigenvalue per ``l`` shows a ghost state when there is one."""


def render_test(recipe: PseudoRecipe, functional: str, file_name: str) -> str:
    """The ld1.x input that tests ``file_name`` on the recipe's test configurations."""
    low, high, step = BESSEL_TEST_CUTOFFS_RY
    lines = [
        " &test",
        f"   file_pseudo='{file_name}',",
        f"   nconf={len(recipe.tests):d},",
        f"   ecutmin={low:g}, ecutmax={high:g}, decut={step:g},",
        *(f"   configts({i})='{c}'," for i, c in enumerate(recipe.tests, start=1)),
        " /",
    ]
    return _atom_namelist(recipe, functional, 2, recipe.configuration) + "\n".join(lines) + "\n"
