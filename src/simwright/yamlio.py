"""YAML read with LibYAML's C parser where PyYAML has it (about ten times faster than
the pure-Python one: every command that plans reads the knowledge modules), with the
same safe semantics: plain data only, no Python objects."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any


def safe_load(text: str) -> Any:
    """The plain data of the YAML document ``text`` (raises :class:`yaml.YAMLError`)."""
    # lazy: PyYAML (~15 ms) loads only when a document is parsed, not read from a cache
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def is_yaml_error(exc: BaseException) -> bool:
    """True when ``exc`` is PyYAML's :class:`yaml.YAMLError` (without importing PyYAML:
    only a parse can raise one, and a parse imports it)."""
    yaml = sys.modules.get("yaml")
    return yaml is not None and isinstance(exc, yaml.YAMLError)


class YamlCache:
    """Parsed YAML documents remembered by the SHA-256 of their text, in one JSON file.

    Even with LibYAML, PyYAML builds the values in Python (~2 ms a knowledge module);
    reading them back from JSON is about ten times faster. A document whose value
    does not survive JSON unchanged (dates, non-string keys) is parsed each time.
    ``path`` None keeps nothing. An unreadable or unwritable file is ignored: the
    cache only ever saves time.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._known: dict[str, str] = self._read(path)
        self._dirty = False

    @staticmethod
    def _read(path: Path | None) -> dict[str, str]:
        if path is None:
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def load(self, text: str) -> Any:
        """:func:`safe_load` of ``text``, from the cache when it holds it."""
        key = hashlib.sha256(text.encode()).hexdigest()
        hit = self._known.get(key)
        if isinstance(hit, str):
            return json.loads(hit)
        value = safe_load(text)
        try:
            encoded = json.dumps(value, sort_keys=True)
        except (TypeError, ValueError):
            return value
        if json.loads(encoded) == value:
            self._known[key] = encoded
            self._dirty = True
        return value

    def save(self) -> None:
        """Write new entries (atomically); nothing when there are none or no path."""
        if self.path is None or not self._dirty:
            return
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(self._known), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            return
        self._dirty = False
