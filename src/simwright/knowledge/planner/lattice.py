"""A stated lattice constant at the front door: read as the structure's ``a_a``, or refused.

"band gap of Si with PBE with a lattice constant of 5.40 Å" names a band structure *at*
a = 5.40 Å; the words "lattice constant" ask for an equation of state only when no value
follows them. :func:`~simwright.dft.stated_lattice.as_symbol` writes a stated value as
"a = 5.4 Å" before a module is chosen (so the words no longer pull the request to
``dft_eos``), and the reading is recorded; :func:`require_used` then checks that the
planned protocol builds a bulk crystal at that a, and refuses naming the phrase where
it cannot: a protocol that determines the lattice constant (an equation of state, a
variable-cell relaxation), one that builds a slab, molecule or layer, or one that has
no lattice constant to set.
"""

from __future__ import annotations

import math

from pydantic import BaseModel

from simwright.dft.stated_lattice import StatedLattice, as_symbol
from simwright.errors import ParseError

DETERMINES_LATTICE: dict[str, str] = {
    "dft_eos": "it determines the lattice constant from an equation-of-state fit",
    "lattice_constant": "it determines the lattice constant from an equation-of-state fit",
}
"""Protocols that compute the lattice constant, so cannot start from a stated one."""

_KIND_WORDS = {"surface": "slab", "two_d": "2D layer", "molecule": "molecule"}


def read_as_symbol(text: str) -> tuple[str, StatedLattice | None, str | None]:
    """``text`` with a stated lattice constant written "a = X Å", what was stated, and
    how the phrase was read (None when nothing was rewritten)."""
    out, stated = as_symbol(text)
    if stated is None or out == text:
        return out, stated, None
    return out, stated, f"read as a = {stated.a_a:g} Å (the structure's lattice constant)"


def _refuse(stated: StatedLattice, protocol: str, why: str, instead: str) -> ParseError:
    return ParseError(
        f"{stated.text!r}: {protocol} cannot use a stated lattice constant: {why}. {instead}"
    )


def refuse_if_determined(stated: StatedLattice | None, protocol: str) -> None:
    """Before planning: a protocol that determines the lattice constant refuses a stated one."""
    if stated is not None and protocol in DETERMINES_LATTICE:
        raise _refuse(
            stated,
            protocol,
            DETERMINES_LATTICE[protocol],
            "Drop the value to compute it, or name the calculation to run at it "
            "(e.g. 'SCF of ... at a = ... Å')",
        )


def require_taken(stated: StatedLattice | None, protocol: str, a_a: object) -> None:
    """Before validation: the plan's ``a_a`` (None when no parameter took the value)
    must be the stated one, and the protocol must not determine the lattice constant."""
    if stated is None:
        return
    refuse_if_determined(stated, protocol)
    if not isinstance(a_a, int | float) or not math.isclose(float(a_a), stated.a_a, rel_tol=1e-5):
        raise _refuse(
            stated,
            protocol,
            "no parameter of it sets the structure's lattice constant",
            "Write a spec file with the structure you mean",
        )


def require_used(stated: StatedLattice | None, protocol: str, params: BaseModel) -> None:
    """After validation: the validated structure is a bulk crystal at the stated a, and
    the calculation keeps the cell (a vc-relax determines a)."""
    if stated is None:
        return
    structure = getattr(params, "structure", None)
    kind = getattr(structure, "kind", "bulk")
    if kind != "bulk":
        raise _refuse(
            stated,
            protocol,
            f"it builds a {_KIND_WORDS.get(kind, kind)}, and a stated lattice constant is "
            "read for bulk crystals",
            "Write a spec file to set the structure of a slab, molecule or layer",
        )
    require_taken(stated, protocol, getattr(structure, "a_a", None))
    if getattr(params, "calculation", None) == "vc-relax":
        raise _refuse(
            stated,
            protocol,
            "a variable-cell relaxation (vc-relax) determines the lattice constant",
            "Say 'relax the atomic positions' to keep the cell at the stated a, or drop "
            "the value to relax the cell",
        )
