"""Obtaining a framework: built by PORMAKE from resolved building blocks, or read from a
CIF file, with what the report and the knowledge graph say about it."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from simwright.builders.cif import CifSpec, read_cif
from simwright.engines.pormake.catalogue import describe_block, require_database
from simwright.engines.pormake.run import build_framework
from simwright.engines.pormake.spec import FrameworkSpec
from simwright.graph import RunContext
from simwright.protocols.mofs.params import MofParams
from simwright.protocols.mofs.topology import order_blocks, read_net
from simwright.results import ArtifactRef
from simwright.structure import Structure


@dataclass(frozen=True)
class FrameworkInfo:
    """What is known of the framework: label, source, and for a build its net, blocks
    (PORMAKE ids and descriptions) and the worst node fit (Å)."""

    label: str
    formula: str
    atoms: int
    source: str
    topology: str = ""
    group: str = ""
    nodes: tuple[str, ...] = ()
    linker: str = ""
    blocks: tuple[str, ...] = ()
    max_rmsd_a: float = 0.0


def resolved_spec(p: MofParams) -> tuple[FrameworkSpec, FrameworkInfo]:
    """The PORMAKE build of ``p`` with every name resolved and checked against the net."""
    spec = p.framework()
    assert spec is not None
    database = require_database()
    net = read_net(spec.topology, database)
    nodes, linker = order_blocks(net, spec.nodes, spec.linker, database)
    blocks = tuple(describe_block(b, database) for b in (*nodes, *((linker,) if linker else ())))
    info = FrameworkInfo(
        p.label(), "", 0, "PORMAKE", net.name, net.group, nodes, linker or "", blocks
    )
    return FrameworkSpec(net.name, nodes, linker, spec.max_rmsd_a), info


def build(ctx: RunContext, p: MofParams) -> tuple[Structure, FrameworkInfo]:
    """Build the framework with PORMAKE in the step's folder (the call recorded)."""
    spec, info = resolved_spec(p)
    built, call = build_framework(spec, ctx.workdir)
    ctx.engine_call(call)
    structure = Structure(built.symbols, built.positions_a, built.cell_a, (True, True, True))
    worst = max(built.node_rmsd_a, default=0.0)
    return structure, _with_counts(info, structure, worst)


def read(ctx: RunContext, p: MofParams) -> tuple[Structure, FrameworkInfo, ArtifactRef]:
    """Read the CIF file (copied into the step's folder and recorded with its hash)."""
    source = Path(p.cif or "")
    structure = read_cif(CifSpec(source.name, source.parent))
    copy = shutil.copyfile(source, ctx.workdir / "input.cif")
    ref = ctx.artifact(copy, "cif", f"the framework as given: {source}")
    info = FrameworkInfo(p.label(), "", 0, f"CIF file {source.name}")
    return structure, _with_counts(info, structure, 0.0), ref


def read_framework(p: MofParams) -> Structure:
    """The framework of a CIF source without a run (the build stage)."""
    source = Path(p.cif or "")
    return read_cif(CifSpec(source.name, source.parent))


def _with_counts(info: FrameworkInfo, structure: Structure, worst: float) -> FrameworkInfo:
    return FrameworkInfo(
        info.label,
        structure.formula,
        len(structure),
        info.source,
        info.topology,
        info.group,
        info.nodes,
        info.linker,
        info.blocks,
        worst,
    )
