"""fold: the cheap, deterministic half of compaction (repair, clip, dedupe, prune, loops).

Folding runs before any summarizer because it is free, exact and reversible: every
shortened message keeps its id and says how to get the original back (``ref=<id>``).
On real coding-agent trajectories it removes a large share of the tokens on its own, so
the summarizer runs less often and on less.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.clip import clip_tool_outputs
from langgraph_compact.compaction.dedupe import dedupe_tool_reads
from langgraph_compact.compaction.loops import LoopSignal, detect_loops
from langgraph_compact.compaction.prune import protected_start, prune_old_outputs
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.stage import StageResult, StageStats
from langgraph_compact.compaction.verify import (
    protocol_violations,
    repair_projection,
    verify_projection,
)
from langgraph_compact.messages import check_messages

__all__ = ["FoldResult", "fold"]


@dataclass(frozen=True)
class FoldResult:
    """The folded projection and what each stage did.

    Attributes:
        messages: the projection (new list; unchanged messages are the input objects).
        stats: one entry per stage that ran, in order.
        refs: ids of every shortened message, in list order; each is the ``ref`` in its
            marker and resolves to the raw message.
        loop: the loop the agent is in now, if any.
        tokens_before: tokens of the input.
        tokens_after: tokens of ``messages``.
        repairs: what ``repair_projection`` changed (empty for a valid input).
        protected_from: index in ``messages`` where the protected recent window starts.
        counts: tokens of each message of ``messages`` (what they add up to is
            ``tokens_after``), so later steps need not count them again.
    """

    messages: tuple[BaseMessage, ...]
    stats: tuple[StageStats, ...]
    refs: tuple[str, ...]
    loop: LoopSignal | None
    tokens_before: int
    tokens_after: int
    repairs: tuple[str, ...] = ()
    protected_from: int = 0
    counts: tuple[int, ...] = ()

    def stage(self, name: str) -> StageStats | None:
        """The stats of stage ``name`` (``"clip"``, ``"dedupe"``, ...), if it ran."""
        return next((s for s in self.stats if s.stage == name), None)

    @property
    def saved(self) -> int:
        """Tokens removed by the fold."""
        return self.tokens_before - self.tokens_after


def fold(
    messages: Sequence[BaseMessage],
    settings: CompactionSettings | None = None,
    *,
    keep_recent_tokens: int | None = None,
    head_end: int | None = None,
    repair: bool = True,
    verify: bool = True,
    loops: bool = True,
    protected_from: int | None = None,
    decided: int | None = None,
) -> FoldResult:
    """Fold a history into a cheaper projection; the input is never modified.

    Algorithm:
        Check the messages, then repair (if the raw history breaks the tool protocol),
        then find the protected recent window by tokens, then clip, dedupe and prune,
        then look for a current loop, then verify the tool protocol. Stages never add or
        remove messages, so per-message token counts are updated only where a stage
        changed a message: with a warm counter a call costs one memo lookup per message
        plus tokenizing the messages that are new or newly shortened.

    Args:
        messages: the raw history (every message needs an id).
        settings: counter, policies and stage switches (``CompactionSettings.default()``
            when omitted). Reuse one instance: its counter holds the caches.
        keep_recent_tokens: the protected recent window; default
            ``settings.recent_window(0)``.
        head_end: index just past the protected head (default: found from the list; 0
            for a slice that starts mid-conversation).
        repair: repair an invalid history first (reported in ``FoldResult.repairs``);
            when False an invalid input is folded as it is.
        verify: check the output's tool protocol before returning.
        loops: look for a current doom loop (``FoldResult.loop``).
        protected_from: start the protected window here instead of where
            ``keep_recent_tokens`` puts it (a frozen anchor, see ``compaction.anchor``).
        decided: fold as if the history ended here, and change nothing from
            ``protected_from`` on but clip-on-insert (which depends on the message
            alone): dedupe and pruning then see only ``messages[:decided]``, so messages
            appended later change no earlier message's fold (``compaction.anchor``).

    Returns:
        The projection with per-stage stats and per-message token counts.

    Raises:
        MessageError: an entry is not a message, or a message has no id.
        ProtocolError: the output breaks the tool protocol (only when ``repair`` is off
            and ``verify`` on, for an invalid input).

    >>> from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    >>> call = AIMessage("", id="a1", tool_calls=[{"name": "cat", "args": {}, "id": "c1"}])
    >>> history = [HumanMessage("go", id="h1"), call,
    ...            ToolMessage("x" * 50_000, tool_call_id="c1", id="t1")]
    >>> result = fold(history)
    >>> result.refs, result.tokens_before > 6_000 > result.tokens_after
    (('t1',), True)
    """
    if settings is None:
        settings = CompactionSettings.default()
    check_messages(messages)
    counter, cache, policies = settings.counter, settings.counter.cache, settings.policies
    counts = [counter.count(m) for m in messages]
    tokens_before = sum(counts)
    stats: list[StageStats] = []
    repairs: tuple[str, ...] = ()
    work = list(messages)
    if repair and protocol_violations(work):  # checking is cheaper than repairing
        repaired = repair_projection(work)
        if repaired.repairs:
            work, repairs = repaired.messages, repaired.repairs
            counts = [counter.count(m) for m in work]
            stats.append(StageStats("repair", tokens_before, sum(counts), len(repairs)))
    originals = work
    window = settings.recent_window(0) if keep_recent_tokens is None else keep_recent_tokens
    if protected_from is None:
        protected_from = protected_start(work, counter, window)
    limit = None if decided is None else (max(protected_from, decided), protected_from)
    total = sum(counts)
    changed: set[int] = set()

    def run(name: str, stage: Callable[[list[BaseMessage]], StageResult]) -> None:
        nonlocal work, total
        result = stage(work)
        before = total
        for i in result.changed:
            new = counter.count(result.messages[i])
            total += new - counts[i]
            counts[i] = new
        changed.update(result.changed)
        work = result.messages
        stats.append(StageStats(name, before, total, len(result.changed), result.refs))

    run(
        "clip",
        lambda ms: clip_tool_outputs(
            ms,
            policies,
            protected_from=protected_from,
            head_end=head_end,
            max_text_chars=settings.max_text_chars,
            max_output_chars=settings.output_cap_chars,
            cache=cache,
        ),
    )
    if settings.dedupe:
        run("dedupe", _limited(limit, lambda ms: dedupe_tool_reads(ms, policies, cache=cache)))
    if settings.prune:
        run(
            "prune",
            _limited(
                limit,
                lambda ms: prune_old_outputs(
                    ms,
                    policies,
                    protected_from=protected_from,
                    originals=originals[: len(ms)],
                    cache=cache,
                ),
            ),
        )
    loop = detect_loops(work, settings.loop_threshold) if loops else None
    if loops:
        stats.append(StageStats("loops", total, total, loop.count if loop else 0))
    if verify:
        verify_projection(work)
    refs = tuple(work[i].id or "" for i in sorted(changed))
    return FoldResult(
        messages=tuple(work),
        stats=tuple(stats),
        refs=refs,
        loop=loop,
        tokens_before=tokens_before,
        tokens_after=total,
        repairs=repairs,
        protected_from=protected_from,
        counts=tuple(counts),
    )


def _limited(
    limit: tuple[int, int] | None, stage: Callable[[list[BaseMessage]], StageResult]
) -> Callable[[list[BaseMessage]], StageResult]:
    """``stage`` run on ``messages[:decided]``, its changes kept before ``protected_from``
    only (``limit = (decided, protected_from)``); ``stage`` itself when ``limit`` is None."""
    if limit is None:
        return stage
    decided, protected_from = limit

    def run(messages: list[BaseMessage]) -> StageResult:
        result = stage(messages[:decided])
        changed = tuple(i for i in result.changed if i < protected_from)
        out = list(messages)
        for i in changed:
            out[i] = result.messages[i]
        return StageResult(out, changed)

    return run
