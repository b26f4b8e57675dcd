"""Episodic memory: completed runs recalled by similarity to a new task."""
