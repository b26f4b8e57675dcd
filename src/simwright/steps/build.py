"""Build a structure and record it: the step wrappers of :mod:`simwright.builders`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.builders import LiquidSpec, StructureSpec, build_structure, describe_spec
from simwright.builders.liquids import pack_liquid
from simwright.results import ArtifactRef

if TYPE_CHECKING:
    from simwright.graph import RunContext


def record_structure(
    ctx: RunContext, spec: StructureSpec, name: str = "structure.extxyz"
) -> ArtifactRef:
    """Build ``spec`` (no engine) and record it as an extxyz artifact of the step."""
    return ctx.structure(build_structure(spec), name, describe_spec(spec))


def record_liquid(ctx: RunContext, spec: LiquidSpec, name: str = "packed.extxyz") -> ArtifactRef:
    """Pack ``spec`` with PACKMOL in the step directory, record the call and the structure."""
    result = pack_liquid(spec, ctx.workdir, ctx.jobs)
    ctx.engine_call(result.call)
    return ctx.structure(result.structure, name, spec.describe())
