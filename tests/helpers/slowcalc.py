"""An EMT calculator that sleeps before each calculation, so a test can kill a step mid-way.

It is passed to the real ``lattice_constant`` protocol by name
(``calculator: helpers.slowcalc:SlowEMT``), which resolves only because the test
home's ``config.toml`` allows it (:func:`helpers.plugins.allow_test_calculators`),
exactly as an installation allows its own calculators.
"""

from __future__ import annotations

import time
from typing import Any

from ase.calculators.emt import EMT


class SlowEMT(EMT):  # type: ignore[misc]
    """EMT with a fixed delay per calculation."""

    def __init__(self, delay_s: float = 0.2, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.delay_s = delay_s

    def calculate(self, *args: Any, **kwargs: Any) -> None:
        time.sleep(self.delay_s)
        super().calculate(*args, **kwargs)


class BrokenEMT(EMT):  # type: ignore[misc]
    """EMT that crashes on its third calculation, like an engine dying mid-scan."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.calls = 0

    def calculate(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("segmentation fault in the potential (simulated)")
        super().calculate(*args, **kwargs)
