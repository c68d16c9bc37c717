"""Boundaries of a projection: the protected head, and where the verbatim tail may begin.

A cut at index ``i`` means the tail is ``messages[i:]``. A cut is valid only where it
cannot separate an AIMessage's tool calls from their ToolMessages: never at a
ToolMessage. Parallel calls answered by several ToolMessages therefore stay together.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage

__all__ = ["find_cut_point", "find_head_end", "is_cut_point"]


def find_head_end(messages: Sequence[BaseMessage], *, protect_first_human: bool = True) -> int:
    """Index just past the protected head: leading system messages and the first request.

    >>> from langchain_core.messages import AIMessage
    >>> find_head_end([SystemMessage("s"), HumanMessage("task"), AIMessage("ok")])
    2
    """
    i = 0
    while i < len(messages) and isinstance(messages[i], SystemMessage):
        i += 1
    if protect_first_human and i < len(messages) and isinstance(messages[i], HumanMessage):
        i += 1
    return i


def is_cut_point(messages: Sequence[BaseMessage], index: int) -> bool:
    """True when the tail may start at ``index`` without orphaning a tool result."""
    return index >= len(messages) or not isinstance(messages[index], ToolMessage)


def find_cut_point(
    token_counts: Sequence[int], messages: Sequence[BaseMessage], start: int, keep_tokens: int
) -> int:
    """The earliest valid cut ``>= start`` whose tail fits in ``keep_tokens``.

    Args:
        token_counts: tokens of each message as it will appear in the projection
            (after folding), aligned with ``messages``.
        messages: the raw messages.
        start: the first index that may be summarized (the coverage cursor).
        keep_tokens: the token budget of the verbatim tail.

    Returns:
        The cut index. When even the last turn alone exceeds ``keep_tokens``, the start
        of that turn: the caller must shrink the turn (clip harder), never drop it.

    Algorithm:
        Walk backwards from the end, accumulating tokens, and remember the last valid
        cut whose tail still fit. Stop at the first overflow.

    >>> from langchain_core.messages import AIMessage
    >>> msgs = [HumanMessage("a"), AIMessage("b", tool_calls=[{"id": "1", "name": "t",
    ...     "args": {}}]), ToolMessage("c", tool_call_id="1"), AIMessage("d")]
    >>> find_cut_point([5, 5, 5, 5], msgs, 0, 15)
    1
    """
    n = len(messages)
    best = n
    total = 0
    last_turn_start = n
    for i in range(n - 1, start - 1, -1):
        total += token_counts[i]
        if not is_cut_point(messages, i):
            continue
        if last_turn_start == n:
            last_turn_start = i
        if total > keep_tokens:
            break
        best = i
    if best == n:
        return max(last_turn_start, start) if last_turn_start < n else n
    return best
