"""Typed configuration of the agent layer, read once at the edge and then injected.

A model is named ``provider:model`` (``openai:gpt-4o``, ``anthropic:claude-sonnet-4-5``,
``gemini:gemini-2.5-flash``, ``ollama:qwen2.5:7b``, ``vllm:Qwen/Qwen2.5-7B-Instruct``,
``openai-compatible:NAME`` with a base URL). A role has a tuple of tiers, from the
cheapest to the most capable; each tier gets ``attempts`` tries before the next one.

Sources, the environment winning over ``$SIMWRIGHT_HOME/config.toml`` (table ``[agents]``):

- ``SIMWRIGHT_MODEL``: tiers of every role, comma-separated (``ollama:qwen2.5,openai:gpt-4o``);
- ``SIMWRIGHT_MODEL_<ROLE>`` for ``ORCHESTRATOR``, ``EXECUTOR``, ``ANNOTATOR``, ``SELECTOR``,
  ``SUMMARIZER``; ``SIMWRIGHT_MODEL_CRITICS``: one critic per ``;``-separated entry;
- ``SIMWRIGHT_MODEL_BASE_URL``, ``SIMWRIGHT_MODEL_API_KEY``: an OpenAI-compatible server;
- ``SIMWRIGHT_MODEL_ATTEMPTS`` (K), ``SIMWRIGHT_AGENT_MAX_REQUESTS``,
  ``SIMWRIGHT_AGENT_MAX_TOKENS``, ``SIMWRIGHT_AGENT_MAX_COST_USD``;
- provider keys: ``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY`` (or
  ``GOOGLE_API_KEY``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic import ValidationError as PydanticValidationError

from simwright.agents.errors import AgentConfigError
from simwright.agents.usage.caps import Caps, Price

Role = Literal["orchestrator", "executor", "annotator", "selector", "critic", "summarizer"]
ROLES: tuple[Role, ...] = (
    "orchestrator",
    "executor",
    "annotator",
    "selector",
    "critic",
    "summarizer",
)
SINGLE_ROLES: tuple[Role, ...] = ("orchestrator", "executor", "annotator", "selector", "summarizer")
_FROZEN = ConfigDict(frozen=True, extra="forbid")
BUILTIN_EXECUTORS = ("protocol", "lammps", "ase", "packmol", "analysis", "pwx")

HOW_TO_CONFIGURE = """\
No language model is configured. Configure one of:
  export SIMWRIGHT_MODEL=openai:gpt-4o-mini         (and OPENAI_API_KEY)
  export SIMWRIGHT_MODEL=anthropic:claude-sonnet-4-5 (and ANTHROPIC_API_KEY)
  export SIMWRIGHT_MODEL=gemini:gemini-2.5-flash     (and GEMINI_API_KEY)
  a local server speaking the OpenAI API (vLLM, Ollama, llama.cpp server):
  export SIMWRIGHT_MODEL=ollama:qwen2.5:7b            (default http://localhost:11434/v1)
  export SIMWRIGHT_MODEL=openai-compatible:NAME SIMWRIGHT_MODEL_BASE_URL=http://host:8000/v1
Tiers escalate left to right: SIMWRIGHT_MODEL=ollama:qwen2.5:7b,openai:gpt-4o
or the [agents] table of $SIMWRIGHT_HOME/config.toml (see docs/agents.md).
Without a model, a known procedure runs deterministically:
  simwright run "<request>"
"""


class ModelRef(BaseModel):
    """One model: its ``provider:model`` name, an optional server URL, its attempts (K)."""

    model_config = _FROZEN

    name: str = Field(pattern=r"^[A-Za-z0-9_.\-]+:.+$")
    base_url: str | None = None
    attempts: int = Field(default=2, ge=1, le=10)

    @property
    def provider(self) -> str:
        """The part before the first colon."""
        return self.name.split(":", 1)[0].lower()

    @property
    def model(self) -> str:
        """The part after the first colon (may itself contain colons: ``qwen2.5:7b``)."""
        return self.name.split(":", 1)[1]


class RoleConfig(BaseModel):
    """The tiers of one role, cheapest first."""

    model_config = _FROZEN

    tiers: tuple[ModelRef, ...] = Field(min_length=1)

    def label(self) -> str:
        """``a -> b`` naming the tiers."""
        return " -> ".join(t.name for t in self.tiers)


class McpServerConfig(BaseModel):
    """An external executor: an MCP server reached over stdio (``command``) or streamable
    HTTP (``url``), with an optional allowlist of the tools offered to the executor."""

    model_config = _FROZEN

    command: tuple[str, ...] | None = Field(default=None, min_length=1)
    url: str | None = Field(default=None, pattern=r"^https?://")
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    tools: tuple[str, ...] | None = None
    """Only these tools are offered (None: every tool the server lists)."""
    timeout_s: float = Field(default=120.0, gt=0, le=3600)
    description: str = Field(default="", max_length=500)

    @model_validator(mode="after")
    def _one_transport(self) -> McpServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError("an MCP server needs exactly one of command (stdio) and url (HTTP)")
        return self


class AgentSettings(BaseModel):
    """Everything the agent layer is configured with; built at the edge, then passed down.

    ``roles`` maps a role to its tiers; a role not listed uses the orchestrator's.
    ``critics`` holds one :class:`RoleConfig` per critic of the committee.
    """

    model_config = _FROZEN

    roles: dict[Role, RoleConfig]
    critics: tuple[RoleConfig, ...] = ()
    api_keys: dict[str, SecretStr] = Field(default_factory=dict)
    critic_turns: int = Field(default=2, ge=0, le=10)
    concern_threshold: float = Field(default=0.5, ge=0, le=1)
    subtask_attempts: int = Field(default=2, ge=1, le=10)
    executor_iterations: int = Field(default=16, ge=2, le=200)
    max_subtasks: int = Field(default=12, ge=1, le=50)
    max_clarifications: int = Field(default=2, ge=0, le=5)
    max_md_steps: int = Field(default=1_000_000, ge=0)
    engine_timeout_s: float = Field(default=1800.0, gt=0)
    trace_rtol: float = Field(default=1e-3, gt=0, lt=1)
    memory_min_similarity: float = Field(default=0.35, ge=0, le=1)
    request_timeout_s: float = Field(default=300.0, gt=0, le=3600)
    """Seconds one HTTP attempt to a provider may take (the client's timeout)."""
    provider_retries: int = Field(default=2, ge=0, le=10)
    """Retries of the provider client (429 with ``retry-after``, 5xx, timeouts) before a
    request counts as a failed attempt of its tier."""
    stream: bool = False
    """Ask providers for streamed replies (server-sent events), assembled before use."""
    hold_on_fail: bool = False
    """A committee verdict of Fail stops the run for a person instead of letting the
    orchestrator go on (``simwright ask --approve`` / ``--continue`` resume it)."""
    caps: Caps = Field(default_factory=lambda: Caps())
    prices: dict[str, Price] = Field(default_factory=dict)
    mcp: dict[str, McpServerConfig] = Field(default_factory=dict)
    """External executors over MCP by executor name (``[agents.mcp.NAME]``)."""

    @model_validator(mode="after")
    def _mcp_names(self) -> AgentSettings:
        for name in self.mcp:
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name) or name in BUILTIN_EXECUTORS:
                raise ValueError(
                    f"MCP executor name {name!r}: lower-case letters, digits and _ , "
                    f"not one of {', '.join(BUILTIN_EXECUTORS)}"
                )
        return self

    def role(self, role: Role) -> RoleConfig:
        """The tiers of ``role`` (the orchestrator's when the role has none of its own)."""
        if role == "critic":
            raise AgentConfigError("critics are configured one by one: use .critics")
        if role in self.roles:
            return self.roles[role]
        if "orchestrator" not in self.roles:
            raise AgentConfigError(f"no model for role {role!r} and no orchestrator model")
        return self.roles["orchestrator"]

    def key(self, provider: str) -> str | None:
        """The API key configured for ``provider`` (None when there is none)."""
        secret = self.api_keys.get(provider)
        return secret.get_secret_value() if secret is not None else None


def parse_tiers(text: str, base_url: str | None = None, attempts: int | None = None) -> RoleConfig:
    """``a,b`` -> a role whose tiers are ``a`` then ``b``."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    extra: dict[str, Any] = {"base_url": base_url}
    if attempts is not None:
        extra["attempts"] = attempts
    return RoleConfig(tiers=tuple(ModelRef(name=n, **extra) for n in names))


def _file_roles(data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for role, value in dict(data.get("roles", {})).items():
        out[role] = value if isinstance(value, str) else ",".join(value)
    return out


def load_agent_settings(
    env: Mapping[str, str] | None = None, home: Path | None = None
) -> AgentSettings:
    """Read the agent configuration (see the module docstring); raise when no model is set.

    Call this at the edge only (the CLI, the service); everything below takes the value.
    """
    env = os.environ if env is None else env
    data = _agents_table(home)
    try:
        return _build(env, data)
    except PydanticValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise AgentConfigError(f"invalid agent configuration: {problems}") from exc


def _build(env: Mapping[str, str], data: Mapping[str, Any]) -> AgentSettings:
    base_url = env.get("SIMWRIGHT_MODEL_BASE_URL", data.get("base_url"))
    attempts_raw = env.get("SIMWRIGHT_MODEL_ATTEMPTS", data.get("attempts"))
    try:
        attempts = int(attempts_raw) if attempts_raw not in (None, "") else None
    except ValueError as exc:
        raise AgentConfigError(
            f"SIMWRIGHT_MODEL_ATTEMPTS must be an integer: {attempts_raw!r}"
        ) from exc
    default = env.get("SIMWRIGHT_MODEL", data.get("model"))
    file_roles = _file_roles(data)
    roles: dict[str, RoleConfig] = {}
    for role in SINGLE_ROLES:
        text = env.get(f"SIMWRIGHT_MODEL_{role.upper()}", file_roles.get(role))
        if text:
            roles[role] = parse_tiers(text, base_url, attempts)
    if default and "orchestrator" not in roles:
        roles["orchestrator"] = parse_tiers(default, base_url, attempts)
    if "orchestrator" not in roles:
        raise AgentConfigError(HOW_TO_CONFIGURE)
    critics_text = env.get("SIMWRIGHT_MODEL_CRITICS")
    critic_items = critics_text.split(";") if critics_text else list(data.get("critics", []))
    critics = tuple(
        parse_tiers(c if isinstance(c, str) else ",".join(c), base_url, attempts)
        for c in critic_items
        if c
    )
    caps = dict(data.get("caps", {}))
    for key, name in (
        ("max_requests", "SIMWRIGHT_AGENT_MAX_REQUESTS"),
        ("max_tokens", "SIMWRIGHT_AGENT_MAX_TOKENS"),
        ("max_cost_usd", "SIMWRIGHT_AGENT_MAX_COST_USD"),
    ):
        if env.get(name):
            caps[key] = env[name]
    options = {k: v for k, v in data.items() if k in AgentSettings.model_fields}
    options.pop("roles", None)
    options.pop("critics", None)
    return AgentSettings.model_validate(
        {
            **options,
            "roles": roles,
            "critics": critics,
            "caps": caps,
            "api_keys": _keys(env),
        }
    )


def _keys(env: Mapping[str, str]) -> dict[str, str]:
    keys: dict[str, str] = {}
    pairs = (
        ("openai", "OPENAI_API_KEY"),
        ("anthropic", "ANTHROPIC_API_KEY"),
        ("gemini", "GEMINI_API_KEY"),
        ("gemini", "GOOGLE_API_KEY"),
        ("compatible", "SIMWRIGHT_MODEL_API_KEY"),
    )
    for provider, name in pairs:
        if env.get(name) and provider not in keys:
            keys[provider] = env[name]
    return keys


def _agents_table(home: Path | None) -> dict[str, Any]:
    if home is None:
        return {}

    path = home / "config.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise AgentConfigError(f"{path}: invalid TOML: {exc}") from exc
    table = data.get("agents", {})
    if not isinstance(table, dict):
        raise AgentConfigError(f"{path}: [agents] must be a table")
    return table
