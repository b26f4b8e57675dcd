"""Planning and orchestration: the orchestrator, its board and updates, articles, clarifying
questions and the protocol tool.
"""
