"""The MCP server: simwright's runs, documentation and reviews as tools of an agent.

Optional extra ``simwright[mcp]`` (the official ``mcp`` SDK). ``simwright mcp`` serves
it over stdio (an MCP client starts it) or streamable HTTP; see docs/service.md.
Every tool is a thin call of the Python API (:class:`simwright.api.Simwright`) or of
the knowledge and campaign layers, with the API's limits.
"""
