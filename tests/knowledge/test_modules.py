"""Knowledge modules: every shipped module validates, broken ones fail clearly, sections,
consistency with the protocols that execute them, and the `knowledge` CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from simwright.cli.knowledge import knowledge_app
from simwright.errors import ParseError
from simwright.knowledge.modules import KnowledgeModule, get_module, load_modules, parse_module
from simwright.knowledge.sections import parse_sections
from simwright.protocols import load_protocols

MODULES = load_modules()
IDS = [m.id for m in MODULES]
REQUIRED_IDS = {
    "self_diffusion_liquids": "diffusivity",
    "li_ion_diffusivity_carbonate_electrolytes": "electrolyte_diffusivity",
    "li_diffusion_argyrodite": "solid_electrolyte_diffusivity",
    "green_kubo_thermal_conductivity": "thermal_conductivity",
    "metal_deposition_on_slab": None,
    "gcmc_adsorption_desorption_campaign": None,
    "dft_scf": "dft_scf",
    "dft_relaxation": "dft_relax",
    "dft_equation_of_state": "dft_eos",
    "lattice_constant_eos_ase": "lattice_constant",
}

GOOD = """---
id: toy
title: A toy module for tests
domain: molecular_dynamics
protocol: null
pending: never meant to run
keywords: [toy]
parameters:
  temperature_k:
    type: float
    unit: K
    gt: 0
    default: 300
    description: temperature
references:
  - key: nobody
    citation: Nobody, A toy reference (2026)
    used_for: testing
---
# Toy

## Preparation

Text.

```
## not a heading
```

### Box

Box text.

## Production

Run it.
"""


def test_the_required_modules_ship_with_their_protocols() -> None:
    assert {m.id: m.protocol for m in MODULES if m.id in REQUIRED_IDS} == REQUIRED_IDS


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_every_shipped_module_is_complete(module: KnowledgeModule) -> None:
    top = [c.title for c in module.sections.children]
    for section in ("Preparation", "Equilibration", "Production", "Analysis", "Reporting"):
        assert section in top, f"{module.id} lacks ## {section}"
    assert module.references and module.keywords and module.parameters
    assert (module.protocol is None) == (module.pending is not None)
    for name, spec in module.parameters.items():
        assert spec.description, name
        if spec.type == "choice":
            assert spec.choices, name


def test_module_ids_are_unique_and_match_files() -> None:
    assert len(IDS) == len(set(IDS)) >= 9
    assert all(m.source == f"modules/{m.id}.md" for m in MODULES)


def _required(module: KnowledgeModule) -> dict[str, str]:
    """Values for the module's required substance parameters (an element or a formula)."""
    return {
        n: "Cu" if s.type == "element" else "Si"
        for n, s in module.parameters.items()
        if s.required and (s.type == "element" or n == "formula")
    }


@pytest.mark.parametrize(
    "module", [m for m in MODULES if m.protocol], ids=[m.id for m in MODULES if m.protocol]
)
def test_module_defaults_are_the_protocols_own(module: KnowledgeModule) -> None:
    protocols = load_protocols()
    if module.protocol not in protocols:
        pytest.skip(f"protocol {module.protocol} is not installed")
    proto = protocols[module.protocol]
    fields = proto.parameters.model_fields
    aliases = set(module.parameters) - set(fields)
    for name in aliases:  # user-facing names the protocol's model translates (e.g. DFT's)
        spec = module.parameters[name]
        if spec.default is not None:
            proto.validate({name: spec.coerce(spec.default), **_required(module)})
    drivers = {next(iter(s.default_by)) for s in module.parameters.values() if s.default_by}
    scenarios: list[dict[str, str]] = [{}]
    for driver in drivers:
        scenarios = [{driver: value} for value in module.parameters[driver].choices or {}]
    for raw in scenarios:
        validated = proto.validate({**raw, **_required(module)}).model_dump()
        for name, spec in module.parameters.items():
            if name in aliases:
                continue
            if spec.default_by:
                ((driver, table),) = spec.default_by.items()
                expected = table.get(str(validated[driver]))
            else:
                expected = spec.default
            if expected is not None:
                value = validated[name]
                if isinstance(value, dict) and "kind" in value:
                    value = value["kind"]  # DFT: the module's structure kind, built out
                assert value == spec.coerce(expected), (module.id, raw, name)


def test_sections_form_a_tree_and_skip_code_fences() -> None:
    module = parse_module(GOOD, "toy.md")
    assert module.sections.title == "Toy"
    assert module.sections.paths() == ["Preparation", "Preparation/Box", "Production"]
    assert module.section("preparation/box").text == "Box text."
    assert "## not a heading" in module.section("Preparation").text
    rendered = module.section("Preparation").render()
    assert rendered.startswith("## Preparation") and "### Box" in rendered
    with pytest.raises(ParseError, match=r"no section 'Analysis'.*Preparation/Box"):
        module.section("Analysis")


def test_a_body_without_a_title_keeps_a_root() -> None:
    root = parse_sections("intro\n\n## A\n\na\n\n## B\n\nb\n")
    assert root.level == 0 and root.text == "intro" and root.paths() == ["A", "B"]


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        (("unit: K", "unit: kelvinz"), "'parameters.temperature_k.unit': 'kelvinz' is not a unit"),
        (("default: 300", "default: -3"), "'parameters.temperature_k'.*greater than 0"),
        (("domain: molecular_dynamics", "domain: cooking"), "'domain'"),
        (("keywords: [toy]", "keywords: [toy]\ncolour: red"), "'colour'"),
        (("pending: never meant to run\n", ""), "says why in 'pending'"),
        (("    used_for: testing", "    used_for: testing\n    doi: nope"), "is not a DOI"),
        (("id: toy", "id: other"), "'id': 'other' differs from 'toy'"),
        (("title: A toy module for tests", "title: broken: yaml: here"), "invalid YAML"),
        (("type: float", "type: choice"), "needs 'choices'"),
    ],
)
def test_a_broken_front_matter_names_the_file_and_field(
    mutation: tuple[str, str], message: str
) -> None:
    old, new = mutation
    assert old in GOOD
    with pytest.raises(ParseError, match=f"^toy.md: .*{message}"):
        parse_module(GOOD.replace(old, new, 1), "toy.md")


def test_a_module_without_front_matter_is_refused() -> None:
    with pytest.raises(ParseError, match="starts with a '---'"):
        parse_module("# just markdown\n", "plain.md")
    with pytest.raises(ParseError, match="no closing '---'"):
        parse_module("---\nid: x\n", "open.md")


def test_default_by_must_name_a_choice_parameter() -> None:
    text = GOOD.replace("    default: 300\n", "    default_by: {system: {a: 300}}\n")
    with pytest.raises(ParseError, match="default_by names 'system'"):
        parse_module(text, "toy.md")


def test_extra_folders_are_loaded_and_duplicates_refused(tmp_path: Path) -> None:
    (tmp_path / "toy.md").write_text(GOOD)
    modules = load_modules([tmp_path])
    assert get_module("toy", modules).parameters["temperature_k"].unit == "K"
    with pytest.raises(ParseError, match="defined twice"):
        load_modules([tmp_path, tmp_path])
    with pytest.raises(ParseError, match="unknown knowledge module 'nope'"):
        get_module("nope", modules)
    with pytest.raises(ParseError, match="no such knowledge folder"):
        load_modules([tmp_path / "missing"])


@pytest.fixture
def knowledge_cli():
    app = typer.Typer()
    app.add_typer(knowledge_app, name="knowledge")
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, ["knowledge", *args])
        return result.exit_code, result.stdout

    return invoke


def test_knowledge_list_show_and_search(knowledge_cli, tmp_path: Path) -> None:
    code, out = knowledge_cli("list", "--json")
    listed = {m["id"]: m["protocol"] for m in json.loads(out)["modules"]}
    assert code == 0 and listed["self_diffusion_liquids"] == "diffusivity"
    assert listed["li_ion_diffusivity_carbonate_electrolytes"] == "electrolyte_diffusivity"

    code, out = knowledge_cli(
        "show", "self_diffusion_liquids", "--section", "Analysis/Finite-size correction"
    )
    assert code == 0 and out.startswith("### Finite-size correction") and "2.837297" in out

    code, out = knowledge_cli("show", "green_kubo_thermal_conductivity", "--json")
    data = json.loads(out)
    assert code == 0 and data["parameters"]["correlation_ps"]["unit"] == "ps"
    assert "Production/NVE run" in data["sections"]

    code, out = knowledge_cli("search", "heat flux autocorrelation", "--json")
    assert (
        code == 0 and json.loads(out)["results"][0]["module"] == "green_kubo_thermal_conductivity"
    )

    (tmp_path / "toy.md").write_text(GOOD)
    code, out = knowledge_cli("show", "toy", "--knowledge-dir", str(tmp_path))
    assert code == 0 and "temperature_k [K]: float, default 300" in out


def test_knowledge_show_errors_exit_2(knowledge_cli) -> None:
    code, out = knowledge_cli("show", "self_diffusion_liquids", "--section", "Nope", "--json")
    assert code == 2 and "no section 'Nope'" in json.loads(out)["error"]
    code, out = knowledge_cli("show", "nope", "--json")
    assert code == 2 and json.loads(out)["status"] == "error"


def test_the_knowledge_cli_imports_nothing_heavy() -> None:
    code = (
        "import sys, simwright.cli.knowledge; "
        "print(sorted(m for m in ('ase', 'pint', 'yaml', 'pydantic') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


def test_units_taken_without_pint_are_units_pint_parses() -> None:
    from simwright.knowledge.schema import PARSED_UNITS  # lazy: this test only
    from simwright.units import unit_registry  # lazy: this test only

    for unit in PARSED_UNITS:
        unit_registry().parse_units(unit)  # raises for a unit pint does not know


def test_the_shipped_modules_use_only_units_known_without_pint() -> None:
    """A new unit in a shipped module would build pint's registry (~0.3 s) in every
    command that plans: add it to PARSED_UNITS (the test above checks it parses)."""
    from simwright.knowledge.schema import PARSED_UNITS  # lazy: this test only

    used = {
        spec.unit
        for module in load_modules()
        for spec in module.parameters.values()
        if spec.unit is not None
    }
    assert used and used <= PARSED_UNITS, sorted(used - PARSED_UNITS)
