"""``CompactionSettings``: every option of the node, the fold stages and the summary, in one place.

One frozen object is shared by the node, ``plan_compaction``, ``compact`` and ``fold``.
Reuse it: its ``counter`` holds the token cache and the per-message memo that keep a
call O(new messages).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langgraph_compact.compaction.anchor import MIN_COMPACTION_GAIN
from langgraph_compact.compaction.clip import MESSAGE_TEXT_MAX_CHARS
from langgraph_compact.compaction.loops import LOOP_THRESHOLD
from langgraph_compact.compaction.summarize import ExtractiveSummarizer, Summarizer
from langgraph_compact.errors import SettingsError
from langgraph_compact.policies import ToolPolicies
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = ["CHARS_PER_TOKEN", "DEFAULT_CONTEXT_WINDOW", "SUMMARY_MAX_TOKENS", "CompactionSettings"]

DEFAULT_CONTEXT_WINDOW = 128_000
"""Context window of the budget used when ``fold`` is called without settings."""
SUMMARY_MAX_TOKENS = 2_000
"""Upper bound of the default summary cap."""
CHARS_PER_TOKEN = 4
"""A rough size of a token in characters of code or English, for character limits."""


@dataclass(frozen=True)
class CompactionSettings:
    """How the node compacts. ``budget`` is the one setting to choose.

    Attributes:
        budget: token budget; compaction runs above ``budget.trigger_tokens`` and
            compacts down to about ``budget.target_tokens``.
        counter: token counter (tiktoken ``o200k_base`` by default).
        policies: per-tool clip/prune/dedupe policies.
        summarizer: the summarizer; ``ExtractiveSummarizer`` (no model) by default.
        keep_recent_tokens: the recent window the model sees verbatim: never pruned,
            its message text and tool-call arguments never clipped, and after a
            compaction the tail kept unsummarized. Default: what the target leaves after
            the head and the summary.
        summary_max_tokens: cap on the rendered summary; default three fifths of the
            target, at most ``SUMMARY_MAX_TOKENS``: what matters of the covered span is
            denser in the summary than in more verbatim tail, and the tail refills with
            every turn while what the summary drops is out of view (the share matters
            below a target of 3,334 tokens; the tail keeps the rest of the target after
            the head). It grows only when pinned items (constraints, preferences,
            corrected facts) alone need more.
        head_max_tokens: cap on the first request; a longer one is clipped (beginning
            and end kept, with a marker) and the items of its omitted part carried by
            the summary. Default: an eighth of the usable budget.
        protect_first_human: the first human message belongs to the protected head.
        max_text_chars: clip limit for human/AI text outside the recent window.
        output_share: the most of the usable budget one tool output may take (as
            characters, at ``CHARS_PER_TOKEN``); a ceiling on every tool policy's
            ``max_chars``, so a 6,000-character log cannot fill a 4,000-token window.
            None: the policies alone decide.
        dedupe: run the dedupe stage.
        prune: run the prune stage.
        loop_threshold: identical consecutive tool calls that count as a doom loop.
        loop_note: append a short note to the projection while a loop goes on.
        summarizer_timeout: seconds to wait for a model summarizer before falling back
            to ``ExtractiveSummarizer`` (None: wait indefinitely). The deterministic
            summarizer is never timed.
        min_compaction_gain: share of the usable budget a compaction event (moving the
            fold's anchor, or summarizing) must free; a smaller one is declined while
            the unchanged projection fits, to keep the provider's prompt cache
            (``compaction.anchor``). 0: never decline.
        thrash_events: after this many consecutive summaries that each freed less than
            ``thrash_min_saving`` of the projection, the summarizer is not called again
            until ``thrash_resume`` of the usable budget in new tokens has arrived
            (stats ``paused``, and one note in the projection). 0: never pause.
        thrash_min_saving: see ``thrash_events``.
        thrash_resume: see ``thrash_events``.
        background: prepare the next summary off the critical path
            (``compaction.background``): above ``background_threshold`` of the trigger a
            candidate is summarized in a worker thread (sync and async graphs: it
            outlives the caller's event loop) and committed when the trigger is
            reached, if its span and the summary generation are unchanged. None (auto):
            on for ``ChatModelSummarizer`` (a model call takes seconds), off for the
            local ``ExtractiveSummarizer``.
        background_threshold: share of ``budget.trigger_tokens`` below which no candidate
            starts (kept above ``budget.target_tokens``). Above it, a candidate starts when
            the thread's pace puts the trigger within three summarizer runs (measured), or
            at once while they are unmeasured: later leaves less in the tail at commit.
        background_workers: the most candidates summarized at once, per node.
        background_stand_in: with background on, the foreground never waits for the
            model summarizer: a call at the trigger with no finished candidate (a
            thread's first call over the budget, a burst past the trigger before one was
            due, what arrived after a committed candidate's snapshot, a thread whose
            candidate found every worker busy with other threads') is summarized by
            the local ``ExtractiveSummarizer`` (stats ``summary_source`` "stand-in",
            ``counts.stand_in``), and the model's next candidate extends that summary.
            A running candidate is still waited for (it is paid for). False: such calls
            wait for the model. Serving many threads at once, raise
            ``background_workers`` if ``counts.busy`` grows.
    """

    budget: Budget
    counter: TokenCounter = field(default_factory=TokenCounter)
    policies: ToolPolicies = field(default_factory=ToolPolicies)
    summarizer: Summarizer = field(default_factory=ExtractiveSummarizer)
    keep_recent_tokens: int | None = None
    summary_max_tokens: int | None = None
    head_max_tokens: int | None = None
    protect_first_human: bool = True
    max_text_chars: int = MESSAGE_TEXT_MAX_CHARS
    output_share: float | None = 0.15
    dedupe: bool = True
    prune: bool = True
    loop_threshold: int = LOOP_THRESHOLD
    loop_note: bool = True
    summarizer_timeout: float | None = 120.0
    min_compaction_gain: float = MIN_COMPACTION_GAIN
    thrash_events: int = 3
    thrash_min_saving: float = 0.2
    thrash_resume: float = 0.5
    background: bool | None = None
    background_threshold: float = 0.6
    background_workers: int = 2
    background_stand_in: bool = True

    def __post_init__(self) -> None:
        for name in ("keep_recent_tokens", "summary_max_tokens", "head_max_tokens"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise SettingsError(f"{name} must be >= 0, not {value}")
        if self.loop_threshold < 2:
            raise SettingsError(f"loop_threshold must be at least 2, not {self.loop_threshold}")
        if self.output_share is not None and not 0 < self.output_share <= 1:
            raise SettingsError(f"output_share must be in (0, 1] or None, not {self.output_share}")
        if self.thrash_events < 0 or not 0 <= self.thrash_min_saving < 1:
            raise SettingsError(
                f"thrash_events must be >= 0 and thrash_min_saving in [0, 1), not "
                f"{self.thrash_events} and {self.thrash_min_saving}"
            )
        if not 0 <= self.min_compaction_gain < 1:
            raise SettingsError(
                f"min_compaction_gain must be in [0, 1), not {self.min_compaction_gain}"
            )
        if not 0 < self.background_threshold <= 1 or self.background_workers < 1:
            raise SettingsError(
                f"background_threshold must be in (0, 1] and background_workers >= 1, not "
                f"{self.background_threshold} and {self.background_workers}"
            )
        if self.summarizer_timeout is not None and self.summarizer_timeout <= 0:
            raise SettingsError(
                f"summarizer_timeout must be positive or None, not {self.summarizer_timeout}"
            )

    @classmethod
    def default(cls) -> CompactionSettings:
        """Settings for a ``DEFAULT_CONTEXT_WINDOW`` model, all other options default."""
        return cls(Budget(context_window=DEFAULT_CONTEXT_WINDOW))

    @property
    def summary_cap(self) -> int:
        """Token cap of the rendered summary (before pinned items grow it)."""
        if self.summary_max_tokens is not None:
            return self.summary_max_tokens
        return min(SUMMARY_MAX_TOKENS, self.budget.target_tokens * 3 // 5)

    @property
    def head_cap(self) -> int:
        """Token cap of the clipped first request."""
        if self.head_max_tokens is not None:
            return self.head_max_tokens
        return self.budget.usable // 8

    @property
    def output_cap_chars(self) -> int | None:
        """Characters one tool output may keep, from ``output_share`` of the budget."""
        if self.output_share is None:
            return None
        return max(1_000, int(self.budget.usable * self.output_share * CHARS_PER_TOKEN))

    def recent_window(self, head_tokens: int) -> int:
        """Tokens of the verbatim recent window, given what the head takes."""
        if self.keep_recent_tokens is not None:
            return self.keep_recent_tokens
        return max(0, self.budget.target_tokens - head_tokens - self.summary_cap)
