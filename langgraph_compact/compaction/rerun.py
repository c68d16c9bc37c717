"""The same call run again: its output is the current state of what the earlier run
printed, so the facts read from the earlier output give way to the new one's.

Supersession by subject needs a later statement that names what it replaces; a command
run again names nothing, it shows the state anew (``wx latest --station primary`` at
09:00 and again at 09:40). "The same call" is what the projection's dedupe stage means
by it: the tool's name and its whole arguments, canonical (``dedupe``). Another flag
(``uname -r``, ``uname -m``), another step before it (``cd deploy && ls``) or another
script body is another call. Each fact read from an output keeps its call
(``SummaryItem.call``); merge drops it when a later run of that call succeeds and is
summarized. A run that failed says nothing about the state, and replaces nothing. While
the later output is still in view, verbatim after the summary, the summary is left as it
was: agents run the same command again all the time, and striking on each run would
rewrite the prompt's cached prefix between compaction events (``anchor``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from langgraph_compact.compaction.summary import SummaryItem
from langgraph_compact.messages import canonical_json

__all__ = ["OBSERVED", "call_key", "replaced_by_run"]

OBSERVED = frozenset({"fact", "identifier"})
"""Kinds of tool items a later run replaces. Not errors (what failed is history: a fix
demotes them, ``merge._resolve``), not paths (a file read stays read)."""


def call_key(call: Mapping[str, Any]) -> str:
    """The identity of a call: its name and a digest of its canonical arguments (a
    script's every line, not the first one a signature shows).

    >>> call_key({"name": "bash", "args": {"command": "uname -r"}}) == call_key(
    ...     {"name": "bash", "args": {"command": "uname -m"}})
    False
    """
    args = canonical_json(call.get("args", {})).encode()
    return f"{call['name']}#{hashlib.sha256(args).hexdigest()[:16]}"


def replaced_by_run(item: SummaryItem, key: str, output: str) -> bool:
    """Whether the output ``output`` (a message id) of a successful run of the call
    ``key`` replaces ``item``: a fact read only from earlier outputs of that call."""
    return item.call == key and item.kind in OBSERVED and output not in item.sources
