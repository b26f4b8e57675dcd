"""Text from outside (command-line arguments, spec files) must be valid UTF-8.

Python turns undecodable bytes of ``argv`` into lone surrogates, which fail much later
(when the store writes the request) after a run directory exists. These helpers refuse
such text at the edge with a :class:`~simwright.errors.ValidationError` naming the first
bad byte, before anything is created.
"""

from __future__ import annotations

from pathlib import Path

from simwright.errors import ParseError, ValidationError

_SURROGATE_BASE = 0xDC00


def require_utf8(text: str, what: str) -> str:
    """``text`` unchanged if it is valid UTF-8 text, else a :class:`ValidationError`."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        char = ord(text[exc.start])
        byte = f"byte 0x{char - _SURROGATE_BASE:02x}" if char >= _SURROGATE_BASE else "a character"
        raise ValidationError(
            f"{what} is not valid UTF-8 ({byte} at position {exc.start}); "
            "simwright reads text as UTF-8"
        ) from None
    return text


def read_utf8(path: Path, what: str = "file") -> str:
    """The content of ``path`` as text; a :class:`ParseError` when it is not valid UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"{what} {path} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); save it as UTF-8"
        ) from None
