"""One call of background compaction, planned and finished: what the foreground runs.

``compaction.background`` plans a call (``Step``: the plan, the candidate it commits,
the one it starts, the one it waits for), lets the foreground summarize what is left
(with the local stand-in where no candidate is ready, ``stand_in``) and finishes it
here, with what the background did in the stats (``with_candidate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.assemble import CompactionResult
from langgraph_compact.compaction.candidate import Candidate, background_enabled
from langgraph_compact.compaction.plan import CompactionPlan
from langgraph_compact.compaction.run import finish_compaction
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summarize import ExtractiveSummarizer
from langgraph_compact.compaction.summary import RunningSummary

__all__ = ["Step", "finish_step", "stand_in", "with_candidate"]


@dataclass(frozen=True)
class Step:
    """One call, planned: the plan to run, the candidate it commits, the one it starts."""

    plan: CompactionPlan
    committed: RunningSummary | None
    ahead: tuple[CompactionPlan, Candidate] | None
    notes: list[str]
    running: Candidate | None = None
    """At the trigger: a running candidate on the stored summary (sooner than a new call)."""
    waited: bool = False


def stand_in(step: Step, settings: CompactionSettings) -> CompactionSettings | None:
    """The settings to summarize ``step`` in the foreground with the local summarizer
    instead of waiting for a model one (``background_stand_in``); None: no stand-in."""
    if (
        step.plan.request is None
        or not settings.background_stand_in
        or not background_enabled(settings)
        or isinstance(settings.summarizer, ExtractiveSummarizer)
    ):
        return None
    return replace(settings, summarizer=ExtractiveSummarizer())


def with_candidate(
    result: CompactionResult,
    committed: RunningSummary | None,
    topped_up: bool,
    notes: tuple[str, ...],
    waited: bool = False,
    local: bool = False,
) -> CompactionResult:
    """``result`` with what background compaction did; a committed candidate counts as the
    call's summary (``topped_up``: the call summarized the rest in the foreground;
    ``waited``: the call waited for the candidate to land; ``local``: the foreground
    summary was the stand-in's, so nothing waited for a model)."""
    stats = replace(result.stats, background=notes)
    if local and topped_up:
        stats = replace(stats, summary_source="stand-in", waited_for_summarizer=False)
        if committed is not None and result.summary is not None:  # both wrote this one
            name = f"{committed.summarizer}+{result.summary.summarizer}"
            result = replace(result, summary=result.summary.model_copy(update={"summarizer": name}))
            stats = replace(stats, summarizer=name)
    if waited:
        stats = replace(stats, waited_for_summarizer=True)
    if committed is not None and not topped_up:
        stats = replace(
            stats,
            summarized=True,
            summary_changed=True,
            summarizer=committed.summarizer,
            summarizer_path=committed.path,
            summary_source="background",
        )
        return replace(result, summary_changed=True, stats=stats)
    if committed is not None:
        source = "background+stand-in" if local else "background+foreground"
        stats = replace(stats, summary_source=source)
    return replace(result, stats=stats)


def finish_step(
    step: Step,
    answer: object,
    settings: CompactionSettings,
    blocks: Sequence[BaseMessage],
    local: bool = False,
) -> CompactionResult:
    """Finish the call's plan with the foreground ``answer``, with what background did
    (``local``: ``answer`` is the stand-in's, and ``settings`` name it)."""
    result = finish_compaction(step.plan, answer, settings, blocks=blocks)
    topped_up = step.plan.request is not None
    notes = tuple(step.notes)
    return with_candidate(result, step.committed, topped_up, notes, step.waited, local)
