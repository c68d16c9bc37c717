"""The ``langgraph-compact`` command line (extra ``[cli]``): demo, replay, inspect, verify,
history, redact, export. ``python -m langgraph_compact`` runs the same command."""

from langgraph_compact.cli.app import main

__all__ = ["main"]
