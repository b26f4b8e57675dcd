"""Machine-learned interatomic potentials as ASE calculators, fully offline.

SevenNet-0 (``sevenn``) and CHGNet (``chgnet``) ship their weights inside their
wheels, so nothing is downloaded at run time. Install with ``pip install
'simwright[mlip]'`` (torch pinned to the CPU wheel on these machines). Use them by
name wherever simwright takes an ASE calculator: ``calculator: sevennet`` or
``calculator: chgnet``, with ``calculator_kwargs: {device: cuda}`` on a GPU.

For electrolyte protocols (Li-ion diffusivity in carbonates, SevenNet-0 with D3)
these are the path forward: nanosecond runs of ~1000 atoms need a GPU; on CPU they
serve relaxations and short MD of small cells.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from typing import Any

from simwright.errors import EngineError

SEVENNET_MODEL = "7net-0"
"""The SevenNet model shipped in the ``sevenn`` wheel."""


def _offline() -> None:
    # Both packages consult the Hugging Face hub only when asked for other models;
    # make sure nothing tries the network.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


def sevennet(model: str = SEVENNET_MODEL, device: str = "cpu", **kwargs: Any) -> Any:
    """A SevenNet ASE calculator (default SevenNet-0) on ``device``."""
    _offline()
    try:
        # lazy: optional extra [mlip]
        from sevenn.calculator import SevenNetCalculator
    except ImportError as exc:
        raise EngineError("SevenNet is not installed: pip install 'simwright[mlip]'") from exc
    with warnings.catch_warnings():
        # sevenn warns that no accelerated tensor-product kernel exists on this device
        warnings.simplefilter("ignore", UserWarning)
        return SevenNetCalculator(model, device=device, **kwargs)


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
