"""fold: the cheap, deterministic half of compaction (repair, clip, dedupe, prune, loops).

Folding runs before any summarizer because it is free, exact and reversible: every
shortened message keeps its id and says how to get the original back (``ref=<id>``).
On real coding-agent trajectories it removes a large share of the tokens on its own, so
the summarizer runs less often and on less.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.clip import MESSAGE_TEXT_MAX_CHARS, clip_tool_outputs
from langgraph_compact.compaction.dedupe import dedupe_tool_reads
from langgraph_compact.compaction.loops import LOOP_THRESHOLD, LoopSignal, detect_loops
from langgraph_compact.compaction.prune import protected_start, prune_old_outputs
from langgraph_compact.compaction.stage import StageResult, StageStats
from langgraph_compact.compaction.verify import (
    protocol_violations,
    repair_projection,
    verify_projection,
)
from langgraph_compact.messages import require_ids
from langgraph_compact.policies import ToolPolicies
from langgraph_compact.tokens import TokenCounter

__all__ = ["PROTECT_RECENT_TOKENS", "FoldConfig", "FoldResult", "fold"]

PROTECT_RECENT_TOKENS = 20_000
"""Default size of the recent window that prune and text clipping leave alone."""


@dataclass(frozen=True)
class FoldConfig:
    """Settings of :func:`fold`. Reuse one instance: its counter holds the token cache.

    Attributes:
        counter: the token counter (its cache makes repeated folds cheap).
        policies: per-tool policies.
        protect_recent_tokens: size of the recent window that is never pruned and whose
            message text and tool-call arguments are never clipped.
        max_text_chars: clip limit for human/AI text outside the recent window.
        dedupe: run the dedupe stage.
        prune: run the prune stage.
        loop_threshold: identical consecutive calls that count as a loop.
        repair: repair an invalid raw history in the projection first (reported in
            ``FoldResult.repairs``); when False an invalid input raises ProtocolError.
        verify: check the output's tool protocol before returning.
    """

    counter: TokenCounter = field(default_factory=TokenCounter)
    policies: ToolPolicies = field(default_factory=ToolPolicies)
    protect_recent_tokens: int = PROTECT_RECENT_TOKENS
    max_text_chars: int = MESSAGE_TEXT_MAX_CHARS
    dedupe: bool = True
    prune: bool = True
    loop_threshold: int = LOOP_THRESHOLD
    repair: bool = True
    verify: bool = True


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
    """

    messages: list[BaseMessage]
    stats: list[StageStats]
    refs: tuple[str, ...]
    loop: LoopSignal | None
    tokens_before: int
    tokens_after: int
    repairs: tuple[str, ...] = ()
    protected_from: int = 0

    def stage(self, name: str) -> StageStats | None:
        """The stats of stage ``name`` (``"clip"``, ``"dedupe"``, ...), if it ran."""
        return next((s for s in self.stats if s.stage == name), None)

    @property
    def saved(self) -> int:
        """Tokens removed by the fold."""
        return self.tokens_before - self.tokens_after


def fold(messages: Sequence[BaseMessage], config: FoldConfig) -> FoldResult:
    """Fold a history into a cheaper projection; the input is never modified.

    Algorithm:
        Check ids, then repair (if the raw history breaks the tool protocol), then find
        the protected recent window by tokens, then clip, dedupe and prune, then look
        for a current loop, then verify the tool protocol. Stages never add or remove
        messages, so per-message token counts are updated only where a stage changed a
        message: with a warm counter cache a call costs one digest per message plus
        tokenizing the messages that are new or newly shortened.

    Args:
        messages: the raw history (every message needs an id).
        config: the fold settings.

    Returns:
        The projection with per-stage stats.

    Raises:
        MessageError: a message has no id.
        ProtocolError: the output breaks the tool protocol (only when ``repair`` is
            off and the input was already invalid).

    >>> from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    >>> call = AIMessage("", id="a1", tool_calls=[{"name": "cat", "args": {}, "id": "c1"}])
    >>> history = [HumanMessage("go", id="h1"), call,
    ...            ToolMessage("x" * 50_000, tool_call_id="c1", id="t1")]
    >>> result = fold(history, FoldConfig())
    >>> result.refs, result.tokens_before > 6_000 > result.tokens_after
    (('t1',), True)
    """
    require_ids(messages)
    counter = config.counter
    counts = [counter.count(m) for m in messages]
    tokens_before = sum(counts)
    stats: list[StageStats] = []
    repairs: tuple[str, ...] = ()
    work = list(messages)
    if config.repair and protocol_violations(work):  # checking is cheaper than repairing
        repaired = repair_projection(work)
        if repaired.repairs:
            work, repairs = repaired.messages, repaired.repairs
            counts = [counter.count(m) for m in work]
            stats.append(StageStats("repair", tokens_before, sum(counts), len(repairs)))
    originals = work
    protected_from = protected_start(work, counter, config.protect_recent_tokens)
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
            config.policies,
            protected_from=protected_from,
            max_text_chars=config.max_text_chars,
        ),
    )
    if config.dedupe:
        run("dedupe", lambda ms: dedupe_tool_reads(ms, config.policies))
    if config.prune:
        run(
            "prune",
            lambda ms: prune_old_outputs(
                ms, config.policies, protected_from=protected_from, originals=originals
            ),
        )
    loop = detect_loops(work, config.loop_threshold)
    stats.append(StageStats("loops", total, total, loop.count if loop else 0))
    if config.verify:
        verify_projection(work)
    refs = tuple(work[i].id or "" for i in sorted(changed))
    return FoldResult(
        messages=work,
        stats=stats,
        refs=refs,
        loop=loop,
        tokens_before=tokens_before,
        tokens_after=total,
        repairs=repairs,
        protected_from=protected_from,
    )
