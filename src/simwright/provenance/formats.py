"""The formats a run's provenance is exported in (no imports: the CLI loads it at start)."""

from __future__ import annotations

import enum


class ExportFormat(enum.StrEnum):
    """The formats a run's provenance is exported in."""

    PROV_JSON = "prov-json"
    """W3C PROV as PROV-JSON (one file)."""
    RO_CRATE = "ro-crate"
    """An RO-Crate folder, or a zip when the output ends in ``.zip``."""
