"""The protocol catalogue: listed without importing graphs, rebuilt when sources change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

from simwright.protocols import load_protocols
from simwright.protocols.catalog import CATALOG_FILE, fingerprint, protocol_catalog
from simwright.protocols.registry import LazyProtocols


def test_the_catalogue_matches_the_loaded_protocols(tmp_path: Path) -> None:
    catalog = protocol_catalog(tmp_path)
    loaded = load_protocols()
    assert list(catalog) == list(loaded)
    lc = catalog["lattice_constant"]
    assert lc.title == loaded["lattice_constant"].title
    assert lc.examples == loaded["lattice_constant"].examples
    assert list(lc.edges) == list(loaded["lattice_constant"].graph.edges)
    assert "element" in lc.parameters_schema["properties"]
    assert (tmp_path / CATALOG_FILE).is_file()


def test_a_current_cache_is_read_and_a_broken_one_rebuilt(tmp_path: Path) -> None:
    protocol_catalog(tmp_path)
    path = tmp_path / CATALOG_FILE
    data = json.loads(path.read_text())
    data["protocols"][0]["title"] = "read from the cache"
    path.write_text(json.dumps(data))
    assert next(iter(protocol_catalog(tmp_path).values())).title == "read from the cache"
    path.write_text("{not json")
    assert next(iter(protocol_catalog(tmp_path).values())).title != "read from the cache"
    assert json.loads(path.read_text())["fingerprint"] == data["fingerprint"]


def test_the_fingerprint_follows_the_plugin_files(tmp_path: Path) -> None:
    package = tmp_path / "catalog_plugin_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    module = package / "proto.py"
    module.write_text("PROTOCOL = None\n")
    point = EntryPoint("plugin", "catalog_plugin_pkg.proto:PROTOCOL", "simwright.protocols")
    sys.path.insert(0, str(tmp_path))
    try:
        before = fingerprint([point])
        assert fingerprint([point]) == before
        module.write_text("PROTOCOL = None  # edited\n")
        os.utime(module, ns=(1, 1))
        assert fingerprint([point]) != before
        other = EntryPoint("other", "catalog_plugin_pkg.proto:PROTOCOL", "simwright.protocols")
        assert fingerprint([point, other]) != fingerprint([point])
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("catalog_plugin_pkg", None)


def test_no_cache_folder_loads_each_time() -> None:
    assert "lattice_constant" in protocol_catalog(None)


def _imported_after(code: str, home: Path) -> set[str]:
    """The simwright and ASE modules imported by ``code`` in a fresh interpreter."""
    probe = (
        "import sys\n"
        f"{code}\n"
        "print(' '.join(m for m in sys.modules if m.startswith(('simwright.', 'ase'))))"
    )
    env = dict(os.environ, SIMWRIGHT_HOME=str(home))
    proc = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    return set(proc.stdout.split())


def test_lazy_protocols_import_only_the_one_looked_up(tmp_path: Path) -> None:
    lazy = LazyProtocols()
    assert list(lazy) == list(load_protocols())
    assert lazy["lattice_constant"] is load_protocols()["lattice_constant"]
    assert "no_such_protocol" not in lazy
    modules = _imported_after(
        "from simwright.protocols.registry import LazyProtocols\n"
        "LazyProtocols()['lattice_constant']",
        tmp_path,
    )
    assert "simwright.protocols.solids.lattice_constant" in modules
    assert "simwright.protocols.liquids.diffusivity" not in modules


def test_listing_protocols_from_the_cache_imports_no_graph(tmp_path: Path) -> None:
    protocol_catalog(tmp_path / "cache")
    modules = _imported_after(
        "from simwright.cli.main import app\n"
        "try:\n    app(['protocols'])\nexcept SystemExit:\n    pass",
        tmp_path,
    )
    assert "simwright.protocols.catalog" in modules
    assert not {"simwright.graph", "simwright.engines.base", "ase"} & modules
