"""Latency with a slow summarizer: compaction events on the critical path, or off it.

A model summarizer takes seconds per call; without background compaction the agent's
next call waits for it at every compaction event. Corpus trajectories from
``tests/data/corpus`` are replayed through a real compiled graph
(``langgraph_compact.replay``: pre-model step -> agent -> tools) with ``CompactionNode``
and ``ChatModelSummarizer`` over a ``TailSummaryModel`` that sleeps ``SUMMARIZER_LATENCY``
(1 s) per call (it asks a second time when required items are missing, as a real model
may), twice: ``background=False`` (every event waits) and ``background=True`` (the
default for model summarizers: a candidate is summarized in a worker thread from
``background_threshold`` of the trigger on, and committed at the trigger when still
valid). Each agent turn takes ``AGENT_LATENCY`` s, slept after the pre-model step: the
time the agent's own model call gives the worker.

Reported per mode, over every call of every trajectory:

- ``events``: compaction events (a summary committed); ``waited``: events on which the
  node waited for the summarizer, and their share (target <= 10%);
- ``p50``/``p95``/``max``: the node's own time per call (the pre-model step, not the
  agent's turn), in seconds;
- ``summ calls``: summarizer model calls (background may add some: discarded or
  partial candidates); ``over``: agent inputs above the budget; ``discarded``/``failed``:
  candidates not committed.

Run ``python bench/latency_bench.py [--quick] [--write-readme]`` (``--quick``: 2
trajectories; the full run takes about 4 minutes, mostly the slept latencies).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import CORPUS_DIR
from _report import captured, publish
from langchain_core.runnables import RunnableConfig

from langgraph_compact import ChatModelSummarizer, CompactionNode, CompactState, TokenCounter
from langgraph_compact.compaction import CompactionSettings, Section
from langgraph_compact.replay import Strategy, budget_of, replay_trajectory
from langgraph_compact.replay.models import TailSummaryModel
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
BUDGET = 8_000
SUMMARIZER_LATENCY = 1.0
AGENT_LATENCY = 0.25
TRAJECTORIES = (
    "mini-swe-agent-dev_rerun-marshmallow-code__marshmallow-1343",
    "mini-swe-agent-lite_dev_noparallel-pylint-dev__astroid-1196",
    "mini-swe-agent-test-astropy__astropy-7746",
    "mini-swe-agent-test-django__django-11099",
)
QUICK_TRAJECTORIES = 2


@dataclass
class LatencyTotals:
    """One mode, summed over the trajectories."""

    mode: str
    seconds: list[float] = field(default_factory=list)
    events: int = 0
    waited: int = 0
    summarizer_calls: int = 0
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


def replay_mode(background: bool, names: tuple[str, ...]) -> LatencyTotals:
    """Every trajectory through the node with background compaction on or off."""
    totals = LatencyTotals("background" if background else "foreground")
    budget = budget_of(BUDGET)
    for name in names:
        model = TailSummaryModel(
            counter=COUNTER, json_section=Section.CRITICAL.value, latency=SUMMARIZER_LATENCY
        )
        settings = CompactionSettings(
            budget, counter=COUNTER, summarizer=ChatModelSummarizer(model=model)
        )
        node = CompactionNode(settings, background=background)

        def step(state: Any, config: RunnableConfig, node: CompactionNode = node) -> dict[str, Any]:
            started = time.perf_counter()
            update = node.invoke(state, config)
            totals.seconds.append(time.perf_counter() - started)
            time.sleep(AGENT_LATENCY)  # the agent's own model call
            return update

        strategy = Strategy(totals.mode, CompactState, step, "llm_input_messages", model, lambda: 0)
        run = replay_trajectory(
            name, load_trajectory(CORPUS_DIR / f"{name}.jsonl"), strategy, budget, COUNTER
        )
        node.close()
        committed = [c for c in run.compactions if c["summary_source"]]
        totals.events += len(committed)
        totals.waited += sum(c["waited_for_summarizer"] for c in committed)
        totals.summarizer_calls += model.calls
        totals.over += run.over_budget
        totals.violations += run.violations + run.gaps
        totals.discarded += node.background.counts.discarded
        totals.failed += node.background.counts.failed
        totals.errors += run.error is not None
    return totals


def run(quick: bool = False, out: Callable[[str], None] = print) -> dict[str, Any]:
    names = TRAJECTORIES[:QUICK_TRAJECTORIES] if quick else TRAJECTORIES
    started = time.perf_counter()
    out(
        f"Node latency on {len(names)} corpus trajectories at {BUDGET:,} tokens: summarizer "
        f"{SUMMARIZER_LATENCY:g} s per model call, agent turn {AGENT_LATENCY:g} s"
    )
    out("")
    out(
        f"{'mode':<11} {'calls':>6} {'events':>6} {'waited':>6} {'share':>6} {'p50 s':>7} "
        f"{'p95 s':>7} {'max s':>7} {'summ calls':>10} {'over':>5} {'discarded':>9} "
        f"{'failed':>6} {'errors':>6}"
    )
    data: dict[str, Any] = {}
    for background in (False, True):
        t = replay_mode(background, names)
        out(
            f"{t.mode:<11} {len(t.seconds):>6} {t.events:>6} {t.waited:>6} "
            f"{t.waited_share:>6.0%} {statistics.median(t.seconds):>7.3f} "
            f"{t.quantile(0.95):>7.3f} {max(t.seconds):>7.3f} {t.summarizer_calls:>10} "
            f"{t.over:>5} {t.discarded:>9} {t.failed:>6} {t.errors:>6}"
        )
        data[t.mode] = {
            **{k: v for k, v in vars(t).items() if k != "seconds"},
            "calls": len(t.seconds),
            "waited_share": t.waited_share,
            "p50": statistics.median(t.seconds),
            "p95": t.quantile(0.95),
            "max": max(t.seconds),
        }
    fg, bg = data["foreground"], data["background"]
    out("")
    out(
        f"p95 background / foreground = {bg['p95'] / fg['p95']:.3f}; waited on "
        f"{bg['waited_share']:.0%} of events with background, {fg['waited_share']:.0%} without."
    )
    out(f"total bench time {time.perf_counter() - started:.0f} s")
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TRAJECTORIES} trajectories")
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    with captured() as out:
        data = run(quick=args.quick)
    if args.write_readme:
        publish("latency", out.getvalue(), data)


if __name__ == "__main__":
    main()
