"""YAML read with LibYAML's C parser where PyYAML has it (about ten times faster than
the pure-Python one: every command that plans reads the knowledge modules), with the
same safe semantics: plain data only, no Python objects."""

from __future__ import annotations

from typing import Any

import yaml

_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """The plain data of the YAML document ``text`` (raises :class:`yaml.YAMLError`)."""
    return yaml.load(text, Loader=_SAFE_LOADER)
