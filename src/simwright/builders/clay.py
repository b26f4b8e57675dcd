"""Two montmorillonite sheets with one interlayer, exchangeable cations and vacuum.

The layer is the idealized 2:1 cell of :mod:`simwright.builders.clay_cell`,
replicated ``cells`` times in-plane (the paper's 5 × 4). Layer charge comes from
octahedral Mg-for-Al substitution, with this **pattern**: in each sheet,
``layer_charge × cells`` Al sites are chosen in the order of a random permutation
(numpy ``default_rng(seed + sheet)``), each accepted only if it is at least
``min_substitution_separation_a`` (default 5.0 Å, periodic) from every Mg already
chosen in that sheet — so no two Mg share an oxygen (Al–Al neighbours are 3.05 Å
apart, second neighbours 5.28 Å). The oxygens bonded to a Mg become ``obos``
(apical) and ``ohs`` (hydroxyl), as ClayFF prescribes. Optionally
``tetrahedral_charge`` of the layer charge comes from Al-for-Si substitution,
chosen the same way (same RNG, after the Mg) among tetrahedra none of whose oxygens
already neighbours a Mg (so no ``obss`` doubly substituted oxygen arises), the 4
oxygens of each tetrahedral Al becoming ``obts``.

Sheet 1 lies below sheet 2, their mid-planes ``basal_spacing_a`` apart, with
``vacuum_a`` of empty space beyond each external surface (periodic in z, so the
two external surfaces face each other across 2 × ``vacuum_a``). Cations are
placed over tetrahedral-ring centres: half of them in the interlayer mid-plane,
a quarter ``cation_height_a`` outside each external surface (each sheet's charge
is balanced half on each of its faces). ``interlayer_waters`` SPC/E molecules
may be placed in the interlayer as a starting load, on shuffled (seeded) sites of a
2.9 Å grid in layers 2.8 Å apart, randomly oriented, clear of every other atom.

Molecule ids: sheet 1 → 1, sheet 2 → 2, each cation its own id, then each water.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from simwright.builders.clay_cell import LayerCell, dioctahedral_cell
from simwright.errors import ValidationError
from simwright.forcefields.clayff import ALL_TYPES, IONS, WATER_GEOMETRY

Cation = Literal["Na", "K", "Ca"]

MIN_WATER_CLEARANCE_A: Final = 2.6
"""A starting water's oxygen keeps at least this distance (Å) from every other non-H atom
(and every atom of it at least 1.6 Å from every other atom)."""


class ClayParameters(BaseModel):
    """What the builder needs; the campaign's ``systems[].parameters`` of a clay system."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cation: Cation
    layer_charge: float = Field(gt=0, le=1.0)
    """Negative charge per unit cell O20(OH)4 (e), balanced by the cations."""
    cells: tuple[int, int] = (5, 4)
    basal_spacing_a: float = Field(default=12.5, ge=9.0, le=30.0)
    """Starting distance between the two sheets' mid-planes (Å)."""
    vacuum_a: float = Field(default=20.0, ge=5.0)
    interlayer_waters: int = Field(default=0, ge=0)
    cation_height_a: float = Field(default=2.5, gt=0)
    tetrahedral_charge: float = Field(default=0.0, ge=0, le=1.0)
    """The part of ``layer_charge`` from Al-for-Si substitution (the rest is Mg-for-Al)."""
    min_substitution_separation_a: float = Field(default=5.0, gt=3.2)
    seed: int = Field(default=1, ge=0)

    def substitutions_per_sheet(self) -> tuple[int, int]:
        """(octahedral Mg, tetrahedral Al) substitutions per sheet; refused unless integers."""
        cells = self.cells[0] * self.cells[1]
        if self.tetrahedral_charge > self.layer_charge + 1e-12:
            raise ValidationError(
                f"tetrahedral_charge {self.tetrahedral_charge} exceeds layer_charge "
                f"{self.layer_charge}"
            )
        out = []
        for name, charge in (
            ("octahedral", self.layer_charge - self.tetrahedral_charge),
            ("tetrahedral", self.tetrahedral_charge),
        ):
            n = charge * cells
            if abs(n - round(n)) > 1e-6:
                raise ValidationError(
                    f"{name} charge {charge:g} × {cells} cells per sheet = {n:g} "
                    "substitutions per sheet: must be an integer"
                )
            out.append(round(n))
        return out[0], out[1]

    def cation_count(self) -> int:
        """Number of exchangeable cations; refused unless an integer divisible by 4."""
        n_cells = 2 * self.cells[0] * self.cells[1]
        charge = self.layer_charge * n_cells
        per_sheet = charge / 2
        valence = IONS[self.cation].charge_e
        count = charge / valence
        if abs(per_sheet - round(per_sheet)) > 1e-6:
            raise ValidationError(
                f"layer_charge {self.layer_charge} × {n_cells // 2} cells per sheet = "
                f"{per_sheet:g} substitutions per sheet: must be an integer"
            )
        self.substitutions_per_sheet()
        if abs(count - round(count)) > 1e-6 or round(count) % 4:
            raise ValidationError(
                f"{charge:g} e of layer charge needs {count:g} {self.cation} ions: must be an "
                "integer divisible by 4 (half in the interlayer, a quarter on each outer face)"
            )
        return round(count)


@dataclass(frozen=True)
class ClaySystem:
    """Atoms of a built clay system (orthogonal box from 0 to ``box_a``).

    ``kinds``: ``clay``, ``cation`` or ``water``; ``sheet``: 1, 2 or 0 (not clay);
    ``cation_sites``: ``interlayer``, ``below`` or ``above`` per cation, in order.
    """

    parameters: ClayParameters
    box_a: tuple[float, float, float]
    positions: np.ndarray
    types: tuple[str, ...]
    charges: np.ndarray
    mol_ids: np.ndarray
    kinds: tuple[str, ...]
    sheet: np.ndarray
    sheet_mid_z: tuple[float, float]
    thickness_a: float
    substitutions: tuple[int, int]
    cation_sites: tuple[str, ...]

    @property
    def n_atoms(self) -> int:
        """Number of atoms."""
        return len(self.types)

    def water_count(self) -> int:
        """Water molecules."""
        return self.kinds.count("water") // 3


def _minimum_image(d: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    return d - np.round(d / lengths) * lengths


def _choose_substitutions(
    sites_xy: np.ndarray, n: int, lengths: np.ndarray, separation: float, rng: np.random.Generator
) -> list[int]:
    chosen: list[int] = []
    for i in rng.permutation(len(sites_xy)):
        if len(chosen) == n:
            break
        d = _minimum_image(sites_xy[chosen] - sites_xy[i], lengths) if chosen else np.zeros((0, 2))
        if not chosen or np.min(np.linalg.norm(d, axis=1)) >= separation:
            chosen.append(int(i))
    if len(chosen) < n:
        raise ValidationError(
            f"cannot place {n} substitutions {separation} Å apart on {len(sites_xy)} sites "
            "of a sheet; lower the charge or enlarge cells"
        )
    return chosen


def _near(pos: np.ndarray, idx: list[int], centre: int, lengths: np.ndarray, r: float) -> list[int]:
    d = _minimum_image(pos[idx] - pos[centre], np.array([*lengths, 1e9]))
    return [idx[k] for k in np.flatnonzero(np.linalg.norm(d, axis=1) < r)]


def _sheet(
    cell: LayerCell, p: ClayParameters, z_mid: float, rng: np.random.Generator
) -> tuple[np.ndarray, list[str]]:
    n_oct, n_tet = p.substitutions_per_sheet()
    nx, ny = p.cells
    lengths = np.array([nx * cell.a_a, ny * cell.b_a])
    shifts = np.array([(i, j) for i in range(nx) for j in range(ny)], dtype=float)
    frac = (cell.frac_xy[None, :, :] + shifts[:, None, :]).reshape(-1, 2)
    xy = frac * np.array([cell.a_a, cell.b_a])
    z = np.tile(cell.z_a, len(shifts)) + z_mid
    roles = list(cell.roles) * len(shifts)
    pos = np.column_stack([xy, z])
    types = [_ROLE_TYPE[r] for r in roles]
    sep = p.min_substitution_separation_a
    oct_idx = [i for i, r in enumerate(roles) if r == "oct"]
    anions = [i for i, r in enumerate(roles) if r in ("apical", "hydroxyl_o")]
    for k in _choose_substitutions(xy[oct_idx], n_oct, lengths, sep, rng):
        types[oct_idx[k]] = "mgo"
        for a in _near(pos, anions, oct_idx[k], lengths, 2.3):
            types[a] = "obos" if roles[a] == "apical" else "ohs"
    if n_tet:
        oxygens = [i for i, r in enumerate(roles) if r in ("apical", "basal")]
        # a tetrahedron next to a Mg (its apical O already obos) is not substituted: no obss
        free = [
            i
            for i, r in enumerate(roles)
            if r == "tet" and all(types[o] == "ob" for o in _near(pos, oxygens, i, lengths, 1.7))
        ]
        for k in _choose_substitutions(pos[free][:, :2], n_tet, lengths, sep, rng):
            types[free[k]] = "at"
            for o in _near(pos, oxygens, free[k], lengths, 1.7):
                types[o] = "obts"
    return pos, types


_ROLE_TYPE: Final = {
    "oct": "ao",
    "apical": "ob",
    "hydroxyl_o": "oh",
    "hydroxyl_h": "ho",
    "tet": "st",
    "basal": "ob",
}


def _ring_sites(cell: LayerCell, p: ClayParameters, side: Literal["top", "bottom"]) -> np.ndarray:
    nx, ny = p.cells
    shifts = np.array([(i, j) for i in range(nx) for j in range(ny)], dtype=float)
    frac = (cell.ring_centres(side)[None, :, :] + shifts[:, None, :]).reshape(-1, 2)
    return frac * np.array([cell.a_a, cell.b_a])


def _pick_sites(
    sites: np.ndarray, n: int, lengths: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    order = rng.permutation(len(sites))
    chosen: list[int] = []
    for sep in (6.0, 4.5, 3.0):
        for i in order:
            if len(chosen) == n:
                return sites[chosen]
            if i in chosen:
                continue
            d = _minimum_image(sites[chosen] - sites[i], lengths) if chosen else np.zeros((0, 2))
            if not chosen or np.min(np.linalg.norm(d, axis=1)) >= sep:
                chosen.append(int(i))
    if len(chosen) < n:
        raise ValidationError(f"cannot place {n} cations on {len(sites)} ring sites")
    return sites[chosen]


def _water_molecule(o: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r, theta = WATER_GEOMETRY
    half = math.radians(theta) / 2
    local = np.array(
        [
            [0, 0, 0],
            [r * math.sin(half), 0, r * math.cos(half)],
            [-r * math.sin(half), 0, r * math.cos(half)],
        ]
    )
    q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return o + local @ q.T


def _candidate_sites(box: np.ndarray, z_range: tuple[float, float]) -> np.ndarray:
    """Oxygen sites on a 2.9 Å square grid in layers 2.8 Å apart across ``z_range``."""
    nx, ny = int(box[0] // 2.9), int(box[1] // 2.9)
    layers = np.arange(z_range[0], z_range[1] + 1e-9, 2.8)
    grid = [
        (box[0] * (i + 0.5 * (k % 2)) / nx, box[1] * (j + 0.5 * (k % 2)) / ny, z)
        for k, z in enumerate(layers)
        for i in range(nx)
        for j in range(ny)
    ]
    return np.array(grid, dtype=float).reshape(-1, 3)


def _fits(mol: np.ndarray, atoms: np.ndarray, heavy: np.ndarray, box: np.ndarray) -> bool:
    """Oxygen clear of heavy atoms by MIN_WATER_CLEARANCE_A, every atom of all by 1.6 Å."""
    r = np.linalg.norm(_minimum_image(atoms[None, :, :] - mol[:, None, :], box), axis=2)
    r_o = np.linalg.norm(_minimum_image(heavy - mol[0], box), axis=1)
    return bool(r.min() >= 1.6 and r_o.min() >= MIN_WATER_CLEARANCE_A)


def _place_waters(
    n: int,
    occupied: np.ndarray,
    hydrogen: np.ndarray,
    box: np.ndarray,
    z_range: tuple[float, float],
    rng: np.random.Generator,
) -> list[np.ndarray]:
    """``n`` waters on shuffled grid sites (a few random orientations each), clear of atoms."""
    waters: list[np.ndarray] = []
    atoms = occupied.copy()
    heavy = occupied[~hydrogen]
    sites = _candidate_sites(box, z_range)
    for o in sites[rng.permutation(len(sites))]:
        if len(waters) == n:
            break
        for _ in range(8):
            mol = _water_molecule(o, rng)
            if _fits(mol, atoms, heavy, box):
                waters.append(mol)
                atoms = np.vstack([atoms, mol])
                heavy = np.vstack([heavy, mol[:1]])
                break
    if len(waters) == n:
        return waters
    raise ValidationError(f"could not place {n} interlayer waters; lower interlayer_waters")


def build_clay(p: ClayParameters) -> ClaySystem:
    """Two substituted sheets, cations and optional interlayer water (see module docstring)."""
    n_cat = p.cation_count()
    cell = dioctahedral_cell()
    half_t = cell.thickness_a / 2
    z1 = p.vacuum_a + half_t
    z2 = z1 + p.basal_spacing_a
    box = np.array([p.cells[0] * cell.a_a, p.cells[1] * cell.b_a, z2 + half_t + p.vacuum_a])
    rng = np.random.default_rng(p.seed)
    pos1, t1 = _sheet(cell, p, z1, np.random.default_rng(p.seed + 1))
    pos2, t2 = _sheet(cell, p, z2, np.random.default_rng(p.seed + 2))
    plan: list[tuple[str, int, Literal["top", "bottom"], float]] = [
        ("interlayer", n_cat // 2, "top", (z1 + z2) / 2),
        ("below", n_cat // 4, "bottom", z1 - half_t - p.cation_height_a),
        ("above", n_cat // 4, "top", z2 + half_t + p.cation_height_a),
    ]
    cat_pos, cat_sites = [], []
    for site, count, side, z in plan:
        xy = _pick_sites(_ring_sites(cell, p, side), count, box[:2], rng)
        cat_pos += [np.array([x, y, z]) for x, y in xy]
        cat_sites += [site] * count
    clay_and_ions = np.vstack([pos1, pos2, np.array(cat_pos)])
    gap = (z1 + half_t + 2.8, z2 - half_t - 2.8)
    hydrogen = np.array([t == "ho" for t in (*t1, *t2)] + [False] * n_cat)
    waters = _place_waters(p.interlayer_waters, clay_and_ions, hydrogen, box, gap, rng)
    positions = np.vstack([clay_and_ions, *waters]) if waters else clay_and_ions
    types = (*t1, *t2, *[p.cation] * n_cat, *["OW", "HW", "HW"] * len(waters))
    n1, n2 = len(t1), len(t2)
    mol = np.concatenate(
        [
            np.full(n1, 1),
            np.full(n2, 2),
            3 + np.arange(n_cat),
            np.repeat(3 + n_cat + np.arange(len(waters)), 3),
        ]
    ).astype(int)
    kinds = ("clay",) * (n1 + n2) + ("cation",) * n_cat + ("water",) * (3 * len(waters))
    sheet = np.concatenate([np.full(n1, 1), np.full(n2, 2), np.zeros(len(types) - n1 - n2)])
    positions[:, :2] = np.mod(positions[:, :2], box[:2])
    return ClaySystem(
        parameters=p,
        box_a=(float(box[0]), float(box[1]), float(box[2])),
        positions=positions,
        types=types,
        charges=np.array([ALL_TYPES[t].charge_e for t in types]),
        mol_ids=mol,
        kinds=kinds,
        sheet=sheet.astype(int),
        sheet_mid_z=(z1, z2),
        thickness_a=cell.thickness_a,
        substitutions=(t1.count("mgo") + t1.count("at"), t2.count("mgo") + t2.count("at")),
        cation_sites=tuple(cat_sites),
    )
