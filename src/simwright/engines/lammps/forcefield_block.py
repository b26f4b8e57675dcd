"""The force-field part of a LAMMPS input: pair style and coefficients, bonded terms,
long-range solver and constraints, as a pure function of a :class:`ForceField`.

OPLS-style flexible molecules add ``dihedral_style opls`` and ``improper_style cvff``
and their 1-4 scaling in ``special_bonds``. Three pair families are written:
Lennard-Jones (with or without Ewald Coulomb), the
four-site TIP4P water (``lj/cut/tip4p/long``: O, H, O–H bond and H–O–H angle types,
the O–M distance and the cutoff) and Born–Mayer–Huggins ionic melts
(``born/coul/long``: A, ρ, σ, C and LAMMPS' D = −D of the attractive 1/r⁸ term).
"""

from __future__ import annotations

from simwright.forcefields.base import ForceField


def num(value: float) -> str:
    """A number as LAMMPS input text (10 significant digits)."""
    return f"{value:.10g}"


def forcefield_block(ff: ForceField) -> str:
    """Pair style, coefficients, bonded terms, special bonds, kspace and neighbour lists."""
    style = ff.pair_style
    lines = [
        f"# force field: {ff.name} ({ff.description or ff.reference})",
        f"pair_style      {style.kind} {_pair_style_args(ff)}",
        f"pair_modify     shift {_yes(style.shift)} tail {_yes(style.tail)}",
    ]
    lines += _pair_coeff_lines(ff)
    lines += _bonded_lines(ff)
    lines += _torsion_lines(ff)
    lines.append(_special_bonds(ff))
    if ff.kspace is not None:
        lines.append(f"kspace_style    {ff.kspace.style} {ff.kspace.accuracy:g}")
    lines += ["neighbor        2.0 bin", "neigh_modify    every 1 delay 0 check yes"]
    return "\n".join(lines)


def _pair_style_args(ff: ForceField) -> str:
    cutoff = num(ff.pair_style.cutoff_a)
    site = ff.tip4p
    if site is None:
        return cutoff
    return (
        f"{ff.type_id(site.oxygen_type)} {ff.type_id(site.hydrogen_type)} "
        f"{ff.bond_type_id(site.bond_type)} {ff.angle_type_id(site.angle_type)} "
        f"{num(site.om_distance_a)} {cutoff}"
    )


def _pair_coeff_lines(ff: ForceField) -> list[str]:
    lines = []
    names = [t.name for t in ff.atom_types]
    for i, j, lj in ff.pair_table():
        if ff.born_pairs:
            b = ff.born(names[i - 1], names[j - 1])
            coeffs = [b.a_ev, b.rho_a, b.sigma_a, b.c_ev_a6, -b.d_ev_a8]
            lines.append(f"pair_coeff      {i} {j} {' '.join(num(c) for c in coeffs)}")
        else:
            lines.append(f"pair_coeff      {i} {j} {num(lj.epsilon_ev)} {num(lj.sigma_a)}")
    return lines


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _bonded_lines(ff: ForceField) -> list[str]:
    lines: list[str] = []
    if ff.bond_types:
        rigid = ff.bond_types[0].rigid
        lines.append(f"bond_style      {'zero' if rigid else 'harmonic'}")
        for n, bond in enumerate(ff.bond_types, 1):
            k = "" if bond.k_ev_per_a2 is None else f"{num(bond.k_ev_per_a2)} "
            lines.append(f"bond_coeff      {n} {k}{num(bond.length_a)}")
    if ff.angle_types:
        rigid = ff.angle_types[0].rigid
        lines.append(f"angle_style     {'zero' if rigid else 'harmonic'}")
        for n, angle in enumerate(ff.angle_types, 1):
            k = "" if angle.k_ev_per_rad2 is None else f"{num(angle.k_ev_per_rad2)} "
            lines.append(f"angle_coeff     {n} {k}{num(angle.angle_deg)}")
    return lines


def _special_bonds(ff: ForceField) -> str:
    if ff.special_lj == ff.special_coul:
        return f"special_bonds   lj/coul {' '.join(f'{x:.1f}' for x in ff.special_lj)}"
    lj = " ".join(num(x) for x in ff.special_lj)
    coul = " ".join(num(x) for x in ff.special_coul)
    return f"special_bonds   lj {lj} coul {coul}"


def _torsion_lines(ff: ForceField) -> list[str]:
    """OPLS Fourier dihedrals (``opls``) and planar impropers (``cvff``: K d n)."""
    lines: list[str] = []
    if ff.dihedral_types:
        lines.append("dihedral_style  opls")
        for n, dihedral in enumerate(ff.dihedral_types, 1):
            lines.append(f"dihedral_coeff  {n} {' '.join(num(k) for k in dihedral.k_ev)}")
    if ff.improper_types:
        lines.append("improper_style  cvff")
        for n, imp in enumerate(ff.improper_types, 1):
            lines.append(f"improper_coeff  {n} {num(imp.k_ev)} {imp.sign} {imp.multiplicity}")
    return lines


def constraint_lines(ff: ForceField) -> list[str]:
    """The SHAKE fix of a rigid force field (none for a flexible one)."""
    if ff.constraint is None or not ff.rigid:
        return []
    bonds = " ".join(str(n) for n, b in enumerate(ff.bond_types, 1) if b.rigid)
    angles = " ".join(str(n) for n, a in enumerate(ff.angle_types, 1) if a.rigid)
    targets = (f" b {bonds}" if bonds else "") + (f" a {angles}" if angles else "")
    shake = ff.constraint
    return [
        f"fix             constrain all shake {shake.tolerance:g} {shake.max_iterations} 0{targets}"
    ]
