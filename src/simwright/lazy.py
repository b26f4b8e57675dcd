"""Package names that load on first use (PEP 562): a package's ``__init__`` maps each
exported name to the module that defines it, and importing one light module of the
package (``graph.lock``, ``store.reading``, ``builders.crystals``) does not import the
rest. Quick commands (``runs``, ``show``, ``plan``) depend on it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``name`` comes from the submodule
    ``where[name]`` when first asked for, and is kept in the package's namespace."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        setattr(import_module(package), name, value)
        return value

    return __getattr__
