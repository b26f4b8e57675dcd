"""Whether a real engine is installed here, asked through the engine registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from simwright.engines.registry import load_engines
from simwright.settings import Settings


def installed(*names: str) -> bool:
    """True when every engine in ``names`` is found and starts here."""
    settings = Settings(home=Path.home())
    engines = load_engines()
    return all(engines[name].status(settings).available for name in names)


def needs(*names: str) -> pytest.MarkDecorator:
    """A skip mark for a test that runs the engines ``names``."""
    return pytest.mark.skipif(not installed(*names), reason=f"needs {', '.join(names)}")
