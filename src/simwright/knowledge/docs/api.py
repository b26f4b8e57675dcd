"""API documentation of installed Python packages (ASE, freud, MDAnalysis) from their docstrings.

The package is walked module by module (private modules and test, GUI and
visualization packages skipped). Each module, public class and public function with
a docstring becomes a page named by its dotted path (the shortest public one:
``ase.Atoms`` rather than ``ase.atoms.Atoms``), indexed by the first paragraph of its
docstring and its signature. A submodule that fails to import (an optional
dependency is missing) is skipped; warnings raised while importing are silenced.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from simwright.knowledge.docs.retrieval import DocPage, RetrievalError
from simwright.knowledge.docs.rst import plain
from simwright.knowledge.docs.source import files_fingerprint

READER_VERSION = "api-docs-1"
SKIP_MODULES = frozenset(
    {"test", "tests", "testing", "testsuite", "conftest", "gui", "visualize", "visualization"}
)
MAX_PASSAGE = 800
MAX_SIGNATURE = 400
_UNDERLINE = re.compile(r"^\s*([=\-~^\"'*+#])\1{2,}\s*$")


@dataclass(frozen=True)
class ApiDocs:
    """The docstrings of the importable package ``package`` as a documentation source."""

    package: str
    name: str
    skip: frozenset[str] = SKIP_MODULES

    def root(self) -> ModuleType:
        """The imported package (raises :class:`RetrievalError` when it is not installed)."""
        module = _import(self.package)
        if module is None:
            raise RetrievalError(f"{self.package} is not installed: pip install {self.package}")
        return module

    def fingerprint(self) -> str:
        """Changes with the package's version and files."""
        root = self.root()
        version = str(getattr(root, "__version__", ""))
        return files_fingerprint(_package_files(root), salt=f"{READER_VERSION}:{version}")

    def pages(self) -> list[DocPage]:
        """A page per documented module, public class and public function."""
        seen: set[int] = set()
        pages: list[DocPage] = []
        with warnings.catch_warnings(record=True):  # deprecated modules warn when touched
            warnings.simplefilter("ignore")
            for module in walk_modules(self.root(), self.skip):
                pages.extend(module_pages(module, self.package, seen))
        return unique_pages(pages)


def unique_pages(pages: list[DocPage]) -> list[DocPage]:
    """``pages`` without later pages of a name already taken (a module named like a function)."""
    taken: dict[str, DocPage] = {}
    for page in pages:
        taken.setdefault(page.page, page)
    return list(taken.values())


def _package_files(root: ModuleType) -> list[Path]:
    paths = [Path(p) for p in getattr(root, "__path__", [])]
    if not paths and getattr(root, "__file__", None):
        return [Path(str(root.__file__))]
    return [f for d in paths for pattern in ("*.py", "*.so") for f in d.rglob(pattern)]


def _import(name: str) -> ModuleType | None:
    with warnings.catch_warnings(record=True):  # record: some modules reset the filters
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(name)
        except (Exception, SystemExit):  # an optional dependency is missing or broken
            return None


def walk_modules(root: ModuleType, skip: frozenset[str] = SKIP_MODULES) -> Iterator[ModuleType]:
    """``root`` and its importable public submodules, parents before children."""
    yield root
    for info in pkgutil.iter_modules(_attr(root, "__path__") or []):
        if info.name.startswith("_") or info.name in skip:
            continue
        child = _import(f"{root.__name__}.{info.name}")
        if child is not None:
            yield from walk_modules(child, skip)


def first_paragraph(doc: str | None, limit: int = MAX_PASSAGE) -> str:
    """The first paragraph of a docstring on one line, markup removed.

    A leading reStructuredText heading is kept and joined to the first prose
    paragraph; field lists (``:Author: ...``) and directives are skipped.
    """
    if not doc:
        return ""
    heading, body = "", ""
    for para in inspect.cleandoc(doc).split("\n\n"):
        lines = [ln for ln in para.strip().splitlines() if not _UNDERLINE.match(ln)]
        text = plain(" ".join(lines))
        if not text or para.lstrip().startswith((":", "..", ">>>")):
            continue
        if len(lines) < len(para.strip().splitlines()) and not heading:
            heading = text  # the paragraph was a heading
            continue
        body = text
        break
    return (f"{heading}: {body}" if heading and body else heading or body)[:limit]


def signature(obj: Any, name: str) -> str:
    """``name(arguments)`` of a class or function, or just its name."""
    try:
        sig = str(inspect.signature(obj))
    except (TypeError, ValueError):
        sig = ""
    if inspect.isclass(obj):
        sig = sig.removesuffix(" -> None")
    return f"{name}{sig}"[:MAX_SIGNATURE]


def _attr(obj: Any, name: str) -> Any:
    """``getattr`` that survives modules whose ``__getattr__`` raises (moved code)."""
    try:
        return getattr(obj, name, None)
    except Exception:
        return None


def _public_names(module: ModuleType) -> tuple[list[str], bool]:
    """Public names of ``module``, and whether they are declared (``__all__``)."""
    declared = _attr(module, "__all__")
    if isinstance(declared, list | tuple):
        return [n for n in declared if isinstance(n, str) and not n.startswith("_")], True
    return [n for n in vars(module) if not n.startswith("_")], False


def module_pages(module: ModuleType, package: str, seen: set[int]) -> list[DocPage]:
    """Pages of ``module`` and of the package's classes and functions it exposes first.

    Without ``__all__`` only what the module defines itself counts as its own.
    """
    source = str(_attr(module, "__file__") or module.__name__)
    pages = []
    if text := first_paragraph(module.__doc__):
        pages.append(DocPage(module.__name__, module.__name__, text, "", source))
    names, declared = _public_names(module)
    for name in names:
        obj = _attr(module, name)
        if not (inspect.isclass(obj) or inspect.isroutine(obj)) or id(obj) in seen:
            continue
        home = str(_attr(obj, "__module__") or "")
        own = home == module.__name__ or (declared and home.startswith(package + "."))
        if not own and home != package:
            continue
        seen.add(id(obj))
        if text := first_paragraph(inspect.getdoc(obj)):
            page = f"{module.__name__}.{name}"
            pages.append(DocPage(page, page, text, signature(obj, name), source))
    return pages
