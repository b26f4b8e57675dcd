"""A level of theory: method, basis set, dispersion correction and implicit solvent.

Every name is checked against a table here (no engine import): functionals PySCF
evaluates through libxc, basis sets PySCF ships, D3 dispersion through the ``dftd3``
package (Grimme's D3 with Becke–Johnson or zero damping; S. Grimme, S. Ehrlich, L.
Goerigk, J. Comput. Chem. 32, 1456 (2011)), and GFN2-xTB through tblite (C. Bannwarth,
S. Ehlert, S. Grimme, J. Chem. Theory Comput. 15, 1652 (2019)). An unknown name is
refused by name with the list; nothing is substituted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from simwright.molecules.solvents import find_solvent

FUNCTIONALS: Mapping[str, str] = {
    "hf": "hf",
    "lda": "lda,vwn",
    "blyp": "blyp",
    "bp86": "b88,p86",
    "pbe": "pbe",
    "tpss": "tpss",
    "r2scan": "r2scan",
    "b3lyp": "b3lyp",
    "pbe0": "pbe0",
    "tpssh": "tpssh",
    "cam-b3lyp": "camb3lyp",
    "m06-2x": "m062x",
    "wb97x": "wb97x",
}
"""simwright's name -> PySCF's ``xc`` string ("hf" is Hartree–Fock)."""

ALIASES: Mapping[str, str] = {
    "hartree-fock": "hf",
    "rhf": "hf",
    "uhf": "hf",
    "svwn": "lda",
    "camb3lyp": "cam-b3lyp",
    "m062x": "m06-2x",
    "pbe1pbe": "pbe0",
    "gfn2": "xtb",
    "gfn2-xtb": "xtb",
}
"""Other spellings of the same methods."""

DFTD3_NAMES: Mapping[str, str] = {
    "hf": "hf",
    "blyp": "blyp",
    "bp86": "bp",
    "pbe": "pbe",
    "tpss": "tpss",
    "r2scan": "r2scan",
    "b3lyp": "b3lyp",
    "pbe0": "pbe0",
    "tpssh": "tpssh",
    "cam-b3lyp": "cam-b3lyp",
}
"""Methods with published D3(BJ) parameters, by the name ``dftd3`` knows them."""

BASIS_SETS: tuple[str, ...] = (
    "sto-3g",
    "3-21g",
    "6-31g",
    "6-31g*",
    "6-31g**",
    "6-31+g*",
    "6-31+g**",
    "6-311g**",
    "6-311+g**",
    "def2-svp",
    "def2-svpd",
    "def2-tzvp",
    "def2-tzvpp",
    "def2-tzvpd",
    "cc-pvdz",
    "aug-cc-pvdz",
    "cc-pvtz",
    "aug-cc-pvtz",
)
"""Basis sets PySCF ships that simwright accepts (Pople, Karlsruhe, Dunning)."""

Dispersion = Literal["none", "d3bj", "d3zero"]
SolventModel = Literal["pcm", "ddcosmo", "alpb"]


def method_names() -> tuple[str, ...]:
    """Every accepted method name: the functionals, HF and GFN2-xTB."""
    return (*FUNCTIONALS, "xtb")


class LevelOfTheory(BaseModel):
    """Method (a functional, ``hf`` or ``xtb``), basis set, dispersion and solvent.

    ``solvent`` None is the gas phase; the solvent model is PCM (IEF-PCM) for PySCF and
    ALPB for xTB unless stated.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    method: str = "b3lyp"
    basis: str | None = "def2-svp"
    dispersion: Dispersion = "none"
    solvent: str | None = None
    solvent_model: SolventModel | None = None

    @model_validator(mode="before")
    @classmethod
    def _xtb_has_no_basis(cls, data: object) -> object:
        """GFN2-xTB without a stated basis takes none (the default basis is for SCF)."""
        if isinstance(data, dict) and "basis" not in data:
            method = str(data.get("method", "")).strip().lower()
            if ALIASES.get(method, method) == "xtb":
                return {**data, "basis": None}
        return data

    @field_validator("method", mode="before")
    @classmethod
    def _method(cls, value: object) -> str:
        key = str(value).strip().lower()
        key = ALIASES.get(key, key)
        if key not in method_names():
            raise ValueError(
                f"unknown method or functional {value!r}; known: {', '.join(method_names())}"
            )
        return key

    @field_validator("basis", mode="before")
    @classmethod
    def _basis(cls, value: object) -> str | None:
        if value is None:
            return None
        key = str(value).strip().lower().replace("(d)", "*").replace("(d,p)", "**")
        if key not in BASIS_SETS:
            raise ValueError(f"unknown basis set {value!r}; known: {', '.join(BASIS_SETS)}")
        return key

    @field_validator("dispersion", mode="before")
    @classmethod
    def _dispersion(cls, value: object) -> str:
        key = str(value or "none").strip().lower().replace("(", "").replace(")", "")
        key = {"d3": "d3bj", "d3-bj": "d3bj", "d3-zero": "d3zero", "d30": "d3zero"}.get(key, key)
        return key

    @field_validator("solvent", mode="before")
    @classmethod
    def _solvent(cls, value: object) -> str | None:
        if value is None or str(value).strip().lower() in ("", "gas", "none", "vacuum"):
            return None
        return find_solvent(str(value)).name

    @model_validator(mode="after")
    def _consistent(self) -> LevelOfTheory:
        if self.method == "xtb":
            if self.basis is not None:
                raise ValueError("GFN2-xTB has its own minimal basis: state no basis set")
            if self.dispersion != "none":
                raise ValueError("GFN2-xTB includes D4 dispersion: state no dispersion")
            if self.solvent_model not in (None, "alpb"):
                raise ValueError(f"xTB solvation is ALPB, not {self.solvent_model}")
            if self.solvent and find_solvent(self.solvent).alpb is None:
                raise ValueError(f"GFN2-xTB's ALPB has no parameters for {self.solvent}")
        else:
            if self.basis is None:
                raise ValueError(f"{self.method} needs a basis set")
            if self.solvent_model == "alpb":
                raise ValueError("ALPB is xTB's solvent model; PySCF offers pcm or ddcosmo")
            if self.dispersion != "none" and self.method not in DFTD3_NAMES:
                raise ValueError(
                    f"no D3 parameters for {self.method} in dftd3; with D3: "
                    f"{', '.join(DFTD3_NAMES)}"
                )
        return self

    @property
    def model(self) -> str:
        """The solvent model actually used ('' in the gas phase)."""
        if self.solvent is None:
            return ""
        return self.solvent_model or ("alpb" if self.method == "xtb" else "pcm")

    @property
    def engine(self) -> str:
        """``xtb`` (tblite) or ``pyscf``."""
        return "xtb" if self.method == "xtb" else "pyscf"

    def in_solvent(self, solvent: str | None) -> LevelOfTheory:
        """The same level with another solvent (None: gas phase)."""
        return self.model_copy(update={"solvent": solvent})

    def label(self) -> str:
        """A short name: ``B3LYP-D3BJ/def2-svp (PCM water)``, ``GFN2-xTB (ALPB water)``."""
        name = "GFN2-xTB" if self.method == "xtb" else self.method.upper()
        if self.dispersion != "none":
            name += f"-{self.dispersion.upper()}"
        if self.basis:
            name += f"/{self.basis}"
        if self.solvent:
            name += f" ({self.model.upper()} {self.solvent})"
        return name
