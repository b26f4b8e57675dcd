"""Stored JSON never makes the codec import a module that is not simwright's or a plugin's."""

from __future__ import annotations

import json
import sys

import pytest

from simwright.errors import GraphError
from simwright.graph import codec
from simwright.plugins import trusted_module
from simwright.results import ArtifactRef


def test_a_stored_class_of_an_unknown_module_is_refused_without_importing_it() -> None:
    stored = json.dumps(
        {"__type__": "dataclass", "class": "helpers.never_imported:Marker", "fields": {}}
    )
    with pytest.raises(GraphError, match="neither simwright's nor a registered plugin's"):
        codec.loads(stored)
    assert "helpers.never_imported" not in sys.modules


@pytest.mark.parametrize("path", ["antigravity:Thing", "os:PathLike", "subprocess:Popen"])
def test_standard_modules_are_not_imported_from_stored_text(path: str) -> None:
    module = path.partition(":")[0]
    if module in sys.modules:
        with pytest.raises(GraphError, match=r"is not a dataclass|not a class"):
            codec.loads(json.dumps({"__type__": "dataclass", "class": path, "fields": {}}))
    else:
        with pytest.raises(GraphError, match="neither simwright's"):
            codec.load_class(path)
        assert module not in sys.modules


def test_simwright_classes_still_round_trip() -> None:
    ref = ArtifactRef("steps/001-A/x.h5", "ab" * 32, "table")
    assert codec.loads(codec.dumps(ref)) == ref


def test_trusted_modules() -> None:
    assert trusted_module("simwright.protocols.solids.lattice_constant")
    assert not trusted_module("subprocess")
    assert trusted_module("myplugin.calcs", allow=("myplugin.calcs:Calc",))
