"""Latency with a slow summarizer: compaction events on the critical path, or off it.

A model summarizer takes seconds per call; without background compaction the agent's
next call waits for it at every compaction event. Corpus trajectories from
``tests/data/corpus`` are replayed through a real compiled graph
(``langgraph_compact.replay``: pre-model step -> agent -> tools) with ``CompactionNode``
and ``ChatModelSummarizer`` over a ``TailSummaryModel`` that sleeps ``SUMMARIZER_LATENCY``
(1 s) per call (it asks a second time when required items are missing, as a real model
may), three times: ``background=False`` (every event waits); ``bg, waits``:
``background=True`` with ``background_stand_in=False`` (a candidate is summarized in a
worker thread from ``background_threshold`` of the trigger on and committed at the
trigger when still valid; where none is ready, the call waits for the model); and
``background``, the default for model summarizers (the same, but where no candidate is
ready the local extractive summarizer stands in and nothing waits for the model but a
candidate already running). Each agent turn takes ``AGENT_LATENCY`` (1 s, a model call
as slow as the summarizer's), slept after the pre-model step: the time the agent's own
call gives the worker.

Reported per mode, over every call of every trajectory:

- ``events``: compaction events (a summary committed); ``waited``: events on which the
  node waited for the summarizer, and their share (target <= 10%); ``1st``: of them, at a
  thread's first call (a clipped first request is summarized before the first model call,
  with nothing earlier to prepare it); ``later``: the share of the events after it;
  ``top-up``: events that committed a candidate and summarized what arrived after its
  snapshot in the foreground (they wait for the model in ``bg, waits``); ``stand-in``:
  events whose foreground summary the local summarizer wrote;
- ``p50``/``p95``/``max``: the node's own time per call (the pre-model step, not the
  agent's turn), in seconds;
- ``summ calls``/``summ in``: summarizer model calls and their input tokens (a candidate
  covers what existed at its snapshot, so the tail it leaves is longer and events come
  more often); ``over``: agent inputs above the budget; ``invalid``: calls with a
  tool-protocol violation or a coverage gap; ``discarded``/``failed``: candidates not
  committed.

All runs go at once, one thread each (they mostly sleep), so both modes share the
machine's noise. Run ``python bench/latency_bench.py [--quick] [--write-readme]``
(``--quick``: 2 trajectories; the full run takes under 3 minutes).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report
from _corpus import CORPUS_DIR
from langchain_core.runnables import RunnableConfig

from langgraph_compact import ChatModelSummarizer, CompactionNode, CompactState, TokenCounter
from langgraph_compact.compaction import CompactionSettings, Section
from langgraph_compact.replay import Strategy, budget_of, replay_trajectory
from langgraph_compact.replay.models import TailSummaryModel
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
BUDGET = 8_000
SUMMARIZER_LATENCY = 1.0
AGENT_LATENCY = 1.0
TRAJECTORIES = (
    "mini-swe-agent-dev_rerun-marshmallow-code__marshmallow-1343",
    "mini-swe-agent-lite_dev_noparallel-pylint-dev__astroid-1196",
    "mini-swe-agent-test-astropy__astropy-7746",
    "mini-swe-agent-test-django__django-11099",
    "mini-swe-agent-test-django__django-12470",
    "mini-swe-agent-test-django__django-15814",
)
QUICK_TRAJECTORIES = 2


@dataclass
class LatencyTotals:
    """One mode, summed over the trajectories."""

    mode: str
    seconds: list[float] = field(default_factory=list)
    events: int = 0
    waited: int = 0
    first: int = 0
    """Waits at a thread's first call: its clipped first request is summarized before the
    first model call, with no earlier call to prepare it in the background."""
    topped: int = 0
    """Events that committed a candidate and summarized the rest in the foreground."""
    stand_in: int = 0
    """Events whose foreground summary the local summarizer wrote instead of the model."""
    summarizer_calls: int = 0
    summarizer_input: int = 0
    over: int = 0
    violations: int = 0
    discarded: int = 0
    failed: int = 0
    errors: int = 0

    def quantile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    @property
    def waited_share(self) -> float:
        return self.waited / self.events if self.events else 0.0

    @property
    def later_share(self) -> float:
        """Waits after a thread's first call, per event after it."""
        later = self.events - self.first
        return (self.waited - self.first) / later if later > 0 else 0.0


MODES = {
    "foreground": {"background": False},
    "bg, waits": {"background": True, "background_stand_in": False},
    "background": {"background": True},
}
"""Without background compaction; with it, the foreground waiting for the model where no
candidate is ready; with it as by default (the local summarizer stands in there)."""


def replay_one(mode: str, name: str) -> LatencyTotals:
    """One trajectory through a fresh node in one of the ``MODES``."""
    totals = LatencyTotals(mode)
    budget = budget_of(BUDGET)
    model = TailSummaryModel(
        counter=COUNTER, json_section=Section.CRITICAL.value, latency=SUMMARIZER_LATENCY
    )
    settings = CompactionSettings(budget, counter=COUNTER, summarizer=ChatModelSummarizer(model))
    node = CompactionNode(settings, **MODES[mode])

    def step(state: Any, config: RunnableConfig) -> dict[str, Any]:
        started = time.perf_counter()
        update = node.invoke(state, config)
        totals.seconds.append(time.perf_counter() - started)
        time.sleep(AGENT_LATENCY)  # the agent's own model call
        return update

    strategy = Strategy(totals.mode, CompactState, step, "llm_input_messages", model, lambda: 0)
    trajectory = load_trajectory(CORPUS_DIR / f"{name}.jsonl")
    run = replay_trajectory(name, trajectory, strategy, budget, COUNTER)
    node.close()
    committed = [c for c in run.compactions if c["summary_source"]]
    totals.events = len(committed)
    totals.waited = sum(c["waited_for_summarizer"] for c in committed)
    totals.first = sum(c["waited_for_summarizer"] for c in run.compactions[:1])
    totals.topped = sum(str(c["summary_source"]).startswith("background+") for c in committed)
    totals.stand_in = sum(str(c["summary_source"]).endswith("stand-in") for c in committed)
    totals.summarizer_calls, totals.summarizer_input = model.calls, model.input_tokens
    totals.over = run.over_budget
    totals.violations = run.violations + run.gaps
    totals.discarded = node.background.counts.discarded
    totals.failed = node.background.counts.failed
    totals.errors = run.error is not None
    return totals


COUNTED = (
    "events",
    "waited",
    "first",
    "topped",
    "stand_in",
    "summarizer_calls",
    "summarizer_input",
    "over",
    "violations",
    "discarded",
    "failed",
    "errors",
)


def replay_all(names: tuple[str, ...]) -> dict[str, LatencyTotals]:
    """Both modes over every trajectory, all at once: the runs mostly sleep (the agent's
    and the summarizer's latency), so they share the machine and its noise evenly."""
    jobs = [(mode, name) for mode in MODES for name in names]
    with ThreadPoolExecutor(len(jobs)) as pool:
        runs = list(pool.map(lambda job: replay_one(*job), jobs))
    out = {mode: LatencyTotals(mode) for mode in MODES}
    for r in runs:
        t = out[r.mode]
        t.seconds += r.seconds
        for name in COUNTED:
            setattr(t, name, getattr(t, name) + getattr(r, name))
    return out


def run(quick: bool = False, out: Callable[[str], None] = print) -> dict[str, Any]:
    names = TRAJECTORIES[:QUICK_TRAJECTORIES] if quick else TRAJECTORIES
    started = time.perf_counter()
    out(
        f"Node latency on {len(names)} corpus trajectories at {BUDGET:,} tokens: summarizer "
        f"{SUMMARIZER_LATENCY:g} s per model call, agent turn {AGENT_LATENCY:g} s"
    )
    out("")
    out(
        f"{'mode':<11} {'calls':>6} {'events':>6} {'waited':>6} {'share':>6} {'1st':>4} "
        f"{'later':>6} {'top-up':>6} {'stand-in':>8} {'p50 s':>7} {'p95 s':>7} {'max s':>7} "
        f"{'summ calls':>10} "
        f"{'summ in':>9} {'over':>5} {'invalid':>7} {'discarded':>9} {'failed':>6} "
        f"{'errors':>6}"
    )
    data: dict[str, Any] = {}
    for t in replay_all(names).values():
        out(
            f"{t.mode:<11} {len(t.seconds):>6} {t.events:>6} {t.waited:>6} "
            f"{t.waited_share:>6.0%} {t.first:>4} {t.later_share:>6.0%} {t.topped:>6} "
            f"{t.stand_in:>8} "
            f"{statistics.median(t.seconds):>7.3f} {t.quantile(0.95):>7.3f} "
            f"{max(t.seconds):>7.3f} {t.summarizer_calls:>10} {t.summarizer_input:>9,} "
            f"{t.over:>5} {t.violations:>7} {t.discarded:>9} {t.failed:>6} {t.errors:>6}"
        )
        data[t.mode] = {
            **{k: v for k, v in vars(t).items() if k != "seconds"},
            "calls": len(t.seconds),
            "waited_share": t.waited_share,
            "later_share": t.later_share,
            "p50": statistics.median(t.seconds),
            "p95": t.quantile(0.95),
            "max": max(t.seconds),
        }
    fg, bg = data["foreground"], data["background"]
    out("")
    out(
        "waited = events on which the node waited for a summarizer (share of events); 1st = "
        "of them at a thread's first call (its clipped first request is summarized before "
        "the first model call: nothing earlier to prepare it); later = waits / events after "
        "the first call; top-up = events that committed a candidate, then summarized what "
        "arrived after its snapshot in the foreground; stand-in = events whose foreground "
        "summary the local extractive summarizer wrote instead of waiting for the model "
        "(background_stand_in, the default; off in 'bg, waits'); invalid = calls with a "
        "tool-protocol violation or a coverage gap."
    )
    out(
        f"background / foreground: p50 {bg['p50'] / fg['p50']:.2f}x, p95 "
        f"{bg['p95'] / fg['p95']:.3f}x, max {bg['max'] / fg['max']:.3f}x, events "
        f"{bg['events'] / fg['events']:.2f}x, summarizer input "
        f"{bg['summarizer_input'] / max(1, fg['summarizer_input']):.2f}x."
    )
    out(f"total bench time {time.perf_counter() - started:.0f} s")
    return data


if __name__ == "__main__":
    _report.main("latency", __doc__, run, f"{QUICK_TRAJECTORIES} trajectories")
