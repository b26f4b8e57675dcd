"""The resolver as the planner tests call it: every protocol and knowledge module loaded
once, a request resolved, or the message of its refusal."""

from __future__ import annotations

import pytest

from simwright.errors import SimwrightError
from simwright.knowledge.modules import load_modules
from simwright.knowledge.planner.resolver import Resolution, resolve
from simwright.protocols import load_protocols

PROTOCOLS = load_protocols()
MODULES = load_modules()


def resolve_request(text: str) -> Resolution:
    """``text`` resolved against every protocol and module."""
    return resolve(text, PROTOCOLS, MODULES)


def refusal(text: str) -> str:
    """The message with which ``text`` is refused (the test fails if it is not)."""
    with pytest.raises(SimwrightError) as info:
        resolve_request(text)
    return str(info.value)
