"""Stage 6 (verify half): check a projection against the tool protocol and the budget.

Chat providers reject a request whose tool calls and results do not pair up: a
ToolMessage whose call is not in the AI message right before it, a call left without a
result, a reused call id. A rejected request stops the agent, so every projection is
checked before it is sent, and raw histories that are already broken (e.g. tau-bench
reuses call ids) are repaired *in the projection only*, with a report of each change.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage

from langgraph_compact.errors import ContextBudgetError, ProtocolError
from langgraph_compact.tokens import TokenCounter

__all__ = [
    "UNKNOWN_TOOL_NAME",
    "RepairResult",
    "assert_tool_pairs_intact",
    "protocol_violations",
    "repair_projection",
    "verify_projection",
]

UNKNOWN_TOOL_NAME = "unknown_tool"
"""Name given in the projection to a tool call whose name is empty."""
MISSING_RESULT_TEXT = (
    "[no result was recorded for this tool call; repair_projection added this placeholder]"
)


def _label(i: int, m: BaseMessage) -> str:
    return f"message {i} ({m.type}, id={m.id!r})"


def protocol_violations(messages: Sequence[BaseMessage]) -> list[str]:
    """Every tool-protocol problem in ``messages``, as readable sentences; [] when valid.

    Rules: the first non-system message is a human message; every tool call has a
    non-empty name and an id unique in the list; the results of an AI message's calls
    (parallel calls: in any order) follow it directly, one per call; no ToolMessage
    answers a call outside that group (orphan); no call is left unanswered, except the
    calls of the last message (pending, the tool is still running).

    >>> from langchain_core.messages import HumanMessage, ToolMessage
    >>> protocol_violations([HumanMessage("hi", id="h"), ToolMessage("x", tool_call_id="c9")])
    ["message 1 (tool, id=None) answers tool_call_id 'c9', which no call in the AI message directly before it made (orphan result)"]
    """  # noqa: E501
    problems: list[str] = []
    first = next(((i, m) for i, m in enumerate(messages) if m.type != "system"), None)
    if first is not None and not isinstance(first[1], HumanMessage):
        problems.append(
            f"{_label(*first)} is the first non-system message; providers expect a human one"
        )
    seen_ids: dict[str, int] = {}
    open_calls: dict[str, int] = {}
    answered: set[str] = set()

    def close_group(before: str) -> None:
        for cid, at in open_calls.items():
            problems.append(
                f"tool call {cid!r} of {_label(at, messages[at])} has no result {before}"
            )
        open_calls.clear()
        answered.clear()

    for i, m in enumerate(messages):
        if isinstance(m, ToolMessage):
            cid = m.tool_call_id
            if cid in open_calls:
                del open_calls[cid]
                answered.add(cid)
            elif cid in answered:
                problems.append(f"{_label(i, m)} is a second result for tool_call_id {cid!r}")
            else:
                problems.append(
                    f"{_label(i, m)} answers tool_call_id {cid!r}, which no call in the AI "
                    "message directly before it made (orphan result)"
                )
            continue
        close_group(f"before {_label(i, m)}")
        if isinstance(m, AIMessage):
            for call in m.tool_calls:
                cid = call.get("id") or ""
                if not call["name"]:
                    problems.append(f"tool call {cid!r} of {_label(i, m)} has an empty name")
                if not cid:
                    problems.append(f"a tool call of {_label(i, m)} has no id")
                    continue
                if cid in seen_ids:
                    earlier = seen_ids[cid]
                    problems.append(
                        f"tool call id {cid!r} of {_label(i, m)} was already used by "
                        f"{_label(earlier, messages[earlier])}"
                    )
                seen_ids[cid] = i
                open_calls[cid] = i
    if open_calls:
        last = len(messages) - 1
        pending = all(at == last for at in open_calls.values())
        if not pending:
            close_group("before the end of the list")
    return problems


def assert_tool_pairs_intact(messages: Sequence[BaseMessage]) -> None:
    """Raise ``AssertionError`` listing every protocol problem (for tests and debug runs).

    Unlike ``assert``, this also checks under ``python -O``.
    """
    problems = protocol_violations(messages)
    if problems:
        raise AssertionError("tool pairs broken:\n  " + "\n  ".join(problems))


def verify_projection(
    messages: Sequence[BaseMessage],
    *,
    counter: TokenCounter | None = None,
    budget_tokens: int | None = None,
) -> None:
    """Check a projection before it is sent: tool protocol, then budget.

    Args:
        messages: the projection.
        counter: counts tokens for the budget check (a default counter when omitted).
        budget_tokens: the most input tokens allowed; None skips the budget check.

    Raises:
        ProtocolError: the projection breaks the tool protocol (all problems listed).
        ContextBudgetError: the projection is over ``budget_tokens``.
    """
    problems = protocol_violations(messages)
    if problems:
        shown = "\n  ".join(problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise ProtocolError(
            f"the projection breaks the tool-call protocol ({len(problems)} problem(s)); a "
            f"provider would reject it:\n  {shown}{more}\nIf the raw history itself is "
            "invalid, pass the projection through repair_projection() first."
        )
    if budget_tokens is None:
        return
    counter = counter or TokenCounter()
    total = counter.count_messages(messages)
    if total > budget_tokens:
        system = counter.count_messages([m for m in messages if m.type == "system"])
        hint = (
            f" The system prompt alone is {system:,} tokens, so no compaction can fit; "
            "shorten it or raise the context window."
            if system > budget_tokens
            else " Compact further (summarize, lower protect_recent_tokens or clip limits)."
        )
        raise ContextBudgetError(
            f"the projection is {total:,} tokens ({counter.name}), over the budget of "
            f"{budget_tokens:,} by {total - budget_tokens:,}.{hint}"
        )


@dataclass(frozen=True)
class RepairResult:
    """A repaired projection and one sentence per change made."""

    messages: list[BaseMessage]
    repairs: tuple[str, ...] = ()


def _unique_call_ids(messages: Sequence[BaseMessage], repairs: list[str]) -> list[BaseMessage]:
    """Rename reused call ids (and their results) to ``<id>-dupN``; name empty calls."""
    out = list(messages)
    seen: set[str] = set()
    aliases: dict[str, deque[str]] = {}
    counter: dict[str, int] = defaultdict(int)
    for i, m in enumerate(messages):
        if isinstance(m, AIMessage) and m.tool_calls:
            new_calls: list[ToolCall] = []
            renamed = False
            fresh: dict[str, deque[str]] = {}
            for call in m.tool_calls:
                cid = call.get("id") or ""
                new = ToolCall(**call)
                if not call["name"]:
                    new["name"] = UNKNOWN_TOOL_NAME
                    renamed = True
                    repairs.append(
                        f"named the nameless tool call {cid!r} of {_label(i, m)} "
                        f"{UNKNOWN_TOOL_NAME!r}"
                    )
                if cid and cid in seen:
                    counter[cid] += 1
                    new["id"] = f"{cid}-dup{counter[cid]}"
                    renamed = True
                    repairs.append(
                        f"renamed reused tool call id {cid!r} of {_label(i, m)} to "
                        f"{new['id']!r} (and its result)"
                    )
                seen.add(cid)
                fresh.setdefault(cid, deque()).append(new["id"] or "")
                new_calls.append(new)
            aliases.update(fresh)
            if renamed:
                out[i] = m.model_copy(update={"tool_calls": new_calls})
        elif isinstance(m, ToolMessage):
            queue = aliases.get(m.tool_call_id)
            if queue:
                target = queue.popleft()
                if target != m.tool_call_id:
                    out[i] = m.model_copy(update={"tool_call_id": target})
    return out


def repair_projection(messages: Sequence[BaseMessage]) -> RepairResult:
    """Make an invalid history a valid projection, reporting each change.

    Raw histories can break the protocol on their own: reused call ids, results that
    arrived after a human message, results without a call, calls that never got a
    result, a history that starts with an AI message. The raw list is never changed;
    this returns a repaired copy for the model to see.

    Algorithm:
        1. Reused call ids become ``<id>-dupN`` (pairing each result with the nearest
           call before it); empty tool names become ``unknown_tool``.
        2. Each AI message's results are gathered from anywhere after it and placed
           directly after it; a call with no result gets an error-status placeholder
           result, unless it is in the last message (pending). Results that answer no
           call are left out (they stay in the raw history).
        3. If the first non-system message is not human, a short human message is
           inserted before it.

    Returns:
        The repaired list (the input's own messages where nothing changed) and the
        list of repairs, empty when the input was already valid.
    """
    repairs: list[str] = []
    work = _unique_call_ids(messages, repairs)
    results: dict[str, deque[int]] = defaultdict(deque)
    for i, m in enumerate(work):
        if isinstance(m, ToolMessage):
            results[m.tool_call_id].append(i)
    claimed: set[int] = set()
    out: list[BaseMessage] = []
    last = len(work) - 1
    for i, m in enumerate(work):
        if isinstance(m, ToolMessage):
            continue
        out.append(m)
        if not isinstance(m, AIMessage) or not m.tool_calls:
            continue
        found: list[int] = []
        placeholders: list[BaseMessage] = []
        for call in m.tool_calls:
            queue = results.get(call.get("id") or "")
            while queue and queue[0] < i:
                queue.popleft()  # a result before its call cannot answer it
            if queue:
                found.append(queue.popleft())
            elif i != last:
                cid = call.get("id") or ""
                placeholders.append(
                    ToolMessage(
                        MISSING_RESULT_TEXT,
                        tool_call_id=cid,
                        name=call["name"],
                        status="error",
                        id=f"{m.id}/missing/{cid}",
                    )
                )
                repairs.append(
                    f"added a placeholder result for unanswered call {cid!r} of {_label(i, m)}"
                )
        found.sort()
        adjacent = range(i + 1, i + 1 + len(found))
        moved = [work[j].id for j in found if j not in adjacent]
        if moved:
            repairs.append(f"moved results {moved} next to their calls in {_label(i, m)}")
        out.extend(work[j] for j in found)
        out.extend(placeholders)
        claimed.update(found)
    for j, m in enumerate(work):
        if isinstance(m, ToolMessage) and j not in claimed:
            repairs.append(
                f"left out {_label(j, m)}: it answers no call (tool_call_id={m.tool_call_id!r})"
            )
    first = next((k for k, m in enumerate(out) if m.type != "system"), None)
    if first is not None and not isinstance(out[first], HumanMessage):
        out.insert(
            first, HumanMessage("[conversation continues]", id=f"{out[first].id}/repair-human")
        )
        repairs.append(
            f"inserted a human message before {_label(first, out[first + 1])}, "
            "which would otherwise open the conversation"
        )
    if not repairs:
        return RepairResult(list(messages))
    return RepairResult(out, tuple(repairs))
