"""DFT with Quantum ESPRESSO: the pw.x parameter knowledge graph, the recommender and the
error-recovery state machine.

* :mod:`simwright.dft.knowledge_graph` — every pw.x 6.7 variable and card, with edges
  for dependencies and physical conditions; :mod:`simwright.dft.validation` checks
  inputs against it.
* :mod:`simwright.dft.recommender` — request -> structure -> conditions -> a complete,
  validated pw.x input, every unrequested choice reported as ``assumed``.
* :mod:`simwright.dft.recovery` — runs pw.x until the result is valid, repairing the
  input with rules (:mod:`simwright.dft.handlers`) and, when none applies, with tiers
  of injected fix proposers (:mod:`simwright.dft.proposers`).

The engine adapter lives in :mod:`simwright.engines.espresso.pw`; the protocols
``dft_scf``, ``dft_relax`` and ``dft_eos`` in :mod:`simwright.protocols`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simwright.dft.file_checks import validate_text
    from simwright.dft.handlers import HANDLERS, Diagnosis, Repair, RepairContext, diagnose
    from simwright.dft.knowledge_graph import KnowledgeGraph, Parameter, load_knowledge_graph
    from simwright.dft.proposers import (
        FixProposer,
        FixRequest,
        ProposedFix,
        ProposerTier,
        ScriptedProposer,
    )
    from simwright.dft.recommender import Recommendation, recommend
    from simwright.dft.recovery import RecoveryMachine, RecoveryOutcome, Transition
    from simwright.dft.request import DftRequest, parse_dft_text, request_from_text
    from simwright.dft.structures import StructureSpec, build_structure
    from simwright.dft.validation import Problem, validate_input

_HOME = {
    "HANDLERS": "handlers",
    "Diagnosis": "handlers",
    "Repair": "handlers",
    "RepairContext": "handlers",
    "diagnose": "handlers",
    "KnowledgeGraph": "knowledge_graph",
    "Parameter": "knowledge_graph",
    "load_knowledge_graph": "knowledge_graph",
    "FixProposer": "proposers",
    "FixRequest": "proposers",
    "ProposedFix": "proposers",
    "ProposerTier": "proposers",
    "ScriptedProposer": "proposers",
    "Recommendation": "recommender",
    "recommend": "recommender",
    "RecoveryMachine": "recovery",
    "RecoveryOutcome": "recovery",
    "Transition": "recovery",
    "DftRequest": "request",
    "parse_dft_text": "request",
    "request_from_text": "request",
    "StructureSpec": "structures",
    "build_structure": "structures",
    "Problem": "validation",
    "validate_input": "validation",
    "validate_text": "file_checks",
}
"""Where each public name lives; imported on first use, so ``simwright.cli.dft`` stays light."""


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(f"simwright.dft.{_HOME[name]}"), name)
    raise AttributeError(f"module 'simwright.dft' has no attribute {name!r}")


__all__ = [
    "HANDLERS",
    "DftRequest",
    "Diagnosis",
    "FixProposer",
    "FixRequest",
    "KnowledgeGraph",
    "Parameter",
    "Problem",
    "ProposedFix",
    "ProposerTier",
    "Recommendation",
    "RecoveryMachine",
    "RecoveryOutcome",
    "Repair",
    "RepairContext",
    "ScriptedProposer",
    "StructureSpec",
    "Transition",
    "build_structure",
    "diagnose",
    "load_knowledge_graph",
    "parse_dft_text",
    "recommend",
    "request_from_text",
    "validate_input",
    "validate_text",
]
