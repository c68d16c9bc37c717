"""Stage 2, dedupe: an earlier result of an identical call gives way to the latest one.

Agents re-read the same file and re-run the same command many times; every copy but the
latest is noise, and stale copies can mislead. The latest result wins; earlier ones keep
their ToolMessage (deleting it would orphan its call, which providers reject) but their
content becomes a one-line placeholder naming the later message and the recall ref.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, ToolMessage

from langgraph_compact.compaction.stage import (
    StageResult,
    describe_call,
    paired_calls,
    recall_hint,
    replaced,
)
from langgraph_compact.messages import MessageCache, canonical_json, message_text
from langgraph_compact.policies import ToolPolicies

__all__ = ["dedupe_tool_reads", "superseded_placeholder"]


def superseded_placeholder(label: str, later_id: str, ref: str) -> str:
    """The text that replaces a superseded result.

    >>> superseded_placeholder('read_file {"path":"a.py"}', "t-9", "t-2")
    '[superseded by a later identical call read_file {"path":"a.py"} (result in message t-9); ref=t-2 — call recall(ref) for the original]'
    """  # noqa: E501
    return f"[superseded by a later identical call {label} (result in message {later_id}); {recall_hint(ref)}]"  # noqa: E501


def dedupe_tool_reads(
    messages: Sequence[BaseMessage], policies: ToolPolicies, *, cache: MessageCache | None = None
) -> StageResult:
    """Replace the content of every result whose identical call ran again later.

    Algorithm:
        Pair each ToolMessage with its call (name and arguments). Walk from the end,
        keying calls by ``(name, canonical JSON of args)``; the first result seen for a
        key is the latest and stays; each earlier one with the same key gets a
        placeholder, unless the placeholder would not be shorter than its content.
        Tools whose policy is ``open_world`` are skipped (the same call may legitimately
        return something new). Messages are never removed, so pairs stay intact.

    Args:
        messages: the history (not modified).
        policies: the tool policy registry (for ``open_world``).
        cache: reuse the copies made by earlier calls (see ``MessageCache.copy``).

    Returns:
        The new list; replaced messages keep their id and carry ``ref=<id>``.
    """
    calls = paired_calls(messages)
    latest: dict[tuple[str, str], int] = {}
    out = list(messages)
    changed: list[int] = []
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        call = calls.get(i)
        if call is None or not isinstance(m, ToolMessage):
            continue
        if policies.for_tool(call["name"]).open_world:
            continue
        key = (call["name"], canonical_json(call["args"]))
        later = latest.get(key)
        if later is None:
            latest[key] = i
            continue
        label = describe_call(call, args_json=key[1])
        text = superseded_placeholder(label, messages[later].id or "", m.id or "")
        if len(text) < len(message_text(m)) or not isinstance(m.content, str):
            out[i] = replaced(m, {"content": text}, cache)
            changed.append(i)
    return StageResult(out, tuple(sorted(changed)))
