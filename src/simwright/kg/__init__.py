"""The knowledge graph of results: runs, their parameters and values with units, the
files behind them, and the things they are about (MOFs with their topology and
building blocks, molecules and conformers), as RDF triples in one file of the home.

One concept per module: :mod:`.entities` (the plain values descriptors return),
:mod:`.vocabulary` (namespace and identifiers), :mod:`.runs` (a completed run read
from the provenance store as plain facts), :mod:`.descriptors` (the per-protocol hook
and the generic molecule descriptor), :mod:`.triples` (facts and entities to RDF),
:mod:`.graphfile` (the N-Triples file under ``$SIMWRIGHT_HOME/kg``), :mod:`.ingest`,
:mod:`.query` (SPARQL to rows) and :mod:`.templates` (named queries later runs use).
rdflib (extra ``[kg]``) is imported only by the modules that build or query RDF.
"""
