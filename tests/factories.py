"""Message factories for tests: short, explicit constructors with unique ids.

Every factory gives the message an id (tests of refs need them) from a process-wide
counter unless ``id=`` is passed. ``exchange()`` builds a whole call/result pair.

>>> call = ai_tool_call("read_file", {"path": "a.py"}, call_id="c1", id="a1")
>>> tool_result(call, "print(1)", id="t1").tool_call_id
'c1'
"""

from __future__ import annotations

import itertools
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)

__all__ = [
    "ai",
    "ai_tool_call",
    "ai_tool_calls",
    "exchange",
    "human",
    "new_id",
    "system",
    "tool_result",
    "unreferenced_changes",
]

_ids = itertools.count(1)


def new_id(prefix: str = "m") -> str:
    """A fresh id, unique within the test process."""
    return f"{prefix}-{next(_ids)}"


def system(text: str = "You are a helpful agent.", *, id: str | None = None) -> SystemMessage:
    return SystemMessage(text, id=id or new_id("sys"))


def human(text: str = "Please fix the bug.", *, id: str | None = None) -> HumanMessage:
    return HumanMessage(text, id=id or new_id("h"))


def ai(text: str = "Done.", *, id: str | None = None) -> AIMessage:
    return AIMessage(text, id=id or new_id("ai"))


def ai_tool_calls(
    calls: list[tuple[str, dict[str, Any]]],
    text: str = "",
    *,
    call_ids: list[str] | None = None,
    id: str | None = None,
) -> AIMessage:
    """An AI message making parallel calls ``[(name, args), ...]``."""
    ids = call_ids or [new_id("call") for _ in calls]
    tool_calls = [
        ToolCall(name=name, args=args, id=cid, type="tool_call")
        for (name, args), cid in zip(calls, ids, strict=True)
    ]
    return AIMessage(text, tool_calls=tool_calls, id=id or new_id("ai"))


def ai_tool_call(
    name: str = "read_file",
    args: dict[str, Any] | None = None,
    text: str = "",
    *,
    call_id: str | None = None,
    id: str | None = None,
) -> AIMessage:
    """An AI message making one tool call."""
    return ai_tool_calls(
        [(name, args if args is not None else {"path": "a.py"})],
        text,
        call_ids=[call_id] if call_id else None,
        id=id,
    )


def tool_result(
    call: AIMessage | str,
    content: str = "ok",
    *,
    index: int = 0,
    name: str | None = None,
    id: str | None = None,
) -> ToolMessage:
    """The result of call ``index`` of ``call`` (or of the call id ``call``)."""
    if isinstance(call, AIMessage):
        tc = call.tool_calls[index]
        call_id, name = tc["id"] or "", name or tc["name"]
    else:
        call_id = call
    return ToolMessage(content, tool_call_id=call_id, name=name, id=id or new_id("t"))


def exchange(
    name: str = "read_file",
    args: dict[str, Any] | None = None,
    output: str = "ok",
) -> list[BaseMessage]:
    """``[AIMessage(call), ToolMessage(result)]``: one complete tool round trip."""
    call = ai_tool_call(name, args)
    return [call, tool_result(call, output)]


def file_reads(n: int, start: int = 0) -> list[BaseMessage]:
    """``n`` reads of distinct source files, ids ``a<i>``/``t<i>`` from ``start``: output
    enough that what came before them is summarized."""
    out: list[BaseMessage] = []
    for i in range(start, start + n):
        call = ai_tool_call("bash", {"command": f"cat src/mod_{i}.py"}, id=f"a{i}")
        body = "\n".join(f"    value_{i}_{k} = compute({k})" for k in range(60))
        out += [call, tool_result(call, body, id=f"t{i}")]
    return out


def unreferenced_changes(before: list[BaseMessage], after: list[BaseMessage]) -> list[str]:
    """Ids of messages that a fold changed without a ``ref=<id>`` marker (should be []).

    ``before`` and ``after`` must be index-aligned (no repairs happened).
    """
    from langgraph_compact.messages import canonical_json, message_digest

    missing = []
    for old, new in zip(before, after, strict=True):
        assert old.id == new.id, (old.id, new.id)
        if message_digest(old) == message_digest(new):
            continue
        seen = canonical_json([new.content, getattr(new, "tool_calls", None)])
        if f"ref={new.id} — call recall(ref)" not in seen:
            missing.append(new.id or "")
    return missing
