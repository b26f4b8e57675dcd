"""Parameters shared by the molecular protocols: a molecule and a level of theory."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright.builders.qc_molecules import MoleculeSource
from simwright.engines.qc.level import LevelOfTheory


class MoleculeInput(BaseModel):
    """A molecule: exactly one of a table name, a SMILES or an XYZ file, with its charge
    and multiplicity where they are stated."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = ""
    smiles: str = ""
    xyz: str = ""
    charge: int | None = None
    multiplicity: int | None = Field(default=None, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: object) -> object:
        """A bare string is a table name, or a SMILES when it is not one."""
        if isinstance(data, str):
            # lazy: the species table is small; kept out of the module import
            from simwright.molecules.species import SPECIES

            return {"name": data} if data.strip().lower() in SPECIES else {"smiles": data}
        return data

    @model_validator(mode="after")
    def _one_source(self) -> MoleculeInput:
        if sum(bool(x) for x in (self.name, self.smiles, self.xyz)) != 1:
            raise ValueError("a molecule needs exactly one of: name, smiles, xyz")
        if self.name:
            # lazy: the species table is small; kept out of the module import
            from simwright.molecules.species import find_species

            canonical = find_species(self.name).name
            if canonical != self.name:
                object.__setattr__(self, "name", canonical)
        return self

    def source(self) -> MoleculeSource:
        """The builder's value."""
        return MoleculeSource(self.name, self.smiles, self.xyz, self.charge, self.multiplicity)

    @property
    def label(self) -> str:
        """The molecule's label."""
        return self.source().label


class QcParams(BaseModel):
    """What every molecular protocol takes: the level of theory and the threads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    level: LevelOfTheory = LevelOfTheory()
    threads: int = Field(default=2, ge=1, le=64)
    seed: int = 7
