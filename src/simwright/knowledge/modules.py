"""Knowledge modules: markdown files with a typed YAML front matter, and their loader.

A module is expert guidance in words (its body, in sections: Preparation,
Equilibration, Production, Analysis, Reporting) bound to the protocol that executes
it and to that protocol's parameter schema (its front matter, see
:mod:`simwright.knowledge.schema`). The modules shipped with simwright live in
``simwright/knowledge/modules/*.md`` and are read with :mod:`importlib.resources`,
so they load from an installed wheel as well as from a source checkout.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import ValidationError as PydanticValidationError

from simwright import yamlio
from simwright.errors import ParseError
from simwright.knowledge.schema import FrontMatter
from simwright.knowledge.sections import Section, parse_sections

PACKAGE = "simwright.knowledge"
"""The package whose ``modules/`` folder holds the shipped modules."""


class KnowledgeModule(FrontMatter):
    """A validated knowledge module: its front matter, body, section tree and origin."""

    body: str
    sections: Section
    source: str

    def section(self, path: str) -> Section:
        """The section at ``path`` ('Production/Thermostat'); the error lists the paths."""
        found = self.sections.find(path)
        if found is None:
            raise ParseError(
                f"module {self.id!r} has no section {path!r}; sections: "
                + ", ".join(self.sections.paths())
            )
        return found

    def index_text(self) -> str:
        """Title, keywords and body: what lexical retrieval indexes."""
        return "\n".join([self.title, " ".join(self.keywords), self.sections.plain_text()])


def split_front_matter(
    text: str, origin: str, cache: yamlio.YamlCache | None = None
) -> tuple[dict[str, object], str]:
    """The parsed YAML front matter (between two '---' lines) and the body after it
    (the YAML read through ``cache`` when given)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ParseError(f"{origin}: a knowledge module starts with a '---' front-matter line")
    try:
        end = next(i for i, line in enumerate(lines[1:], start=1) if line.strip() == "---")
    except StopIteration:
        raise ParseError(f"{origin}: the front matter has no closing '---' line") from None
    try:
        front = "\n".join(lines[1:end])
        data = cache.load(front) if cache is not None else yamlio.safe_load(front)
    except Exception as exc:
        if not yamlio.is_yaml_error(exc):
            raise
        raise ParseError(f"{origin}: invalid YAML in the front matter: {exc}") from exc
    if not isinstance(data, dict):
        raise ParseError(f"{origin}: the front matter must be a YAML mapping")
    return {str(k): v for k, v in data.items()}, "\n".join(lines[end + 1 :]).strip() + "\n"


def parse_module(text: str, origin: str, cache: yamlio.YamlCache | None = None) -> KnowledgeModule:
    """Validate one module; errors name ``origin`` and the offending field."""
    front, body = split_front_matter(text, origin, cache)
    for reserved in ("body", "sections", "source"):
        if reserved in front:
            raise ParseError(f"{origin}: front matter field {reserved!r} is reserved")
    try:
        module = KnowledgeModule.model_validate(
            {**front, "body": body, "sections": parse_sections(body), "source": origin}
        )
    except PydanticValidationError as exc:
        raise ParseError(f"{origin}: {_describe(exc)}") from exc
    stem = Path(origin).stem
    if module.id != stem:
        raise ParseError(f"{origin}: front matter field 'id': {module.id!r} differs from {stem!r}")
    return module


def _describe(exc: PydanticValidationError) -> str:
    problems = []
    for err in exc.errors():
        field = ".".join(str(p) for p in err["loc"]) or "front matter"
        msg = str(err["msg"]).removeprefix("Value error, ")
        problems.append(f"front matter field {field!r}: {msg}")
    return "; ".join(problems)


CACHE_FILE = "knowledge-front-matter.json"
"""The file, in a cache folder, that remembers parsed front matter (see
:class:`~simwright.yamlio.YamlCache`)."""


@cache
def _package_modules(cache_dir: Path | None) -> tuple[KnowledgeModule, ...]:
    folder = resources.files(PACKAGE).joinpath("modules")
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".md")), key=lambda f: f.name)
    yaml_cache = yamlio.YamlCache(cache_dir / CACHE_FILE if cache_dir is not None else None)
    found = tuple(
        parse_module(f.read_text(encoding="utf-8"), f"modules/{f.name}", yaml_cache) for f in files
    )
    yaml_cache.save()
    return found


def load_directory(
    folder: Path, cache: yamlio.YamlCache | None = None
) -> tuple[KnowledgeModule, ...]:
    """The modules in ``folder`` (``*.md``, sorted by name)."""
    if not folder.is_dir():
        raise ParseError(f"no such knowledge folder: {folder}")
    return tuple(
        parse_module(path.read_text(encoding="utf-8"), str(path), cache)
        for path in sorted(folder.glob("*.md"))
    )


def load_modules(
    extra_dirs: Iterable[Path] = (), *, shipped: bool = True, cache_dir: Path | None = None
) -> list[KnowledgeModule]:
    """The shipped modules (unless ``shipped`` is False) and those in ``extra_dirs``.

    Ids must be unique; a duplicate is refused naming both files. ``cache_dir`` (an
    existing folder) remembers parsed front matter between processes.
    """
    found: list[KnowledgeModule] = list(_package_modules(cache_dir)) if shipped else []
    for folder in extra_dirs:
        found.extend(load_directory(Path(folder)))
    seen: dict[str, str] = {}
    for module in found:
        if module.id in seen:
            raise ParseError(
                f"knowledge module id {module.id!r} is defined twice: {seen[module.id]} "
                f"and {module.source}"
            )
        seen[module.id] = module.source
    return found


def get_module(module_id: str, modules: Iterable[KnowledgeModule]) -> KnowledgeModule:
    """The module called ``module_id``; the error lists the known ids."""
    modules = list(modules)
    for module in modules:
        if module.id == module_id:
            return module
    raise ParseError(
        f"unknown knowledge module {module_id!r}; known: {', '.join(m.id for m in modules)}"
    )
