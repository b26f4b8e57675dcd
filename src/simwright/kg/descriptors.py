"""The per-protocol hook that says what a run is about, and the generic molecule one.

A protocol package registers a :class:`Descriptor` under the entry-point group
``simwright.kg_descriptors`` (the entry point's name is free; ``protocol`` says which
runs it describes)::

    [project.entry-points."simwright.kg_descriptors"]
    mof_pores = "simwright.protocols.mofs.descriptor:DESCRIPTOR"

``describe(facts)`` receives the run's :class:`~simwright.kg.runs.RunFacts` and returns
:class:`~simwright.kg.entities.Entity` values. Runs of every protocol also pass
through :func:`molecules`, so a protocol whose parameters name a molecule by
``smiles``, ``inchi`` or ``inchikey`` (the molecular quantum-chemistry protocols) gets a
``Molecule`` entity, and each ``.xyz``/``.extxyz`` structure file of such a run a
``Conformer`` entity linked to it, with no code of its own.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from simwright.kg.entities import Entity, Link, content_key
from simwright.kg.runs import RunFacts
from simwright.plugins import load_plugins

DESCRIPTOR_GROUP = "simwright.kg_descriptors"


@dataclass(frozen=True)
class Descriptor:
    """What the runs of ``protocol`` are about, as entities."""

    protocol: str
    describe: Callable[[RunFacts], tuple[Entity, ...]]


def load_descriptors() -> dict[str, Descriptor]:
    """The registered descriptors by protocol name (a broken plugin raises by name)."""
    found = load_plugins(DESCRIPTOR_GROUP, Descriptor, what="knowledge-graph descriptor")
    return {d.protocol: d for d in found.values()}


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


def molecules(facts: RunFacts) -> tuple[Entity, ...]:
    """A ``Molecule`` from parameters named ``smiles``/``inchi``/``inchikey`` (keyed by
    InChIKey when known, else by a hash of what was given), and a ``Conformer`` per
    molecular structure file (keyed by the file's sha256)."""
    params = facts.parameters
    smiles = _text(params, "smiles")
    inchi = _text(params, "inchi")
    key = _text(params, "inchikey", "inchi_key") or (inchikey(smiles) if smiles else None)
    if not (smiles or inchi or key):
        return ()
    attributes: dict[str, str] = {}
    if smiles:
        attributes["smiles"] = smiles
    if inchi:
        attributes["inchi"] = inchi
    if key:
        attributes["inchikey"] = key
    mol_key = key or content_key("molecule", smiles, inchi)
    label = smiles or inchi or mol_key  # never a run's own name: one label per molecule
    name = _text(params, "name", "molecule")
    if name:
        attributes["name"] = name
    molecule = Entity("Molecule", mol_key, label, attributes, subject=True)
    conformers = tuple(
        Entity(
            "Conformer",
            f.sha256,
            f"conformer of {label} ({f.path.rsplit('/', 1)[-1]})",
            {"sha256": f.sha256},
            (Link("conformerOf", "Molecule", mol_key),),
        )
        for f in facts.files
        if f.kind == "structure" and f.path.endswith((".xyz", ".extxyz"))
    )
    return (molecule, *conformers)


def describe(facts: RunFacts, descriptors: Mapping[str, Descriptor]) -> tuple[Entity, ...]:
    """Every entity of a run: its protocol's descriptor, then the generic molecule one."""
    own = descriptors.get(facts.protocol)
    found = own.describe(facts) if own is not None else ()
    return (*found, *molecules(facts))
