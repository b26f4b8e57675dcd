"""The optional agent layer (``pip install 'simwright[agents]'``).

Language models act only at planning, authoring and review points; whatever they
return is parsed into typed values and validated before it can act. Submodules are
imported where they are used, so importing this package is cheap and needs no
model library: :mod:`simwright.agents.usage.view` (the usage ledger as ``simwright
show`` prints it) works without ``pydantic-ai``.

Map of the package:

- configuration: :mod:`.config` (``AgentSettings``), :mod:`.providers` (model names to
  models), :mod:`.tiers` (escalation), :mod:`.context` (the injected bundle),
  :mod:`.setup` (assembly at the edge), :mod:`.errors`, :mod:`.prompts`;
- metering: :mod:`.tokens`, :mod:`.ledger`, :mod:`.metered`, :mod:`.records`,
  :mod:`.usage_view`;
- planning and orchestration: :mod:`.planning`, :mod:`.article`, :mod:`.clarify`,
  :mod:`.board`, :mod:`.updates`, :mod:`.orchestrator`, :mod:`.protocol_tool`;
- executors: :mod:`.executor`, :mod:`.toolbox`, :mod:`.adapters`, :mod:`.adapters_specs`,
  :mod:`.docs_search`, :mod:`.memory`, :mod:`.transcript`;
- review and safety: :mod:`.critics`, :mod:`.fabrication`, :mod:`.reports`;
- typed model replies: :mod:`.replies`;
- seams of other layers: :mod:`.hooks` (graph decider, campaign reviewer, DFT fixes);
- tests and benchmarks: :mod:`.scripted`; the command line: :mod:`.cli`.
"""
