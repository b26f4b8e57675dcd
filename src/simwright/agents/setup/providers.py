"""From a :class:`~simwright.agents.setup.config.ModelRef` to a pydantic-ai ``Model``.

Keys come from :class:`~simwright.agents.setup.config.AgentSettings` (read at the edge), never
from the environment here.

| provider | how |
|---|---|
| ``openai`` | OpenAI chat completions (a ``base_url`` makes it any compatible server) |
| ``anthropic`` | Anthropic messages API |
| ``gemini`` | Google's OpenAI-compatible endpoint (needs only the ``openai`` client) |
| ``google-gla``, ``google-vertex`` | pydantic-ai's Google model (``pydantic-ai-slim[google]``) |
| ``openai-compatible``, ``local`` | any OpenAI-compatible server at ``base_url`` |
| ``ollama``, ``vllm``, ``llamacpp`` | the same, with the server's usual local URL as default |

Every model is built with the client settings of :class:`AgentSettings`: the timeout of
one HTTP attempt (``request_timeout_s``) and the client's retries (``provider_retries``:
HTTP 429 honouring ``retry-after``, 5xx, timeouts). An ``anthropic`` model with a
``base_url`` talks to that server (a proxy, a gateway, the test server of
``tests/helpers/llm_server.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.agents.errors import AgentConfigError
from simwright.agents.setup.config import AgentSettings, ModelRef

if TYPE_CHECKING:
    from pydantic_ai.models import Model
    from pydantic_ai.settings import ModelSettings

GEMINI_OPENAI_URL = "https://generativelanguage.googleapis.com/v1beta/openai/"
LOCAL_URLS: dict[str, str] = {
    "ollama": "http://localhost:11434/v1",
    "vllm": "http://localhost:8000/v1",
    "llamacpp": "http://localhost:8080/v1",
}
COMPATIBLE = frozenset({"openai-compatible", "local", *LOCAL_URLS})
INSTALL_HINT = "install the agents extra: pip install 'simwright[agents]'"


def build_model(ref: ModelRef, settings: AgentSettings) -> Model:
    """The pydantic-ai model for ``ref``; :class:`AgentConfigError` when it cannot be built."""
    try:
        return _build(ref, settings)
    except ImportError as exc:
        raise AgentConfigError(f"model {ref.name!r}: {exc}; {INSTALL_HINT}") from exc
    except AgentConfigError:
        raise
    except Exception as exc:  # pydantic-ai reports a missing key or package as UserError
        raise AgentConfigError(f"model {ref.name!r} cannot be used: {exc}") from exc


def _build(ref: ModelRef, settings: AgentSettings) -> Model:
    provider = ref.provider
    if provider in COMPATIBLE or (provider == "openai" and ref.base_url):
        url = ref.base_url or LOCAL_URLS.get(provider)
        if url is None:
            raise AgentConfigError(
                f"model {ref.name!r} needs a server URL: set SIMWRIGHT_MODEL_BASE_URL"
            )
        key = settings.key("compatible") or settings.key("openai") or "not-needed"
        return _openai(ref.model, url, key, settings)
    if provider == "openai":
        key = _required_key(settings, "openai", "OPENAI_API_KEY")
        return _openai(ref.model, None, key, settings)
    if provider == "gemini":
        key = _required_key(settings, "gemini", "GEMINI_API_KEY")
        return _openai(ref.model, ref.base_url or GEMINI_OPENAI_URL, key, settings)
    if provider == "anthropic":
        # lazy: optional extra [agents]
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        key = _required_key(settings, "anthropic", "ANTHROPIC_API_KEY")
        return AnthropicModel(
            ref.model,
            provider=AnthropicProvider(api_key=key, base_url=ref.base_url),
            settings=client_settings(settings),
        )
    if provider in ("google-gla", "google-vertex"):
        # lazy: optional extra [agents]
        from pydantic_ai.models import infer_model

        return infer_model(ref.name)
    raise AgentConfigError(
        f"unknown model provider {provider!r} in {ref.name!r}; use openai, anthropic, gemini, "
        "google-gla, ollama, vllm, llamacpp or openai-compatible (with a base URL)"
    )


def client_settings(settings: AgentSettings) -> ModelSettings:
    """The provider client's timeout (per HTTP attempt) and retries."""
    return {"timeout": settings.request_timeout_s, "max_retries": settings.provider_retries}


def _openai(name: str, base_url: str | None, key: str, settings: AgentSettings) -> Model:
    # lazy: optional extra [agents]
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    return OpenAIChatModel(
        name,
        provider=OpenAIProvider(base_url=base_url, api_key=key),
        settings=client_settings(settings),
    )


def _required_key(settings: AgentSettings, provider: str, variable: str) -> str:
    key = settings.key(provider)
    if not key:
        raise AgentConfigError(f"{provider} models need an API key: set {variable}")
    return key
