"""Stage 3, prune: tool outputs older than the protected recent window become stubs.

Once the agent has moved on, an old file listing or test log is rarely needed verbatim;
a one-line stub saying what ran, how big the output was and how to get it back keeps the
thread of the story at a fraction of the tokens. The recent window, measured in tokens,
stays untouched so the model always sees what it is working on.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import call_signature
from langgraph_compact.compaction.failures import telling
from langgraph_compact.compaction.outputs import tool_items
from langgraph_compact.compaction.quote import Quote
from langgraph_compact.compaction.rerun import OBSERVED
from langgraph_compact.compaction.stage import (
    StageResult,
    describe_call,
    paired_calls,
    recall_hint,
    replaced,
)
from langgraph_compact.compaction.summary import SummaryItem
from langgraph_compact.errors import SettingsError
from langgraph_compact.messages import MessageCache, message_text
from langgraph_compact.policies import ToolMode, ToolPolicies
from langgraph_compact.tokens import TokenCounter

__all__ = ["kept", "protected_start", "prune_old_outputs", "pruned_stub"]


def pruned_stub(
    label: str, text: str, ref: str, signature: str = "", *, failed: bool = False
) -> str:
    """The one-line stub that replaces a pruned output, with what of it a summary would
    keep (``kept``): the error it printed, the values it shows, each a verbatim piece.
    Pruning needs no summary, so without them a pruned output's facts and failure would
    be out of view until one runs.

    >>> pruned_stub('bash {"command":"ls"}', "a\\nb\\n", "t-4")
    '[pruned output of bash {"command":"ls"}: 4 chars / 2 lines; ref=t-4 — call recall(ref) for the original]'
    >>> pruned_stub("bash", "x\\nValueError: bad port 80a\\n", "t-5", failed=True)
    '[pruned output of bash: 27 chars / 2 lines; error: ValueError: bad port 80a; ref=t-5 — call recall(ref) for the original]'
    """  # noqa: E501
    lines = len(text.splitlines())  # "a" is one line, "a\nb\n" two
    failure, shows = kept(text, signature, failed)
    said = (f"error: {failure}; " if failure else "") + (
        f"shows: {' | '.join(shows)}; " if shows else ""
    )
    size = f"{len(text):,} chars / {lines:,} lines"
    return f"[pruned output of {label}: {size}; {said}{recall_hint(ref)}]"


STUB_FACTS = 3
"""The most values a stub shows (the most salient facts of the output)."""
STUB_CHARS = 240
"""The most characters of what a stub keeps (an error line longer than that is cut)."""
STUB_SCAN_CHARS = 20_000
"""How much of a long output's end a stub reads: where a failure and the final state are
printed, and a bound on the time a stub takes."""


@lru_cache(maxsize=1024)
def kept(text: str, signature: str = "", failed: bool = False) -> tuple[str, tuple[str, ...]]:
    """What of the output ``text`` of the call ``signature`` (``name: args``; ``failed``:
    its message's status said so) a stub keeps, as the summary's extraction reads it
    (``outputs.tool_items``): when the output failed, the error line that tells most
    (``failures.telling``); and its most salient facts. Each is the longest verbatim piece
    of its item, cut only at a space (``text.short``)."""
    if len(text) > STUB_SCAN_CHARS:
        text = text[-STUB_SCAN_CHARS:].partition("\n")[2]
    message = ToolMessage(text, tool_call_id="-", status="error" if failed else "success")
    found = [c for _, c in tool_items(message, "-", 0, Quote(signature or "tool"))]
    failure = ""
    if any(c.kind == "blocked" for c in found):
        errors = [_piece(c) for c in found if c.kind == "error"]
        errors = errors or [_piece(c) for c in found if c.kind == "blocked"]
        failure = tx.short(errors[telling(errors)], STUB_CHARS)
    facts = sorted((c for c in found if c.kind in OBSERVED), key=lambda c: -c.salience)
    shows: list[str] = []
    room = STUB_CHARS - len(failure)
    for value in map(_piece, facts[:STUB_FACTS]):
        if not value.strip() or "\n" in value:
            continue  # a stub is one line, and a value is shown as written or not at all
        if len(value) > room:
            break
        shows.append(value)
        room -= len(value)
    return failure, tuple(shows)


def _piece(item: SummaryItem) -> str:
    """The longest verbatim piece of ``item``'s text (its labels and ``…`` left out)."""
    span = max(item.spans, key=lambda s: s.end - s.start, default=None)
    return item.text[span.at : span.at + span.end - span.start] if span else ""


def protected_start(
    messages: Sequence[BaseMessage], counter: TokenCounter, protect_recent_tokens: int
) -> int:
    """Index where the protected recent window starts.

    The window is the longest suffix of ``messages`` whose token count stays within
    ``protect_recent_tokens``; the last message is always protected.

    >>> from langchain_core.messages import HumanMessage
    >>> msgs = [HumanMessage("word " * 100, id=str(i)) for i in range(5)]
    >>> protected_start(msgs, TokenCounter(), 250)
    3
    """
    total = 0
    for i in range(len(messages) - 1, -1, -1):
        total += counter.count(messages[i])
        if total > protect_recent_tokens and i < len(messages) - 1:
            return i + 1
    return 0


def prune_old_outputs(
    messages: Sequence[BaseMessage],
    policies: ToolPolicies,
    *,
    protected_from: int,
    originals: Sequence[BaseMessage] | None = None,
    cache: MessageCache | None = None,
) -> StageResult:
    """Replace old tool outputs by one-line stubs, per tool policy.

    Algorithm:
        For each ToolMessage, by its tool's policy: ``keep_verbatim`` and non-prunable
        tools are kept; ``clip_on_insert`` outputs before ``protected_from`` become
        stubs; ``drop_after_consumed`` outputs become stubs as soon as any AI message
        follows them (the model has read them), protected window or not. A stub only
        replaces content it is shorter than. Stubs describe the original output, taken
        from ``originals`` (the unclipped messages, index-aligned) when given.

    Args:
        messages: the history after the earlier stages (not modified).
        policies: the tool policy registry.
        protected_from: index where the protected recent window starts.
        originals: the raw messages, aligned with ``messages``, for the sizes in stubs.
        cache: reuse the copies made by earlier calls (see ``MessageCache.copy``).

    Returns:
        The new list; stubbed messages keep their id and carry ``ref=<id>``.

    Raises:
        SettingsError: ``originals`` is not aligned with ``messages``.
    """
    source = originals if originals is not None else messages
    if len(source) != len(messages):
        raise SettingsError(
            f"originals has {len(source)} messages but messages has {len(messages)}; "
            "they must be aligned (same length and order)"
        )
    calls = paired_calls(messages)
    last_ai = max((i for i, m in enumerate(messages) if isinstance(m, AIMessage)), default=-1)
    out = list(messages)
    changed: list[int] = []
    for i, m in enumerate(messages):
        if not isinstance(m, ToolMessage):
            continue
        call = calls.get(i)
        policy = policies.for_tool(m.name or (call["name"] if call else None))
        if policy.mode is ToolMode.KEEP_VERBATIM or not policy.prunable:
            continue
        consumed = last_ai > i
        if policy.mode is ToolMode.DROP_AFTER_CONSUMED:
            if not consumed:
                continue
        elif i >= protected_from:
            continue
        label = describe_call(call) if call else (m.name or "tool")
        signature = call_signature(call).text if call else (m.name or "tool")
        raw = source[i]
        failed = isinstance(raw, ToolMessage) and raw.status == "error"
        stub = pruned_stub(label, message_text(raw), m.id or "", signature, failed=failed)
        if len(stub) < len(message_text(m)) or not isinstance(m.content, str):
            out[i] = replaced(m, {"content": stub}, cache)
            changed.append(i)
    return StageResult(out, tuple(changed))
