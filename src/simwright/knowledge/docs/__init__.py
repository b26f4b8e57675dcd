"""Documentation retrieval: sources (LAMMPS manual, Python APIs, the pw.x knowledge graph), on-
disk indexes, hybrid BM25 + dense search.
"""
