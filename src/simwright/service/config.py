"""The service's configuration: who may call it (hashed tokens with scopes), where it binds.

Tokens live in the home's ``config.toml``, hashed (sha256; a token is 32 random bytes,
so no salt is needed), each with a name and its scopes::

    [[service.tokens]]
    name = "lab-laptop"
    sha256 = "9f86d0..."
    scopes = ["read", "run"]

``read`` lets a caller list and read runs, ``run`` submit, cancel and resume them,
``review`` answer a pending decision point. A service bound to an address other than
the loopback refuses to start without a token.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simwright.errors import ParseError, PolicyError

SCOPES = ("read", "run", "review")
"""What a token may do."""


@dataclass(frozen=True)
class Token:
    """A token as stored: its name, hash and scopes (never the token itself)."""

    name: str
    sha256: str
    scopes: frozenset[str]


@dataclass(frozen=True)
class ServiceConfig:
    """The ``[service]`` table of ``config.toml``."""

    tokens: tuple[Token, ...] = ()

    def find(self, token: str) -> Token | None:
        """The stored token whose hash is that of ``token`` (compared in constant time)."""
        digest = hash_token(token)
        found = None
        for t in self.tokens:
            if hmac.compare_digest(t.sha256, digest):
                found = t
        return found


class TokenRefused(PolicyError):
    """A caller without a valid token (``status`` 401) or without the scope (403)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


LOCAL = "local"
"""Who a caller is when no token is configured (a service on the loopback only)."""


def authorize(config: ServiceConfig, header: str | None, scope: str) -> str:
    """The caller's name (its token's) after checking an ``Authorization`` header for
    ``scope``: :data:`LOCAL` without tokens; else :class:`TokenRefused` without a bearer
    token, with an unknown one (401) or with one that lacks the scope (403). The
    service, its dashboard and the MCP server all call it."""
    if not config.tokens:
        return LOCAL
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenRefused("a token is required: Authorization: Bearer <token>", 401)
    found = config.find(token.strip())
    if found is None:
        raise TokenRefused("unknown token", 401)
    if scope not in found.scopes:
        raise TokenRefused(f"token {found.name!r} lacks the scope {scope!r}", 403)
    return found.name


def hash_token(token: str) -> str:
    """The sha256 hex digest stored for ``token``."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_binding(host: str, config: ServiceConfig) -> None:
    """Refuse (:class:`PolicyError`) to serve an address beyond the loopback without a token."""
    if not is_loopback(host) and not config.tokens:
        raise PolicyError(
            f"refusing to serve on {host}: an address other than the loopback needs a "
            "token (create one with `simwright serve-token NAME --scope read --scope run`)"
        )


def load_service_config(home: Path) -> ServiceConfig:
    """Read ``[service]`` from ``home/config.toml`` (an empty configuration when absent)."""
    path = home / "config.toml"
    if not path.is_file():
        return ServiceConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"{path}: {exc}") from exc
    table = data.get("service", {})
    if not isinstance(table, dict):
        raise ParseError(f"{path}: [service] must be a table")
    return ServiceConfig(tuple(_token(t, path) for t in table.get("tokens", [])))


def _token(raw: Any, path: Path) -> Token:
    if not isinstance(raw, dict) or not {"name", "sha256", "scopes"} <= set(raw):
        raise ParseError(f"{path}: each [[service.tokens]] needs name, sha256 and scopes")
    scopes = raw["scopes"]
    if not isinstance(scopes, list) or not set(scopes) <= set(SCOPES):
        raise ParseError(f"{path}: token {raw['name']!r}: scopes must be among {SCOPES}")
    digest = str(raw["sha256"])
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ParseError(f"{path}: token {raw['name']!r}: sha256 must be 64 hex digits")
    return Token(str(raw["name"]), digest, frozenset(scopes))


def add_token(home: Path, name: str, scopes: tuple[str, ...]) -> str:
    """Create a token, store its hash in ``home/config.toml`` and return the token (shown
    once; only its hash is kept)."""
    if not name or not all(c.isalnum() or c in "-_." for c in name):
        raise ParseError(f"token name {name!r}: use letters, digits, '-', '_' or '.'")
    bad = [s for s in scopes if s not in SCOPES]
    if bad or not scopes:
        raise ParseError(f"scopes must be among {', '.join(SCOPES)}; got {', '.join(scopes)}")
    config = load_service_config(home)
    if any(t.name == name for t in config.tokens):
        raise ParseError(f"a token named {name!r} exists already")
    token = secrets.token_urlsafe(32)
    listed = ", ".join(f'"{s}"' for s in dict.fromkeys(scopes))
    path = home / "config.toml"
    home.mkdir(parents=True, exist_ok=True)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    entry = (
        f'[[service.tokens]]\nname = "{name}"\n'
        f'sha256 = "{hash_token(token)}"\nscopes = [{listed}]\n'
    )
    path.write_text(text + ("\n" if text and not text.endswith("\n") else "") + "\n" + entry)
    load_service_config(home)  # the file must still read
    return token
