from pathlib import Path

import pytest

from simwright.errors import SimwrightError
from simwright.plugins import load_plugin, load_plugins, plugin_names
from simwright.protocols.registry import PROTOCOL_GROUP, Protocol

GROUP = "simwright.test_plugins"


def _distribution(root: Path, entries: dict[str, str]) -> None:
    """A tiny installed distribution whose entry points are ``entries`` under GROUP."""
    info = root / "fake_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 1.0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{lines}")


def test_the_in_tree_protocols_load_through_the_shared_loader() -> None:
    found = load_plugins(PROTOCOL_GROUP, Protocol, what="protocol")
    assert {"lattice_constant", "diffusivity", "dft_scf"} <= set(found)
    assert all(isinstance(p, Protocol) for p in found.values())


def test_broken_and_mistyped_plugins_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _distribution(
        tmp_path,
        {"missing": "no_such_module_xyz:THING", "number": "simwright.store.records:TAIL_CHARS"},
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugin_names(GROUP) == ("missing", "number")
    with pytest.raises(SimwrightError, match="widget plugin 'missing' failed to load"):
        load_plugin(GROUP, "missing", object, what="widget")
    with pytest.raises(SimwrightError, match="widget plugin 'number' is not a str"):
        load_plugin(GROUP, "number", str, what="widget")
    assert load_plugin(GROUP, "number", int) == 4000
    assert load_plugin(GROUP, "absent", int) is None
