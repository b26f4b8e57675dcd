"""The optional agent layer (``pip install 'simwright[agents]'``).

Language models act only at planning, authoring and review points; whatever they
return is parsed into typed values and validated before it can act. Submodules are
imported where they are used, so importing this package is cheap and needs no
model library: :mod:`simwright.agents.usage.view` (the usage ledger as ``simwright
show`` prints it) works without ``pydantic-ai``.

Map of the package:

- :mod:`.setup`: configuration (``AgentSettings``), providers (model names to models),
  tiers (escalation), the injected bundle, prompts;
- :mod:`.usage`: token counting, prices and caps, the ledger, metered models, records,
  the usage view;
- :mod:`.orchestration`: planning, articles, clarification, the board, updates, the
  orchestrator and the protocol tool;
- :mod:`.execution`: executors, their toolbox, engine adapters, documentation search,
  examples from memory, transcripts;
- :mod:`.review`: critics, the fabrication guard, reports;
- :mod:`.assemble` (the composition root, used at the edge), :mod:`.errors`,
  :mod:`.replies` (typed model replies), :mod:`.hooks` (graph decider, campaign
  reviewer, DFT fixes), :mod:`.scripted` (tests and benchmarks). The command line is
  :mod:`simwright.cli.ask`.
"""
