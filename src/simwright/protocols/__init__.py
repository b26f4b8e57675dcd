"""Expert procedures as executable typed graphs, registered under ``simwright.protocols``."""

from simwright.protocols.registry import Protocol, load_protocols

__all__ = ["Protocol", "load_protocols"]
