"""The generic molecule descriptor: the molecules a run's parameters name.

Every run passes through :func:`molecules` (besides its protocol's own descriptor). A
molecule is named either at the top of the parameters (``smiles``, ``inchi`` or
``inchikey`` with an optional ``name``), or, as the molecular quantum-chemistry
protocols do, by a nested molecule input anywhere in them: a mapping holding only
``name``/``smiles``/``xyz``/``charge``/``multiplicity`` (``molecule`` of
``molecule_thermochemistry``, ``acid`` and ``reference`` of ``pka``, each species of
``reaction_energy``'s reactions). A name is read as the SMILES of the species table
(:mod:`simwright.molecules.species`; a name it does not hold is not taken for a
molecule); a molecule given only as an XYZ file is not described (a path says nothing
about what the file holds). Molecules are keyed by
InChIKey when RDKit is installed, else by a hash of the SMILES.

When the run names one molecule, that molecule is the run's subject (its values are
attached to it) and each ``.xyz``/``.extxyz`` structure file of the run is a
``Conformer`` of it; when it names several, each is linked to the run as involved.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from simwright.errors import ValidationError
from simwright.kg.entities import Entity, Link, content_key
from simwright.kg.runs import RunFacts
from simwright.molecules.species import find_species

MOLECULE_INPUT_KEYS = frozenset({"name", "smiles", "xyz", "charge", "multiplicity"})
"""The keys of a nested molecule input (``protocols.molecules.params.MoleculeInput``)."""


@dataclass(frozen=True)
class Named:
    """A molecule as the parameters name it: SMILES, InChI, InChIKey, name (each may be
    empty, not all)."""

    smiles: str = ""
    inchi: str = ""
    inchikey: str = ""
    name: str = ""


def inchikey(smiles: str) -> str | None:
    """The InChIKey of ``smiles`` with RDKit, or None (no RDKit, or unreadable SMILES)."""
    if importlib.util.find_spec("rdkit") is None:
        return None
    # lazy: RDKit is optional and takes ~0.3 s to import
    from rdkit import Chem, RDLogger

    RDLogger.DisableLog("rdApp.*")  # type: ignore[attr-defined]
    mol = Chem.MolFromSmiles(smiles)
    return None if mol is None else str(Chem.MolToInchiKey(mol)) or None


def _text(params: Mapping[str, object], *names: str) -> str:
    for name in names:
        value = params.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _top_level(params: Mapping[str, object]) -> Named | None:
    smiles = _text(params, "smiles")
    inchi = _text(params, "inchi")
    key = _text(params, "inchikey", "inchi_key")
    if not (smiles or inchi or key):
        return None
    return Named(smiles, inchi, key, _text(params, "name", "molecule"))


def _as_input(value: Mapping[str, object]) -> Named | None:
    """A nested molecule input, or None (another mapping, or an XYZ-only molecule)."""
    if not value or not set(value) <= MOLECULE_INPUT_KEYS:
        return None
    smiles, name = _text(value, "smiles"), _text(value, "name")
    if smiles:
        return Named(smiles=smiles)
    if not name:
        return None
    try:
        return Named(smiles=find_species(name).smiles, name=name)
    except ValidationError:  # not a molecule of the table (another kind of name)
        return None


def _nested(value: object) -> Iterator[Named]:
    if isinstance(value, Mapping):
        found = _as_input(value)
        if found is not None:
            yield found
            return
        for item in value.values():
            yield from _nested(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _nested(item)


def named_molecules(params: Mapping[str, object]) -> tuple[Named, ...]:
    """Every molecule the parameters name, in order, each once."""
    top = _top_level(params)
    found = [top] if top is not None else list(_nested(params))
    unique: dict[tuple[str, str, str, str], Named] = {}
    for m in found:
        unique.setdefault((m.smiles, m.inchi, m.inchikey, m.name), m)
    return tuple(unique.values())


def molecule_entity(m: Named, *, subject: bool) -> Entity:
    """The ``Molecule`` entity of ``m``: keyed by InChIKey when known, else by a hash of
    what was given; labelled by its SMILES (one label per molecule, never a run's name)."""
    key = m.inchikey or (inchikey(m.smiles) if m.smiles else None)
    attributes: dict[str, str] = {}
    if m.smiles:
        attributes["smiles"] = m.smiles
    if m.inchi:
        attributes["inchi"] = m.inchi
    if key:
        attributes["inchikey"] = key
    if m.name:
        attributes["name"] = m.name
    given = (m.smiles, m.inchi) if m.smiles or m.inchi else (m.smiles, m.inchi, m.name)
    mol_key = key or content_key("molecule", *given)
    label = m.smiles or m.inchi or m.name or mol_key
    return Entity("Molecule", mol_key, label, attributes, subject=subject)


def molecules(facts: RunFacts) -> tuple[Entity, ...]:
    """The ``Molecule`` entities of a run and, for a run about one molecule, a
    ``Conformer`` per molecular structure file (keyed by the file's sha256)."""
    found = (molecule_entity(m, subject=False) for m in named_molecules(facts.parameters))
    entities = {e.key: e for e in found}
    if len(entities) != 1:
        return tuple(entities.values())
    molecule = replace(next(iter(entities.values())), subject=True)
    conformers = tuple(
        Entity(
            "Conformer",
            f.sha256,
            f"conformer of {molecule.label} ({f.path.rsplit('/', 1)[-1]})",
            {"sha256": f.sha256},
            (Link("conformerOf", "Molecule", molecule.key),),
        )
        for f in facts.files
        if f.kind == "structure" and f.path.endswith((".xyz", ".extxyz"))
    )
    return (molecule, *conformers)
