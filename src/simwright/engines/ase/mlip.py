"""Machine-learned interatomic potentials as ASE calculators, fully offline.

SevenNet-0 (``sevenn``) and CHGNet (``chgnet``) ship their weights inside their
wheels, so nothing is downloaded at run time. Install with ``pip install
'simwright[mlip]'`` (torch pinned to the CPU wheel on these machines). Use them by
name wherever simwright takes an ASE calculator: ``calculator: sevennet`` or
``calculator: chgnet``, with ``calculator_kwargs: {device: cuda}`` on a GPU.

The electrolyte protocol (``electrolyte_diffusivity``) uses SevenNet-0 with D3(BJ)
(``sevennet(d3=True)``, dispersion from the ``dftd3`` package): nanosecond runs of
~1000 atoms need a GPU (``device="auto"`` takes it when torch sees one); on a CPU they
serve relaxations and short MD of small cells.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from simwright.errors import EngineError

MLIP_NAMES = frozenset({"sevennet", "chgnet"})
"""The registered calculator names of the torch-based MLIPs."""

SEVENNET_MODEL = "7net-0"
"""The SevenNet model shipped in the ``sevenn`` wheel."""


def _offline() -> None:
    # Both packages consult the Hugging Face hub only when asked for other models;
    # make sure nothing tries the network.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


def sevennet(
    model: str = SEVENNET_MODEL, device: str = "cpu", d3: bool = False, **kwargs: Any
) -> Any:
    """A SevenNet ASE calculator (default SevenNet-0) on ``device`` (``auto``: GPU if any).

    ``d3`` adds Grimme's D3(BJ) dispersion with PBE parameters (:func:`with_d3`).
    """
    _offline()
    try:
        # lazy: optional extra [mlip]
        from sevenn.calculator import SevenNetCalculator
    except ImportError as exc:
        raise EngineError("SevenNet is not installed: pip install 'simwright[mlip]'") from exc
    with warnings.catch_warnings():
        # sevenn warns that no accelerated tensor-product kernel exists on this device
        warnings.simplefilter("ignore", UserWarning)
        # torch 2.13 deprecates torch.jit.script, which sevenn uses to load its model
        warnings.filterwarnings("ignore", ".*torch.jit.script.*", DeprecationWarning)
        calc = SevenNetCalculator(model, device=resolve_device(device), **kwargs)
    return with_d3(calc) if d3 else calc


def resolve_device(device: str) -> str:
    """``auto`` becomes ``cuda`` when torch sees a GPU and ``cpu`` otherwise."""
    if device != "auto":
        return device
    # lazy: optional dependency (simwright[mlip])
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


D3_FUNCTIONAL = "PBE"
"""D3 parameters are those of PBE: SevenNet-0 is trained on PBE(+U) data (MPtrj)."""


def with_d3(calculator: Any) -> Any:
    """``calculator`` plus Grimme's D3(BJ) dispersion for PBE, summed in ASE.

    The dispersion comes from the ``dftd3`` package (the reference s-dftd3 library, CPU).
    """
    try:
        # lazy: optional dependency (simwright[mlip])
        from dftd3.ase import DFTD3
    except ImportError as exc:
        raise EngineError("D3 needs the dftd3 package: pip install 'simwright[mlip]'") from exc
    from ase.calculators.mixing import SumCalculator  # lazy: only with D3

    return SumCalculator([calculator, DFTD3(method=D3_FUNCTIONAL, damping="d3bj")])


def chgnet(device: str = "cpu", **kwargs: Any) -> Any:
    """A CHGNet ASE calculator (the pretrained model of the ``chgnet`` wheel)."""
    _offline()
    try:
        # lazy: optional extra [mlip]
        from chgnet.model.dynamics import CHGNetCalculator
    except ImportError as exc:
        raise EngineError("CHGNet is not installed: pip install 'simwright[mlip]'") from exc
    return CHGNetCalculator(use_device=device, **kwargs)


def mlip_available(name: str) -> bool:
    """True when the package of ``name`` (``sevennet`` or ``chgnet``) can be imported."""
    module = {"sevennet": "sevenn", "chgnet": "chgnet"}[name]
    return importlib.util.find_spec(module) is not None


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run the block with torch limited to ``n`` intra-op threads (restored after).

    torch takes every core by default; on a shared or oversubscribed machine its
    threads wait on each other (measured here: a 15-atom CHGNet force call took 3 s
    with one thread and 68 s with two under a load of 20). Without torch: no effect.
    """
    if importlib.util.find_spec("torch") is None:
        yield
        return
    # lazy: optional dependency (simwright[mlip])
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(max(1, n))
    try:
        yield
    finally:
        torch.set_num_threads(before)
