"""Collection: modules of optional extras are left out when their package is missing."""

from importlib.util import find_spec

collect_ignore = [] if find_spec("deepagents") else ["langgraph_compact/deep_agents.py"]
