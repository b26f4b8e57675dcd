"""Where stored classes went when modules moved, so that runs stored earlier still resume.

The codec stores a class as ``module:qualname``. When a module moves or a class is
renamed, add the old name here (never remove one): :func:`simwright.graph.codec.load_class`
looks a stored name up in :data:`CLASS_RENAMES` first, then its module in
:data:`MODULE_RENAMES`. ``tests/fixtures/legacy_store`` holds runs stored before the
package reshaping of 0.2 and a test resumes them.
"""

from __future__ import annotations

from typing import Final

#: Old module -> new module (every class of the module moved with it).
MODULE_RENAMES: Final[dict[str, str]] = {
    # 0.2: packages by concept (engines/lammps, engines/espresso, engines/ase, cli,
    # agents by role, knowledge split into docs, memory and planner).
    "simwright.engines.lammps": "simwright.engines.lammps.segment",
    "simwright.engines.lammps_templates": "simwright.engines.lammps.templates",
    "simwright.engines.lammps_data": "simwright.engines.lammps.data",
    "simwright.engines.lammps_log": "simwright.engines.lammps.log",
    "simwright.engines.lammps_launcher": "simwright.engines.lammps.launcher",
    "simwright.engines.lammps_gcmc": "simwright.engines.lammps.gcmc",
    "simwright.engines.lammps_check": "simwright.engines.lammps.safety.check",
    "simwright.engines.lammps_policy": "simwright.engines.lammps.safety.policy",
    "simwright.engines.lammps_rules": "simwright.engines.lammps.safety.rules",
    "simwright.engines.lammps_paths": "simwright.engines.lammps.safety.paths",
    "simwright.engines.lammps_script": "simwright.engines.lammps.safety.script",
    "simwright.engines.lammps_variables": "simwright.engines.lammps.safety.variables",
    "simwright.engines.espresso": "simwright.engines.espresso.pw",
    "simwright.engines.espresso_contract": "simwright.engines.espresso.summary",
    "simwright.engines.espresso_input": "simwright.engines.espresso.template",
    "simwright.engines.espresso_launcher": "simwright.engines.espresso.launcher",
    "simwright.engines.espresso_output": "simwright.engines.espresso.parse",
    "simwright.engines.espresso_pseudo": "simwright.engines.espresso.pseudo",
    "simwright.engines.espresso_pseudo_library": "simwright.engines.espresso.pseudo_library",
    "simwright.engines.ase": "simwright.engines.ase.calculators",
    "simwright.engines.mlip": "simwright.engines.ase.mlip",
    "simwright.cli": "simwright.cli.main",
    "simwright.cli_common": "simwright.cli.common",
    "simwright.cli_progress": "simwright.cli.progress",
    "simwright.cli_views": "simwright.cli.views",
    "simwright.agents.cli": "simwright.cli.ask",
    "simwright.campaign.cli": "simwright.cli.campaign",
    "simwright.campaign.cli_progress": "simwright.cli.campaign_views",
    "simwright.dft.cli": "simwright.cli.dft",
    "simwright.knowledge.cli": "simwright.cli.knowledge",
    "simwright.knowledge.doc_cli": "simwright.cli.docs",
    "simwright.knowledge.memory_cli": "simwright.cli.memory",
    "simwright.agents.config": "simwright.agents.setup.config",
    "simwright.agents.providers": "simwright.agents.setup.providers",
    "simwright.agents.tiers": "simwright.agents.setup.tiers",
    "simwright.agents.context": "simwright.agents.setup.bundle",
    "simwright.agents.setup": "simwright.agents.assemble",
    "simwright.agents.prompts": "simwright.agents.setup.prompts",
    "simwright.agents.tokens": "simwright.agents.usage.tokens",
    "simwright.agents.ledger": "simwright.agents.usage.ledger",
    "simwright.agents.metered": "simwright.agents.usage.metered",
    "simwright.agents.records": "simwright.agents.usage.records",
    "simwright.agents.usage_view": "simwright.agents.usage.view",
    "simwright.agents.planning": "simwright.agents.orchestration.planning",
    "simwright.agents.article": "simwright.agents.orchestration.article",
    "simwright.agents.clarify": "simwright.agents.orchestration.clarify",
    "simwright.agents.board": "simwright.agents.orchestration.board",
    "simwright.agents.updates": "simwright.agents.orchestration.updates",
    "simwright.agents.orchestrator": "simwright.agents.orchestration.orchestrator",
    "simwright.agents.protocol_tool": "simwright.agents.orchestration.protocol_tool",
    "simwright.agents.executor": "simwright.agents.execution.executor",
    "simwright.agents.toolbox": "simwright.agents.execution.toolbox",
    "simwright.agents.adapters": "simwright.agents.execution.adapters",
    "simwright.agents.adapters_specs": "simwright.agents.execution.adapters_specs",
    "simwright.agents.docs_search": "simwright.agents.execution.docs_search",
    "simwright.agents.memory": "simwright.agents.execution.examples",
    "simwright.agents.transcript": "simwright.agents.execution.transcript",
    "simwright.agents.critics": "simwright.agents.review.critics",
    "simwright.agents.fabrication": "simwright.agents.review.fabrication",
    "simwright.agents.reports": "simwright.agents.review.reports",
    "simwright.knowledge.docs_api": "simwright.knowledge.docs.api",
    "simwright.knowledge.docs_dft": "simwright.knowledge.docs.dft",
    "simwright.knowledge.docs_html": "simwright.knowledge.docs.html",
    "simwright.knowledge.docs_index": "simwright.knowledge.docs.index",
    "simwright.knowledge.docs_install": "simwright.knowledge.docs.install",
    "simwright.knowledge.docs_lammps": "simwright.knowledge.docs.lammps",
    "simwright.knowledge.docs_library": "simwright.knowledge.docs.library",
    "simwright.knowledge.docs_rst": "simwright.knowledge.docs.rst",
    "simwright.knowledge.docs_source": "simwright.knowledge.docs.source",
    "simwright.knowledge.retrieval": "simwright.knowledge.docs.retrieval",
    "simwright.knowledge.retrieval_embedder": "simwright.knowledge.docs.embedder",
    "simwright.knowledge.retrieval_text": "simwright.knowledge.docs.normalize",
    "simwright.knowledge.memory": "simwright.knowledge.memory.episodic",
    "simwright.knowledge.memory_runs": "simwright.knowledge.memory.from_runs",
    "simwright.knowledge.planner": "simwright.knowledge.planner.plan",
    "simwright.knowledge.assignment": "simwright.knowledge.planner.assignment",
    "simwright.knowledge.extraction": "simwright.knowledge.planner.extraction",
    "simwright.knowledge.quantities": "simwright.knowledge.planner.quantities",
    "simwright.knowledge.selection": "simwright.knowledge.planner.selection",
    "simwright.knowledge.substances": "simwright.knowledge.planner.substances",
    "simwright.knowledge.lexical": "simwright.knowledge.planner.lexical",
    "simwright.campaign.context": "simwright.campaign.wiring",
    "simwright.campaign.registry": "simwright.campaign.segment_engines",
    "simwright.protocols.text": "simwright.text",
    "simwright.protocols.requests": "simwright.knowledge.requests",
    "simwright.agents.setup.assemble": "simwright.agents.assemble",
}

#: Old ``module:qualname`` -> new ``module:qualname`` (a class moved alone or was renamed).
CLASS_RENAMES: Final[dict[str, str]] = {
    # 0.2: shared pieces moved down a layer (graph and store no longer import engines).
    "simwright.engines.base:EngineCall": "simwright.store.records:EngineCall",
    "simwright.agents.setup.config:Caps": "simwright.agents.usage.caps:Caps",
    "simwright.agents.setup.config:Price": "simwright.agents.usage.caps:Price",
    # 0.3: lattice_constant and dft_eos run the shared EOS sub-graph (simwright.steps.eos);
    # their old steps load as legacy steps that upgrade to it when a run resumes.
    "simwright.protocols.lattice_constant:BuildCrystal": (
        "simwright.protocols.eos_legacy:LatticeBuildCrystal"
    ),
    "simwright.protocols.lattice_constant:ScanVolumes": (
        "simwright.protocols.eos_legacy:LatticeScanVolumes"
    ),
    "simwright.protocols.lattice_constant:FitEOS": "simwright.protocols.eos_legacy:LatticeFitEOS",
    "simwright.protocols.lattice_constant:Report": "simwright.protocols.eos_legacy:LatticeReport",
    "simwright.protocols.dft_eos:ScanVolumes": "simwright.protocols.eos_legacy:DftScanVolumes",
    "simwright.protocols.dft_eos:FitEOS": "simwright.protocols.eos_legacy:DftFitEOS",
    "simwright.protocols.dft_eos:EosReport": "simwright.protocols.eos_legacy:DftEosReport",
}
