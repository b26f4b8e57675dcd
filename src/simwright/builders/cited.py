"""Crystal structures from published lattice parameters and Wyckoff positions, cited.

Only fully ordered structures whose positions could be checked are held here:

- ``Li3N``: α-Li₃N, P6/mmm (No. 191), a = 3.648 Å, c = 3.875 Å; N at 1a (0, 0, 0),
  Li(1) at 1b (0, 0, ½) between the Li₂N layers, Li(2) at 2c (⅓, ⅔, 0) in them
  (H. Schulz and K. H. Thiemann, Acta Cryst. A 35, 309 (1979); A. Rabenau and
  H. Schulz, J. Less-Common Met. 50, 155 (1976)). The N–Li distances it gives,
  1.94 Å (= c/2) and 2.11 Å (= a/√3), are the published ones.

β-Li₃PS₄ (Pnma; Homma et al., Solid State Ionics 182, 53 (2011)) and cubic
Li₇La₃Zr₂O₁₂ (Ia-3d; Awaka et al., Chem. Lett. 40, 60 (2011)) are *not* held: both
have partially occupied Li sites (an ordered model has to be chosen and justified),
and their refined positions could not be checked against the papers when this was
written. Read them from a CIF file of an ordered model (:mod:`.cif`).
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.errors import ValidationError
from simwright.structure import Structure


@dataclass(frozen=True)
class CitedCrystal:
    """A crystal by space group, cell parameters (Å, degrees) and Wyckoff sites."""

    name: str
    spacegroup: int
    cellpar: tuple[float, float, float, float, float, float]
    sites: tuple[tuple[str, tuple[float, float, float]], ...]
    citation: str
    note: str = ""

    def build(self) -> Structure:
        """The conventional cell, every site expanded by the space group."""
        # lazy: ase.spacegroup takes ~0.5 s to import
        from ase.spacegroup import crystal

        atoms = crystal(
            [s for s, _ in self.sites],
            basis=[p for _, p in self.sites],
            spacegroup=self.spacegroup,
            cellpar=list(self.cellpar),
        )
        return Structure.from_ase(atoms)


CITED: dict[str, CitedCrystal] = {
    "Li3N": CitedCrystal(
        name="Li3N",
        spacegroup=191,
        cellpar=(3.648, 3.648, 3.875, 90.0, 90.0, 120.0),
        sites=(("N", (0.0, 0.0, 0.0)), ("Li", (0.0, 0.0, 0.5)), ("Li", (1 / 3, 2 / 3, 0.0))),
        citation="H. Schulz, K. H. Thiemann, Acta Cryst. A 35, 309 (1979); "
        "A. Rabenau, H. Schulz, J. Less-Common Met. 50, 155 (1976)",
        note="α-Li3N at room temperature; a fast Li-ion conductor in the Li2N plane",
    ),
}
"""The cited crystals by name."""


@dataclass(frozen=True)
class CitedSpec:
    """The cited crystal ``name`` (a key of :data:`CITED`) repeated ``repeat`` times."""

    name: str
    repeat: tuple[int, int, int] = (1, 1, 1)


def cited_crystal(name: str) -> CitedCrystal:
    """The entry ``name``; an unknown name is refused listing those held."""
    if name not in CITED:
        raise ValidationError(
            f"no cited crystal {name!r}; simwright holds {', '.join(sorted(CITED))} "
            "(read others from a CIF file)"
        )
    return CITED[name]


def build_cited(spec: CitedSpec) -> Structure:
    """The cited crystal of ``spec``, repeated."""
    # lazy: crystals imports ase.build only when it repeats
    from simwright.builders.crystals import supercell

    return supercell(cited_crystal(spec.name).build(), spec.repeat)
