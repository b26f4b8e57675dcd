"""Executors: the tool interface, engine adapters, documentation search, examples from episodic
memory, transcripts.
"""
