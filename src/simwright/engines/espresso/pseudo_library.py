"""A library of pseudopotentials searched in an ordered list of directories.

Files are recognised by their UPF header (see :mod:`~simwright.engines.espresso.pseudo`).
For a set of
elements and a functional the library chooses one file per element, all with the
same functional (mixing functionals is refused), preferring scalar-relativistic
files (fully relativistic ones need spin-orbit, about twice the cost) and, among
equals, the cheapest: the lowest plane-wave cutoff it needs. Core-hole and bare
Coulomb potentials are never chosen automatically.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from simwright.engines.espresso.ld1_template import LD1_FUNCTIONALS
from simwright.engines.espresso.pseudo import PseudoInfo, canonical_functional, read_upf_header
from simwright.engines.espresso.pseudo_families import describe, family_filter
from simwright.engines.espresso.pseudo_generated import provenance_of, run_folder
from simwright.engines.espresso.pseudo_recipes import RECIPES
from simwright.errors import ParseError, ValidationError

SYSTEM_PSEUDO_DIR = Path("/usr/share/espresso/pseudo")
"""Where Debian's ``quantum-espresso-data`` installs its pseudopotentials."""

PREFERRED_FUNCTIONALS: tuple[str, ...] = ("pbe", "pbesol", "lda")
"""The functional used when the request names none, then the fall-backs in order."""

MIN_WFC_CUTOFF_RY = 30.0
"""Lowest wave-function cutoff recommended, whatever a file suggests (Ry)."""

DUAL_SOFT = 8.0
"""ecutrho/ecutwfc for ultrasoft and PAW files that suggest no density cutoff."""

DUAL_NC = 4.0
"""ecutrho/ecutwfc for norm-conserving files."""


def default_pseudo_dirs(home: Path) -> tuple[Path, ...]:
    """The system directory, then the user's library ``<home>/pseudo``."""
    return (SYSTEM_PSEUDO_DIR, home / "pseudo")


class MissingPseudopotentialError(ValidationError):
    """No usable pseudopotential for an element (with the requested functional)."""

    def __init__(
        self, element: str, functional: str | None, dirs: Sequence[Path], available: Sequence[str]
    ) -> None:
        wanted = f"{functional.upper()} pseudopotential" if functional else "pseudopotential"
        where = ", ".join(str(d) for d in dirs) or "(no directory configured)"
        have = (
            f"; {element} is available with: {', '.join(sorted(available))}"
            if available
            else f"; there is no usable {element} file at all"
        )
        hint = _generate_hint(element, functional)
        super().__init__(f"no {wanted} for {element}: looked in {where}{have}{hint}")
        self.element = element
        self.functional = functional
        self.dirs = tuple(dirs)
        self.available = tuple(available)


def _generate_hint(element: str, functional: str | None) -> str:
    """How to make the missing file, when simwright has a recipe for the element."""
    if element not in RECIPES or functional not in (None, *LD1_FUNCTIONALS):
        return ""
    fn = functional or "pbe"
    return (
        f"; generate one with `simwright dft pseudo generate {element} --functional {fn}` "
        "(ld1.x, recorded as generated here)"
    )


def wfc_cutoff_needed(info: PseudoInfo) -> float:
    """The wave-function cutoff a file needs (Ry): its suggestion, at least the floor."""
    return max(info.wfc_cutoff_ry or 0.0, MIN_WFC_CUTOFF_RY)


def rho_cutoff_needed(info: PseudoInfo, ecutwfc_ry: float) -> float:
    """The density cutoff for a file at ``ecutwfc_ry`` (Ry)."""
    dual = DUAL_NC if info.kind == "NC" else DUAL_SOFT
    if info.rho_cutoff_ry:
        return max(info.rho_cutoff_ry, DUAL_NC * ecutwfc_ry)
    return dual * ecutwfc_ry


@dataclass(frozen=True)
class PseudoSelection:
    """One pseudopotential per element, all with one functional."""

    functional: str
    pseudos: tuple[PseudoInfo, ...]
    spin_orbit: bool
    assumed: tuple[str, ...] = ()

    def for_element(self, element: str) -> PseudoInfo:
        """The file chosen for ``element``."""
        for info in self.pseudos:
            if info.element == element:
                return info
        raise ValidationError(f"no pseudopotential selected for {element}")

    def cutoffs_ry(self) -> tuple[float, float]:
        """(ecutwfc, ecutrho) in Ry: the most demanding file decides."""
        wfc = math.ceil(max(wfc_cutoff_needed(p) for p in self.pseudos))
        rho = math.ceil(max(rho_cutoff_needed(p, wfc) for p in self.pseudos))
        return float(wfc), float(rho)

    def valence_electrons(self, symbols: Iterable[str]) -> float:
        """Number of valence electrons of a structure with these symbols."""
        return sum(self.for_element(s).z_valence for s in symbols)


@dataclass
class PseudoLibrary:
    """The pseudopotentials found in ``dirs`` (earlier directories win on equal files)."""

    dirs: tuple[Path, ...]
    entries: tuple[PseudoInfo, ...] = field(init=False)
    skipped: tuple[tuple[Path, str], ...] = field(init=False)

    def __post_init__(self) -> None:
        self.dirs = tuple(Path(d) for d in self.dirs)
        found: list[PseudoInfo] = []
        skipped: list[tuple[Path, str]] = []
        for directory in self.dirs:
            if not directory.is_dir():
                continue
            for path in sorted(directory.iterdir()):
                if not path.is_file():
                    continue
                try:
                    info = read_upf_header(path)
                except ParseError as exc:
                    skipped.append((path, str(exc)))
                    continue
                if provenance_of(path) is not None:
                    info = replace(info, generated_here=True)
                found.append(info)
        self.entries = tuple(found)
        self.skipped = tuple(skipped)

    def usable(self, element: str, families: tuple[str, ...] = ()) -> list[PseudoInfo]:
        """Files for ``element`` that may be chosen automatically (of ``families`` when
        named: see :mod:`~simwright.engines.espresso.pseudo_families`)."""
        keep = family_filter(families)
        return [
            p
            for p in self.entries
            if p.element == element and not p.excited_core and p.kind != "coulomb" and keep(p)
        ]

    def functionals_for(self, element: str) -> list[str]:
        """The functionals ``element`` is available with."""
        return sorted({p.functional for p in self.usable(element)})

    def by_name(self, name: str) -> PseudoInfo:
        """The file called ``name`` (first directory that has it)."""
        for p in self.entries:
            if p.name == name:
                return p
        raise MissingPseudopotentialError(name, None, self.dirs, [])

    def select(
        self,
        elements: Sequence[str],
        functional: str | None = None,
        *,
        spin_orbit: bool | None = None,
        families: tuple[str, ...] = (),
    ) -> PseudoSelection:
        """Choose one file per element.

        ``functional`` given: every element must have it (else
        :class:`MissingPseudopotentialError` naming the element, the directories and
        what is available). ``None``: the first of :data:`PREFERRED_FUNCTIONALS`
        available for all elements, the substitution reported in ``assumed``.
        ``spin_orbit`` None means: only when some element has nothing else; True needs a
        fully relativistic file for every element (refused by name otherwise).
        ``families`` (e.g. ``("pslibrary",)``, ``("paw",)``) restricts the choice to
        those files; an element without one is refused naming the family.
        """
        elements = list(dict.fromkeys(elements))
        self._require_families(elements, families)
        if functional is not None:
            family = canonical_functional(functional)
            return self._select_with(elements, family, spin_orbit, (), families)
        for family in self._preferred_family(elements, spin_orbit, families):
            notes: tuple[str, ...] = ()
            if family != PREFERRED_FUNCTIONALS[0]:
                notes = (
                    f"functional: {PREFERRED_FUNCTIONALS[0].upper()} pseudopotentials usable "
                    f"without spin-orbit are not available for all of {', '.join(elements)}; "
                    f"using {family.upper()} instead",
                )
            return self._select_with(elements, family, spin_orbit, notes, families)
        if spin_orbit:
            self._require_relativistic(elements, None, families)
        missing = next(e for e in elements if not self.usable(e)) if elements else ""
        if missing:
            raise MissingPseudopotentialError(missing, None, self.dirs, [])
        raise ValidationError(
            "no single functional has pseudopotentials for all of "
            + ", ".join(f"{e} ({'/'.join(self.functionals_for(e))})" for e in elements)
        )

    def _require_families(self, elements: list[str], families: tuple[str, ...]) -> None:
        """Refuse, naming it, a family with no file for some element."""
        if not families:
            return
        for e in elements:
            if not self.usable(e, families):
                where = ", ".join(str(d) for d in self.dirs)
                raise ValidationError(
                    f"no {describe(families)} pseudopotential for {e} is installed (looked in "
                    f"{where}); put the family's files in a folder named after it (e.g. "
                    "SSSP_1.3_PBE_efficiency) and add it to pseudo_dirs, or leave it unnamed"
                )

    def _require_relativistic(
        self, elements: list[str], family: str | None, families: tuple[str, ...]
    ) -> None:
        """Spin-orbit coupling needs a fully relativistic file for every element."""
        for e in elements:
            files = [
                p
                for p in self.usable(e, families)
                if p.fully_relativistic and family in (None, p.functional)
            ]
            if not files:
                what = f"{family.upper()} " if family else ""
                where = ", ".join(str(d) for d in self.dirs)
                raise ValidationError(
                    f"spin-orbit coupling needs a fully relativistic {what}pseudopotential "
                    f"for {e}, and none is installed (looked in {where})"
                )

    def _preferred_family(
        self, elements: list[str], spin_orbit: bool | None, families: tuple[str, ...] = ()
    ) -> list[str]:
        """Families available for all elements: scalar-relativistic ones first (with
        ``spin_orbit``, fully relativistic ones only)."""

        def has(e: str, family: str, scalar_only: bool) -> bool:
            return any(
                p.functional == family
                and not (scalar_only and p.fully_relativistic)
                and (p.fully_relativistic or not spin_orbit)
                for p in self.usable(e, families)
            )

        passes = (True, False) if not spin_orbit else (False,)
        return [
            family
            for scalar_only in passes
            for family in PREFERRED_FUNCTIONALS
            if all(has(e, family, scalar_only) for e in elements)
        ][:1]

    def _select_with(
        self,
        elements: list[str],
        family: str,
        spin_orbit: bool | None,
        notes: tuple[str, ...],
        families: tuple[str, ...] = (),
    ) -> PseudoSelection:
        per: dict[str, list[PseudoInfo]] = {}
        for e in elements:
            cands = [p for p in self.usable(e, families) if p.functional == family]
            if not cands:
                raise MissingPseudopotentialError(e, family, self.dirs, self.functionals_for(e))
            per[e] = cands
        if spin_orbit:
            self._require_relativistic(elements, family, families)
        forced = [e for e, c in per.items() if all(p.fully_relativistic for p in c)]
        use_so = bool(forced) if spin_orbit is None else spin_orbit
        if forced and spin_orbit is False:
            raise ValidationError(
                f"only fully relativistic {family.upper()} files exist for "
                f"{', '.join(forced)}; they need spin-orbit (noncolin, lspinorb)"
            )
        chosen = tuple(min(per[e], key=lambda p: _rank(p, use_so)) for e in elements)
        extra = list(notes)
        extra += [
            f"pseudopotential: {p.name} for {p.element} was generated here with ld1.x "
            f"(provenance in {run_folder(p.path.parent, p.name)})"
            for p in chosen
            if p.generated_here
        ]
        if forced and spin_orbit is None:
            extra.append(
                f"spin-orbit: only fully relativistic {family.upper()} pseudopotentials exist "
                f"for {', '.join(forced)}; noncolin and lspinorb are switched on"
            )
        return PseudoSelection(family, chosen, use_so, tuple(extra))


def _rank(info: PseudoInfo, spin_orbit: bool) -> tuple[bool, bool, float, bool, str]:
    return (
        info.fully_relativistic != spin_orbit,
        info.kind == "NC",
        wfc_cutoff_needed(info),
        info.wfc_cutoff_ry is None,
        info.name,
    )


def check_same_functional(pseudos: Sequence[PseudoInfo]) -> str:
    """The common functional of ``pseudos``; mixing functionals is refused."""
    families = {p.functional for p in pseudos}
    if len(families) > 1:
        detail = ", ".join(f"{p.name} is {p.functional.upper()}" for p in pseudos)
        raise ValidationError(
            f"pseudopotentials of different functionals cannot be mixed: {detail}"
        )
    return families.pop() if families else ""
