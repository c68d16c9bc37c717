"""Shared vocabulary of the fold stages: the stage result, stats, and the marker format.

Every shortened text in a projection carries a marker ending in
``ref=<message id> — call recall(ref) for the original``, so the model (and tests) can
always find the way back to the raw message. The format lives here, once, so that
:func:`marker_ref` parses every stage's markers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolCall, ToolMessage

from langgraph_compact.messages import MessageCache, canonical_json

__all__ = [
    "StageResult",
    "StageStats",
    "describe_call",
    "marker_ref",
    "marker_refs",
    "paired_calls",
    "recall_hint",
    "replaced",
]

_REF_RE = re.compile(r"ref=(?P<ref>.+?) — call recall\(ref\)", re.DOTALL)


def recall_hint(ref: str) -> str:
    """The tail every marker ends with; :func:`marker_ref` parses the ref back.

    >>> recall_hint("m-7")
    'ref=m-7 — call recall(ref) for the original'
    """
    return f"ref={ref} — call recall(ref) for the original"


def marker_refs(text: str) -> list[str]:
    """Every ref named by a marker in ``text``, in order."""
    return [m.group("ref") for m in _REF_RE.finditer(text)]


def marker_ref(text: str) -> str | None:
    """The ref of the first marker in ``text``, or None when there is none.

    >>> marker_ref("head\\n[... 10 chars / 0 lines omitted; ref=abc-17 — call recall(ref) "
    ...            "for the original ...]\\ntail")
    'abc-17'
    >>> marker_ref("plain text") is None
    True
    """
    found = _REF_RE.search(text)
    return found.group("ref") if found else None


@dataclass(frozen=True)
class StageResult:
    """What one stage returns: the new list and which messages it shortened.

    Stages never add, remove or reorder messages, so ``messages[i]`` always corresponds
    to the input's ``messages[i]`` and keeps its id.
    """

    messages: list[BaseMessage]
    changed: tuple[int, ...] = ()
    """Indexes of the messages this stage replaced."""

    @property
    def refs(self) -> tuple[str, ...]:
        """Ids of the shortened messages (each is the ``ref`` in its marker)."""
        return tuple(self.messages[i].id or "" for i in self.changed)


@dataclass(frozen=True)
class StageStats:
    """Per-stage accounting reported by ``fold``."""

    stage: str
    tokens_before: int
    tokens_after: int
    items: int
    """Messages the stage shortened (clipped, deduped, pruned) or loop calls flagged."""
    refs: tuple[str, ...] = ()

    @property
    def saved(self) -> int:
        """Tokens removed by this stage."""
        return self.tokens_before - self.tokens_after


def paired_calls(messages: Sequence[BaseMessage]) -> dict[int, ToolCall]:
    """Map the index of each ToolMessage to the call it answers.

    A result answers the call with its id in the closest AI message before it, so a
    call id reused later in the history (tau-bench does this) still pairs correctly.
    """
    latest: dict[str, ToolCall] = {}
    pairs: dict[int, ToolCall] = {}
    for i, m in enumerate(messages):
        if isinstance(m, AIMessage):
            for call in m.tool_calls:
                latest[call.get("id") or ""] = call
        elif isinstance(m, ToolMessage):
            answered = latest.get(m.tool_call_id)
            if answered is not None:
                pairs[i] = answered
    return pairs


def describe_call(call: ToolCall, max_chars: int = 120, *, args_json: str | None = None) -> str:
    """A one-line ``name {args}`` label for stubs, with long arguments cut short.

    >>> describe_call({"name": "bash", "args": {"command": "ls -la"}, "id": "c1"})
    'bash {"command":"ls -la"}'
    """
    args = canonical_json(call["args"]) if args_json is None else args_json
    if len(args) > max_chars:
        args = args[: max_chars - 1] + "…"
    return f"{call['name']} {args}"


def replaced(
    message: BaseMessage, update: dict[str, Any], cache: MessageCache | None = None
) -> BaseMessage:
    """``message.model_copy(update=update)``; with a ``cache``, the same copy as last time.

    Stages run on every model call over mostly the same message objects; handing back
    the copy made last time keeps its digest and token count cached (see
    ``MessageCache.copy``).
    """
    if cache is None:
        return message.model_copy(update=update)
    return cache.copy(message, update)
