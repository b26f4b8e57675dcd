"""Values stored by the graph codec, read back as plain JSON without importing their
classes (so that ``show``, the service and the knowledge graph need neither the
protocols nor numpy). :mod:`~simwright.graph.codec` writes what this reads."""

from __future__ import annotations

from typing import Any

TYPE_KEY = "__type__"
"""The key of a stored mapping that names how the codec encoded a value."""


def plain(data: Any) -> Any:
    """A value stored by the graph codec as plain JSON, without importing its classes.

    Pydantic models become their fields, dataclasses their fields, tuples lists,
    paths and enums their values, structures their arrays; a stored non-finite float
    becomes the Python float again (``emit`` writes it as ``null`` with a note).
    """
    if isinstance(data, list):
        return [plain(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__dict__" in data:
        return {k: plain(v) for k, v in data["__dict__"].items()}
    kind = data.get(TYPE_KEY)
    if kind is None:
        return {k: plain(v) for k, v in data.items()}
    if kind == "float":
        return float(data["repr"])
    if kind == "pydantic":
        return plain(data["data"])
    if kind == "dataclass":
        return {k: plain(v) for k, v in data["fields"].items()}
    if kind == "tuple":
        return [plain(v) for v in data["items"]]
    if kind in ("path", "enum"):
        return data["value"]
    return plain(data.get("data"))  # ndarray, structure
