"""Turn step inputs and results into JSON and back, so runs can be stored and resumed.

Supported values: ``None``, bool, int, float, str, lists, tuples, dicts with string
keys, :class:`pathlib.Path`, enums, numpy arrays and scalars, :class:`Structure`,
frozen dataclasses and pydantic models. Classes are stored by ``module:qualname``
and must be importable when the run is resumed (a class whose module moved is found
through :mod:`simwright.graph.renames`); only dataclasses, pydantic models and enums
are ever reconstructed. Stored text never makes code run: a module is imported only
when it is simwright's own or the package of a registered plugin
(:func:`simwright.plugins.trusted_module`); a class of any other module is found
only when that module is already loaded.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
import sys
from pathlib import Path, PurePath
from typing import Any

import numpy as np
from pydantic import BaseModel

from simwright.errors import GraphError
from simwright.graph.plain import TYPE_KEY
from simwright.graph.renames import CLASS_RENAMES, MODULE_RENAMES
from simwright.plugins import trusted_module
from simwright.structure import Structure


def class_path(cls: type) -> str:
    """``module:qualname`` of a class."""
    return f"{cls.__module__}:{cls.__qualname__}"


def current_path(path: str) -> str:
    """Where the class stored as ``path`` (``module:qualname``) lives now."""
    if path in CLASS_RENAMES:
        return CLASS_RENAMES[path]
    module_name, _, qualname = path.partition(":")
    return f"{MODULE_RENAMES.get(module_name, module_name)}:{qualname}"


def load_class(path: str) -> type:
    """The class named by ``module:qualname`` (following recorded renames).

    Only trusted modules are imported; others must already be loaded.
    """
    module_name, _, qualname = current_path(path).partition(":")
    if module_name not in sys.modules and not trusted_module(module_name):
        raise GraphError(
            f"cannot load stored type {path!r}: module {module_name!r} is neither simwright's "
            "nor a registered plugin's, and is not loaded"
        )
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise GraphError(f"cannot load stored type {path!r}: {exc}") from exc
    if not isinstance(obj, type):
        raise GraphError(f"stored type {path!r} is not a class")
    return obj


def encode(value: Any) -> Any:
    """A JSON-ready form of ``value`` (raises :class:`GraphError` for unsupported types)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if np.isfinite(value) else {TYPE_KEY: "float", "repr": repr(value)}
    if isinstance(value, enum.Enum):
        return {TYPE_KEY: "enum", "class": class_path(type(value)), "value": value.value}
    if isinstance(value, PurePath):
        return {TYPE_KEY: "path", "value": str(value)}
    if isinstance(value, np.generic):
        return encode(value.item())
    if isinstance(value, np.ndarray):
        return {TYPE_KEY: "ndarray", "dtype": str(value.dtype), "data": value.tolist()}
    if isinstance(value, Structure):
        return {TYPE_KEY: "structure", "data": _encode_structure(value)}
    if isinstance(value, BaseModel):
        return {
            TYPE_KEY: "pydantic",
            "class": class_path(type(value)),
            "data": value.model_dump(mode="json"),
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {TYPE_KEY: "dataclass", "class": class_path(type(value)), "fields": fields}
    if isinstance(value, tuple):
        return {TYPE_KEY: "tuple", "items": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise GraphError("only dictionaries with string keys can be stored")
        return {"__dict__": {k: encode(v) for k, v in value.items()}}
    raise GraphError(f"cannot store a value of type {type(value).__name__}")


def decode(data: Any) -> Any:
    """Rebuild a value stored by :func:`encode`."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__dict__" in data:
        return {k: decode(v) for k, v in data["__dict__"].items()}
    kind = data.get(TYPE_KEY)
    decoder = _DECODERS.get(kind) if isinstance(kind, str) else None
    if decoder is None:
        raise GraphError(f"unknown stored value kind {kind!r}")
    return decoder(data)


def _decode_dataclass(data: dict[str, Any]) -> Any:
    cls = load_class(data["class"])
    if not dataclasses.is_dataclass(cls):
        raise GraphError(f"stored class {data['class']!r} is not a dataclass")
    return cls(**{k: decode(v) for k, v in data["fields"].items()})


def _decode_pydantic(data: dict[str, Any]) -> Any:
    cls = load_class(data["class"])
    if not issubclass(cls, BaseModel):
        raise GraphError(f"stored class {data['class']!r} is not a pydantic model")
    return cls.model_validate(data["data"])


def _decode_enum(data: dict[str, Any]) -> Any:
    cls = load_class(data["class"])
    if not issubclass(cls, enum.Enum):
        raise GraphError(f"stored class {data['class']!r} is not an enum")
    return cls(data["value"])


def _encode_structure(s: Structure) -> dict[str, Any]:
    return {
        "symbols": list(s.symbols),
        "positions": s.positions.tolist(),
        "cell": s.cell.tolist(),
        "pbc": list(s.pbc),
        "molecule_ids": None if s.molecule_ids is None else list(s.molecule_ids),
    }


def _decode_structure(data: dict[str, Any]) -> Structure:
    d = data["data"]
    mol = d["molecule_ids"]
    return Structure(
        tuple(d["symbols"]),
        np.array(d["positions"], dtype=float).reshape(-1, 3),
        np.array(d["cell"], dtype=float),
        tuple(d["pbc"]),
        None if mol is None else tuple(mol),
    )


_DECODERS: dict[str, Any] = {
    "float": lambda d: float(d["repr"]),
    "enum": _decode_enum,
    "path": lambda d: Path(d["value"]),
    "ndarray": lambda d: np.array(d["data"], dtype=d["dtype"]),
    "structure": _decode_structure,
    "pydantic": _decode_pydantic,
    "dataclass": _decode_dataclass,
    "tuple": lambda d: tuple(decode(v) for v in d["items"]),
}


def dumps(value: Any) -> str:
    """Canonical JSON text of ``value`` (sorted keys, no whitespace)."""
    return json.dumps(encode(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    """Inverse of :func:`dumps`."""
    return decode(json.loads(text))


def value_hash(value: Any) -> str:
    """sha256 of the canonical JSON of ``value``."""
    return hashlib.sha256(dumps(value).encode()).hexdigest()
