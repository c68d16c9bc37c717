"""Stage 1, clip: cut oversized texts head+tail with a visible, recallable marker.

Long tool outputs (logs, file dumps, hexdumps) and long tool-call arguments (``edit`` and
``write_file`` payloads) dominate agent context. Their beginning and end carry most of
the signal (the command's header, the error at the bottom), so the middle is cut. The cut
is never silent: a marker states how many characters and lines were omitted and gives
the message id as a ``ref`` the recall tool resolves to the original.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.compaction.cut import find_head_end
from langgraph_compact.compaction.stage import (
    StageResult,
    marker_ref,
    paired_calls,
    recall_hint,
    replaced,
)
from langgraph_compact.messages import MessageCache
from langgraph_compact.policies import ToolMode, ToolPolicies

__all__ = [
    "MESSAGE_TEXT_MAX_CHARS",
    "clip_args",
    "clip_content",
    "clip_text",
    "clip_tool_outputs",
    "marker_ref",
]

MESSAGE_TEXT_MAX_CHARS = 20_000
"""Default clip limit for human/AI message text outside the protected tail."""


def _marker(chars: int, lines: int, ref: str) -> str:
    return f"[... {chars:,} chars / {lines:,} lines omitted; {recall_hint(ref)} ...]"


def clip_text(text: str, max_chars: int, ref: str, around: tuple[int, int] | None = None) -> str:
    """Shorten ``text`` to about ``max_chars`` by cutting its middle, with a marker.

    The result is at most ``max_chars`` long whenever ``max_chars`` exceeds the marker
    itself (~100 chars); otherwise it is the marker alone. Text that already fits is
    returned unchanged (the same object).

    Algorithm:
        The marker is sized for the worst case first, so the text budget is known. Two
        thirds of the budget go to the head, one third to the tail (errors and results
        tend to be at the end). Each cut moves to a line boundary when one is within
        the last quarter of its side, else to a space, so the kept parts are whole lines
        or at least whole words (a text with no space near the cut, base64 or minified
        JSON, is cut where the budget ends).

    Args:
        text: the text to shorten.
        max_chars: the longest text kept whole.
        ref: the id of the original message, written into the marker.
        around: ``(start, end)`` of a part that is omitted whole (a summary inside a
            hand-off, read back item by item): the head stops before it and the tail
            starts after it, each side taking what the other cannot use.

    Returns:
        ``text`` itself, or head + marker + tail.

    >>> out = clip_text("\\n".join(f"line {i}" for i in range(100)), 160, "m-1")
    >>> print(out)
    line 0
    line 1
    line 2
    line 3
    line 4
    line 5
    line 6
    [... 717 chars / 90 lines omitted; ref=m-1 — call recall(ref) for the original ...]
    line 97
    line 98
    line 99
    >>> len(out) <= 160
    True
    """
    if len(text) <= max_chars:
        return text
    worst = _marker(len(text), text.count("\n"), ref)
    budget = max(max_chars - len(worst) - 2, 0)
    head_end = budget * 2 // 3
    tail_start = len(text) - (budget - head_end)
    if around is not None:
        start, end = around
        if head_end > start:
            head_end = start
            tail_start = max(end, len(text) - (budget - head_end))
        if tail_start < end:
            tail_start = end
            head_end = max(0, min(start, budget - (len(text) - tail_start)))
    head_end = _back_to_break(text, head_end)
    tail_start = _on_to_break(text, tail_start)
    omitted = text[head_end:tail_start]
    out = text[:head_end]
    if out and not out.endswith("\n"):
        out += "\n"
    out += _marker(len(omitted), omitted.count("\n"), ref)
    tail = text[tail_start:]
    return out + "\n" + tail if tail else out


def _back_to_break(text: str, at: int) -> int:
    """``at`` moved back to just after a line break in the last quarter before it, else
    to the last space there; unchanged when neither is near."""
    floor = at * 3 // 4
    found = text.rfind("\n", floor, at)
    if found != -1:
        return found + 1
    found = text.rfind(" ", floor, at)
    return found if found != -1 else at


def _on_to_break(text: str, at: int) -> int:
    """``at`` moved on to just after a line break in the first quarter of what follows,
    else to a space there; unchanged when neither is near."""
    if at == 0 or text[at - 1].isspace():
        return at  # already at the start of a line or a word
    stop = at + (len(text) - at) // 4
    for sep in ("\n", " "):
        found = text.find(sep, at, stop)
        if found != -1:
            return found + 1
    return at


def clip_content(
    content: str | list[str | dict[Any, Any]], max_chars: int, ref: str
) -> str | list[str | dict[Any, Any]]:
    """:func:`clip_text` applied to a string or to each text block of a block list.

    Non-text blocks (images, tool_use) are kept as they are. Returns ``content`` itself
    when nothing needed clipping.
    """
    if isinstance(content, str):
        return clip_text(content, max_chars, ref)
    out: list[str | dict[Any, Any]] = []
    changed = False
    for block in content:
        if isinstance(block, str):
            new: str | dict[Any, Any] = clip_text(block, max_chars, ref)
        elif isinstance(block, dict) and isinstance(block.get("text"), str):
            text = clip_text(block["text"], max_chars, ref)
            new = block if text is block["text"] else {**block, "text": text}
        else:
            new = block
        changed = changed or new is not block
        out.append(new)
    return out if changed else content


def clip_args(args: Any, max_chars: int, ref: str) -> Any:
    """Clip every string value longer than ``max_chars`` inside tool-call arguments.

    Only string leaves change, so the arguments stay the same JSON shape (still valid
    JSON, same keys). Returns ``args`` itself when nothing needed clipping.

    >>> clip_args({"path": "a.py", "content": "x" * 500}, 200, "m-2")["content"][:30]
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
    """
    if isinstance(args, str):
        return clip_text(args, max_chars, ref)
    if isinstance(args, dict):
        new_dict = {k: clip_args(v, max_chars, ref) for k, v in args.items()}
        return args if all(new_dict[k] is args[k] for k in args) else new_dict
    if isinstance(args, list):
        new_list = [clip_args(v, max_chars, ref) for v in args]
        return args if all(a is b for a, b in zip(new_list, args, strict=True)) else new_list
    return args


def clip_tool_outputs(
    messages: Sequence[BaseMessage],
    policies: ToolPolicies,
    *,
    protected_from: int | None = None,
    head_end: int | None = None,
    max_text_chars: int = MESSAGE_TEXT_MAX_CHARS,
    max_output_chars: int | None = None,
    cache: MessageCache | None = None,
) -> StageResult:
    """Clip tool outputs, and (outside the tail) tool-call arguments and message text.

    Tool outputs are clipped wherever they are (clip on insert), per their tool's
    policy, except ``keep_verbatim`` tools. Tool-call string arguments over the tool's
    ``max_arg_chars`` and human/AI text over ``max_text_chars`` are clipped only before
    ``protected_from``: the model should see its recent turns whole. The protected head
    (system messages and the first request) is never clipped here: the compaction plan
    gives the first request its own cap.

    Args:
        messages: the history (not modified).
        policies: the tool policy registry.
        protected_from: index where the protected recent tail starts (default: nothing
            is protected).
        head_end: index just past the protected head (default: ``find_head_end``).
        max_text_chars: clip limit for human/AI message text.
        max_output_chars: a ceiling on every tool's ``max_chars`` (the node derives it
            from the budget, so one output cannot fill a small window).
        cache: reuse the copies made by earlier calls (see ``MessageCache.copy``).

    Returns:
        The new list; shortened messages keep their id and carry ``ref=<id>``.
    """
    tail = len(messages) if protected_from is None else protected_from
    head = find_head_end(messages) if head_end is None else head_end
    calls = paired_calls(messages)
    out = list(messages)
    changed: list[int] = []
    for i, m in enumerate(messages):
        ref = m.id or ""
        update: dict[str, Any] = {}
        if isinstance(m, ToolMessage):
            call = calls.get(i)
            policy = policies.for_tool(m.name or (call["name"] if call else None))
            if policy.mode is not ToolMode.KEEP_VERBATIM:
                limit = policy.max_chars
                if max_output_chars is not None:
                    limit = min(limit, max_output_chars)
                content = clip_content(m.content, limit, ref)
                if content is not m.content:
                    update["content"] = content
        elif i >= head and i < tail and m.type in ("human", "ai"):
            content = clip_content(m.content, max_text_chars, ref)
            if content is not m.content:
                update["content"] = content
            if isinstance(m, AIMessage) and m.tool_calls:
                new_calls = []
                for call in m.tool_calls:
                    limit = policies.for_tool(call["name"]).max_arg_chars
                    args = clip_args(call["args"], limit, ref)
                    new_calls.append(call if args is call["args"] else {**call, "args": args})
                if any(a is not b for a, b in zip(new_calls, m.tool_calls, strict=True)):
                    update["tool_calls"] = new_calls
        if update:
            out[i] = replaced(m, update, cache)
            changed.append(i)
    return StageResult(out, tuple(changed))
