"""``python -m langgraph_compact``: the ``langgraph-compact`` command."""

from langgraph_compact.cli import main

if __name__ == "__main__":
    main(prog_name="langgraph-compact")
