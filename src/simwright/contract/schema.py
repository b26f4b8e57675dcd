"""The schema version of the file contract and the check every reader applies.

A version is ``"MAJOR.MINOR"``. A reader accepts files of its own major version
(older or newer minor: minor versions only add optional fields) and older majors
it still understands; a newer major is refused, because a major bump means an
incompatible layout.
"""

from __future__ import annotations

from typing import Final

from simwright.errors import ContractError

SCHEMA_VERSION: Final = "1.0"
"""The version of the file contract written by this simwright."""

SCHEMA_KEY: Final = "simwright_schema"
"""The attribute or key holding the schema version in every contract file."""


def schema_major(version: object, *, where: str) -> int:
    """The major number of a schema version read from a file.

    ``version`` may be a string (``"1.0"``) or a number, since some formats
    (extxyz comment lines) turn ``1.0`` into a float. ``where`` names the file
    in the error raised when the value is unusable.
    """
    if isinstance(version, bytes):
        version = version.decode("utf-8", "replace")
    if isinstance(version, bool):
        raise ContractError(f"{where}: {SCHEMA_KEY} must be a version like '1.0', got {version!r}")
    if isinstance(version, int | float):
        return int(version)
    text = str(version).strip()
    head = text.split(".", 1)[0]
    if not head.isdigit():
        raise ContractError(f"{where}: {SCHEMA_KEY} must be a version like '1.0', got {text!r}")
    return int(head)


def check_schema(version: object | None, *, where: str) -> str:
    """Refuse a missing schema version or one with a newer major; return it as text."""
    if version is None:
        raise ContractError(
            f"{where}: not a simwright contract file (no {SCHEMA_KEY!r} attribute); "
            "write it with simwright.contract"
        )
    major = schema_major(version, where=where)
    current = schema_major(SCHEMA_VERSION, where="SCHEMA_VERSION")
    text = version.decode() if isinstance(version, bytes) else str(version)
    if major > current:
        raise ContractError(
            f"{where}: written with file contract {text}, but this simwright reads "
            f"contract {current}.x only; upgrade simwright to read it"
        )
    return text
