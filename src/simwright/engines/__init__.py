"""Engine adapters: one module per package, registered through the
``simwright.engines`` entry-point group (see :mod:`simwright.engines.registry`)."""
