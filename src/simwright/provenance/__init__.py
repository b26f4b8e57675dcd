"""A run's provenance exported in standard formats: W3C PROV-JSON and RO-Crate.

:mod:`~simwright.provenance.record` gathers what the store recorded of one run (through
the read side, :class:`~simwright.store.reading.RunReader`) into plain values, with
every file re-hashed; :mod:`~simwright.provenance.prov_document` maps them onto PROV,
:mod:`~simwright.provenance.crate` onto an RO-Crate; :mod:`~simwright.provenance.export`
is the one entry point the command line, the service or an MCP server call. The
mapping is documented in ``docs/provenance.md``. ``prov`` and ``rocrate`` come with the
optional extra ``simwright[export]``.
"""
