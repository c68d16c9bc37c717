"""The same call run again: its output is the current state of what the earlier run
printed, so the facts read from the earlier output give way to the new one's.

Supersession by subject needs a later statement that names what it replaces; a command
run again names nothing, it shows the state anew (``wx latest --station primary`` at
09:00 and again at 09:40). "The same call" is what the projection's dedupe stage means
by it: the tool's name and its whole arguments, canonical (``dedupe``). A command line
of several steps also runs its last step again (``git pull && ./print-version.sh`` runs
``./print-version.sh`` again: the steps before it change the state it reports, not what
it reports on), one way only: what ``cat a.env && ./v.sh`` printed is no ``./v.sh``
output alone. Another flag (``uname -r``, ``uname -m``), a step that changes where or
with what the last one runs (``cd deploy && ls``, ``source .env; ./run``) or another
script body is another call. Each fact read from an output keeps its call
(``SummaryItem.call``); merge drops it when a later run of that call succeeds and is
summarized. A run that failed says nothing about the state, and replaces nothing. While
the later output is still in view, verbatim after the summary, the summary is left as it
was: agents run the same command again all the time, and striking on each run would
rewrite the prompt's cached prefix between compaction events (``anchor``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from langgraph_compact.compaction.summary import SummaryItem
from langgraph_compact.messages import canonical_json

__all__ = ["OBSERVED", "call_key", "last_step", "replaced_by_run", "runs_again"]

OBSERVED = frozenset({"fact", "identifier"})
"""Kinds of tool items a later run replaces. Not errors (what failed is history: a fix
demotes them, ``merge._resolve``), not paths (a file read stays read)."""


def call_key(call: Mapping[str, Any]) -> str:
    """The identity of a call: its name and a digest of its canonical arguments (a
    script's every line, not the first one a signature shows); a shell command line of
    several steps also names the digest of its ``last_step`` (``name#whole+last``).

    >>> call_key({"name": "bash", "args": {"command": "uname -r"}}) == call_key(
    ...     {"name": "bash", "args": {"command": "uname -m"}})
    False
    """
    args = call.get("args", {})
    key = f"{call['name']}#{_digest(args)}"
    command = args.get("command") if isinstance(args, Mapping) else None
    if isinstance(command, str) and (step := last_step(command)) != command:
        key += "+" + _digest({**args, "command": step})
    return key


def _digest(args: object) -> str:
    return hashlib.sha256(canonical_json(args).encode()).hexdigest()[:16]


def runs_again(key: str) -> frozenset[str]:
    """The calls a run of ``key`` runs again: itself and, of a command line of several
    steps, its last step run alone. One way only: ``git pull && ./v.sh`` runs
    ``./v.sh`` again, but ``./v.sh`` does not run again what ``cat a.env && ./v.sh``
    printed of ``a.env``.

    >>> sorted(runs_again(call_key({"name": "bash", "args": {"command": "make && ./v"}}))) == (
    ...     sorted({call_key({"name": "bash", "args": {"command": "make && ./v"}}),
    ...             call_key({"name": "bash", "args": {"command": "./v"}})}))
    True
    """
    name, _, digests = key.rpartition("#")
    step = digests.partition("+")[2]
    return frozenset({key, f"{name}#{step}"}) if step else frozenset({key})


_CONTEXT = frozenset("cd pushd popd source . export set unset alias env exec".split())
"""Steps that change where, or with what, the steps after them run."""
_COMPOUND = re.compile(r"[`({]|<<|(?<!\S)(?:for|while|until|if|case|function)(?!\S)")
"""A command line with these is a script, not a list of steps: it stays whole."""


def last_step(command: str) -> str:
    """The last of the steps ``command`` runs one after another (``a && b``, ``a; b``,
    one per line; comments left out), when the steps before it leave where and with what
    it runs alone; else ``command``.

    >>> last_step("make build && ./bin/app --version"), last_step("cd deploy && ls")
    ('./bin/app --version', 'cd deploy && ls')
    >>> last_step("cat a.env  # then b; ls")
    'cat a.env  # then b; ls'
    """
    if _COMPOUND.search(command):
        return command
    steps, quote, i = [""], "", 0
    while i < len(command):
        c = command[i]
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "\\":
            steps[-1] += command[i : i + 2]
            i += 2
            continue
        elif c == "#" and (not steps[-1] or steps[-1][-1].isspace()):
            i = command.find("\n", i)  # a comment, to the end of its line
            i = len(command) if i == -1 else i
            continue
        elif command.startswith("&&", i) or c in ";\n":
            steps.append("")
            i += 2 if c == "&" else 1
            continue
        steps[-1] += c
        i += 1
    steps = [s.strip() for s in steps if s.strip()]
    if quote or len(steps) < 2:
        return command
    for step in steps[:-1]:
        first = step.split()[0]
        if first in _CONTEXT or re.fullmatch(r"\w+=\S*", first):
            return command
    return steps[-1]


def replaced_by_run(item: SummaryItem, key: str, output: str) -> bool:
    """Whether the output ``output`` (a message id) of a successful run of the call
    ``key`` replaces ``item``: a fact read only from earlier outputs of a call it runs
    again (``runs_again``)."""
    return item.call in runs_again(key) and item.kind in OBSERVED and output not in item.sources
