"""Typed results a protocol reports: quantities with units and the files behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ArtifactRef:
    """A recorded file: its path relative to the run directory, content hash and kind."""

    path: str
    sha256: str
    kind: str

    def as_dict(self) -> dict[str, str]:
        """A JSON-ready dictionary."""
        return {"path": self.path, "sha256": self.sha256, "kind": self.kind}


@dataclass(frozen=True)
class Quantity:
    """A reported number with its unit, optional uncertainty and the file it comes from."""

    value: float
    unit: str
    uncertainty: float | None = None
    source: str = ""
    """Path (relative to the run directory) of the artifact that holds this value."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        out: dict[str, Any] = {"value": self.value, "unit": self.unit}
        if self.uncertainty is not None:
            out["uncertainty"] = self.uncertainty
        if self.source:
            out["source"] = self.source
        return out

    def text(self, digits: int = 4) -> str:
        """``value ± uncertainty unit`` with ``digits`` significant digits."""
        unc = f" ± {self.uncertainty:.{digits - 2}g}" if self.uncertainty is not None else ""
        unit = f" {self.unit}" if self.unit and self.unit != "1" else ""
        return f"{self.value:.{digits}g}{unc}{unit}"


@dataclass(frozen=True)
class Reference:
    """A published value a result should be compared with."""

    quantity: str
    value: float
    unit: str
    citation: str
    uncertainty: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "quantity": self.quantity,
            "value": self.value,
            "unit": self.unit,
            "uncertainty": self.uncertainty,
            "citation": self.citation,
        }


@dataclass(frozen=True)
class ProtocolResult:
    """What a protocol returns in its final ``Done``: values, files and a summary."""

    values: dict[str, Quantity]
    artifacts: tuple[ArtifactRef, ...] = ()
    summary: str = ""
    references: tuple[Reference, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "values": {k: v.as_dict() for k, v in self.values.items()},
            "artifacts": [a.as_dict() for a in self.artifacts],
            "summary": self.summary,
            "references": [r.as_dict() for r in self.references],
        }
