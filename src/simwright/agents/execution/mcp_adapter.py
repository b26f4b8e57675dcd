"""External executors: an MCP server's tools behind the executors' shared, checked tools.

An MCP server configured as ``[agents.mcp.NAME]`` (stdio ``command`` or streamable
HTTP ``url``) becomes the executor ``NAME``. Its tools are listed once, when the
adapter is built (:func:`connect_mcp`), and offered to the executor model under the
same interface as every engine: the model writes a *call spec* with ``write_script``
(YAML: ``tool`` and ``arguments``), which is checked deterministically — the tool
must be listed (and allowed), the arguments must satisfy its input JSON schema — and
``run`` makes the call. Nothing the server returns is used as it came:

- typed values (the structured result, or the text of an error) are written to
  ``<spec>.json``, whose numbers the fabrication guard traces by key path;
- a crystal returned as CIF (a ``cif`` field) is written to ``<spec>.cif`` and
  converted to the contract's ``<spec>.extxyz``, which must pass the structure
  sanity check (no atoms closer than 0.55 Å) — otherwise the call fails and no
  structure file is left for later subtasks.

File names are the framework's own (from the checked spec's name), never the
server's. Each call opens its own session (stdio: the server process starts and
ends with the call), so a crashed server costs one call, not the run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import yaml
from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from simwright.agents.errors import AgentConfigError
from simwright.agents.execution.adapters import Check, JobResult
from simwright.agents.review.reports import single_atoms
from simwright.agents.setup.config import McpServerConfig
from simwright.contract import write_structure
from simwright.structure import Structure

if TYPE_CHECKING:
    from mcp import Client

STRUCTURE_KEYS = ("cif",)
"""Fields of a structured result holding a crystal as text."""


class McpCall(BaseModel):
    """The call spec an MCP executor writes: which tool, with which arguments."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool: str = Field(min_length=1, max_length=120)
    arguments: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class McpTool:
    """A tool the server lists: name, description, input JSON schema."""

    name: str
    description: str
    input_schema: Mapping[str, Any]

    def line(self) -> str:
        """The tool as the executor and orchestrator read it."""
        props = self.input_schema.get("properties", {})
        required = set(self.input_schema.get("required", []))
        args = ", ".join(
            f"{k}: {v.get('type', 'any')}{'' if k in required else '?'}" for k, v in props.items()
        )
        return f"{self.name}({args}): {self.description.strip()[:300]}"


def _client(config: McpServerConfig) -> Client:
    # lazy: optional extra [mcp]
    from mcp import Client, StdioServerParameters

    if config.url is not None:
        return Client(config.url, read_timeout_seconds=config.timeout_s)
    assert config.command is not None  # one transport, checked by the config
    params = StdioServerParameters(
        command=config.command[0],
        args=list(config.command[1:]),
        env=dict(config.env) or None,
        cwd=config.cwd,
    )
    return Client(params, read_timeout_seconds=config.timeout_s)


async def _list(config: McpServerConfig) -> list[McpTool]:
    async with _client(config) as client:
        listed = await client.list_tools()
    return [McpTool(t.name, t.description or "", dict(t.input_schema)) for t in listed.tools]


def connect_mcp(name: str, config: McpServerConfig) -> McpAdapter:
    """The adapter of the MCP server ``name``: its tools listed now (sync; call it at the
    edge, outside an event loop). :class:`AgentConfigError` when it cannot be reached."""
    try:
        tools = anyio.run(_list, config)
    except ImportError as exc:
        raise AgentConfigError(
            f"MCP executor {name!r}: pip install 'simwright[mcp]' ({exc})"
        ) from exc
    except Exception as exc:  # the server did not start or answer: said at the edge
        raise AgentConfigError(f"MCP executor {name!r} cannot be reached: {exc}") from exc
    allowed = [t for t in tools if config.tools is None or t.name in config.tools]
    missing = sorted(set(config.tools or ()) - {t.name for t in tools})
    if missing:
        raise AgentConfigError(f"MCP executor {name!r} lists no tool {missing}")
    return McpAdapter(name, config, tuple(allowed))


@dataclass(frozen=True)
class McpAdapter:
    """An MCP server as an executor: call specs checked against the listed tools."""

    name: str
    config: McpServerConfig
    tools: tuple[McpTool, ...]
    docs: str | None = None
    suffixes: tuple[str, ...] = (".yaml", ".yml")
    gated: bool = False
    _by_name: dict[str, McpTool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {t.name: t for t in self.tools})

    def guide(self) -> str:
        """What the executor model is told about this server."""
        lines = [
            f"Scripts are YAML call specs for the MCP server {self.name!r}: "
            "`tool: NAME` and `arguments: {...}`. run writes <spec>.json with the result; "
            "a crystal comes back as <spec>.extxyz (checked). Tools:"
        ]
        lines += [f"- {t.line()}" for t in self.tools]
        return "\n".join(lines)

    def summary(self) -> str:
        """One line for the orchestrator's plan prompt."""
        what = self.config.description or "external MCP server"
        return f"{self.name}: {what}; tools: {', '.join(t.name for t in self.tools)}"

    def check(self, script: Path, workdir: Path) -> Check:
        """The spec parses, names a listed tool, and its arguments match the tool's schema."""
        try:
            call = McpCall.model_validate(yaml.safe_load(script.read_text(encoding="utf-8")))
        except (yaml.YAMLError, PydanticValidationError, UnicodeDecodeError) as exc:
            return Check(False, f"not a call spec (tool, arguments): {exc}")
        tool = self._by_name.get(call.tool)
        if tool is None:
            return Check(False, f"unknown tool {call.tool!r}; tools: {', '.join(self._by_name)}")
        # lazy: optional extra [mcp]
        import jsonschema

        problems = sorted(
            f"{'/'.join(str(p) for p in e.absolute_path) or 'arguments'}: {e.message}"
            for e in jsonschema.Draft202012Validator(dict(tool.input_schema)).iter_errors(
                call.arguments
            )
        )
        if problems:
            return Check(
                False, "the arguments do not match the tool's schema:\n" + "\n".join(problems)
            )
        return Check(True, f"ok: {call.tool} with arguments that match its input schema")

    def run(self, script: Path, workdir: Path) -> JobResult:
        """Call the tool; write its values and structures as contract files."""
        call = McpCall.model_validate(yaml.safe_load(script.read_text(encoding="utf-8")))
        try:
            result = anyio.run(self._call, call)
        except Exception as exc:  # a server that crashed or timed out fails this call only
            return JobResult(False, f"the MCP call failed: {type(exc).__name__}: {exc}")
        stem = script.stem
        if result.is_error:
            text = " ".join(getattr(c, "text", "") for c in result.content)
            return JobResult(False, f"{call.tool} reported an error: {text[:1500]}")
        data = result.structured_content
        if not isinstance(data, dict):
            data = {"text": " ".join(getattr(c, "text", "") for c in result.content)}
        notes, problem = _structures(data, workdir, stem)
        (workdir / f"{stem}.json").write_text(json.dumps(data, indent=1, default=str))
        if problem:
            return JobResult(False, problem)
        listed = ", ".join(f"{k}={v!r}" for k, v in data.items() if not isinstance(v, dict | list))
        return JobResult(True, f"{call.tool} returned {stem}.json: {listed[:1500]}{notes}")

    async def _call(self, call: McpCall) -> Any:
        async with _client(self.config) as client:
            return await client.call_tool(call.tool, call.arguments)


def _structures(data: dict[str, Any], workdir: Path, stem: str) -> tuple[str, str | None]:
    """Write the crystals of ``data`` as ``<stem>.cif`` + ``<stem>.extxyz`` (the text is
    replaced by the file name); a note for the executor, or why they are refused."""
    notes = ""
    for key in STRUCTURE_KEYS:
        text = data.get(key)
        if not isinstance(text, str):
            continue
        cif = workdir / f"{stem}.cif"
        cif.write_text(text, encoding="utf-8")
        data[key] = cif.name
        try:
            structure = _read_cif(cif)
        except Exception as exc:  # a malformed file from outside is refused, not raised
            return notes, f"the returned {key} is not a readable crystal: {exc}"
        sanity = structure.sanity()
        if sanity.close_pairs:
            return notes, (
                f"refused: the returned crystal has {len(sanity.close_pairs)} atom pair(s) closer "
                "than 0.55 Å; no structure file was written"
            )
        write_structure(workdir / f"{stem}.extxyz", structure)
        notes += f"; {stem}.extxyz: {sanity.formula} ({sanity.n_atoms} atoms)"
    return notes, None


def _read_cif(path: Path) -> Structure:
    # lazy: ase.io takes ~1 s to import
    from ase.io import read

    return Structure.from_ase(single_atoms(read(str(path), format="cif")))
