"""What a run costs with prompt caching: ours against LangMem, LangChain and plain trimming.

Providers bill the leading part of a prompt that is identical to an earlier prompt's at a
fraction of the input price (a cache read). A context strategy that rewrites an old
message on every call forfeits that discount from that message on, even if it sends fewer
tokens. Every corpus trajectory in ``tests/data/corpus`` is replayed through a real
compiled graph (``langgraph_compact.replay``: pre-model step -> agent -> tools, the agent
replaying the recorded turns) at budgets 8,000 and 4,000, for:

- ``ours``: ``CompactionNode`` with the default ``ExtractiveSummarizer``;
- ``ours-agent``: the same through ``CompactionMiddleware``, the ``create_agent`` door;
- ``ours-deep``: the same as ``DeepAgentsCompaction`` in a real ``create_deep_agent``
  graph, the deepagents door (its tool schemas left out of the budget, as for all);
- ``ours+llm``: the same with ``ChatModelSummarizer`` (a paid summarizer model);
- ``langmem``: LangMem's ``SummarizationNode``;
- ``middleware``: LangChain's ``SummarizationMiddleware``;
- ``deepagents``: deepagents' own summarization middleware;
- ``editing``: LangChain's ``ContextEditingMiddleware`` (``ClearToolUsesEdit`` at 0.8 B);
- ``trim``: ``trim_messages`` to the budget;
- ``full``: the whole history, never compacted.

(settings as in ``langgraph_compact.replay.strategies``; the summarizing contenders share
the deterministic ``TailSummaryModel``.) For each agent-model call the harness records
the input tokens and the *cacheable prefix*: the tokens of the leading messages whose
content is identical to the previous call's input. Reported, summed over every call of
every trajectory:

- ``input``: input tokens; ``prefix``: cacheable prefix / input tokens; ``ceil``: one
  minus the share of input tokens that arrived since the previous call (the reply, tool
  results, a human turn): no cache can serve those, so no strategy's prefix can pass its
  ``ceil``, whatever it does to the messages it showed before;
- ``cost@0.1`` and ``cost@0.5``: effective input cost in units of one uncached input
  token, the prefix billed at 0.1x and 0.5x (cache writes billed as plain input), and
  the same relative to the cheapest strategy;
- ``p/c``: prefix / ceil, how much of what it could cache the strategy does cache;
- ``over``: agent inputs above the budget; ``ev/100``: compaction events per 100 agent
  calls; ``task``: share of calls whose input held the first request (``trim`` is cheap
  because it drops it: what the model may not see costs nothing).

A line per budget sets each door (``ours-agent``, ``ours-deep``) against the node: its
cost and prefix over the node's.

A second table per budget bills the summarizer: its calls per 100 agent calls, its input
and output tokens (ours: none, the extractive summarizer is local; the others share the
stand-in ``TailSummaryModel``, 400-token answers, counted as a provider reports them),
and the effective total ``cost@0.1 + r x (summarizer input + output)`` at summarizer price
ratios ``r`` of 1.0 (the agent's own model) and 0.25 (a cheaper one).

Run ``python bench/cost_bench.py [--quick] [--write-readme]`` (``--quick``: 8
trajectories, for iteration; a full run takes a few minutes on 2 cores).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report
from _corpus import corpus_files

from langgraph_compact import TokenCounter
from langgraph_compact.replay import ReplayRun, budget_of, make_strategy, replay_trajectory
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
BUDGETS = (8_000, 4_000)
STRATEGIES = (
    "ours",
    "ours-agent",
    "ours-deep",
    "ours+llm",
    "langmem",
    "middleware",
    "deepagents",
    "editing",
    "trim",
    "full",
)
PRICES = (0.1, 0.5)
SUMMARIZER_RATIOS = (1.0, 0.25)
QUICK_TRAJECTORIES = 8


@dataclass
class CostTotals:
    """One strategy at one budget, summed over the trajectories."""

    strategy: str
    budget: int
    calls: int = 0
    input_tokens: int = 0
    prefix_tokens: int = 0
    new_tokens: int = 0
    summarizer_calls: int = 0
    summarizer_input: int = 0
    summarizer_output: int = 0
    over: int = 0
    events: int = 0
    errors: int = 0
    task_calls: int = 0

    def add(self, run: ReplayRun) -> None:
        self.calls += len(run.calls)
        self.input_tokens += run.input_tokens
        self.prefix_tokens += run.prefix_tokens
        self.new_tokens += run.new_tokens
        self.summarizer_calls += run.summarizer_calls
        self.summarizer_input += run.summarizer_input_tokens
        self.summarizer_output += run.summarizer_output_tokens
        self.over += run.over_budget
        self.events += events_of(run)
        self.errors += run.error is not None
        self.task_calls += sum(c.task for c in run.calls)

    @property
    def prefix(self) -> float:
        return self.prefix_tokens / self.input_tokens if self.input_tokens else 0.0

    @property
    def ceiling(self) -> float:
        """The prefix this strategy could reach if it never rewrote a message it showed."""
        return 1 - self.new_tokens / self.input_tokens if self.input_tokens else 0.0

    def cost(self, price: float) -> float:
        """Input cost in uncached-token units, the cacheable prefix at ``price``."""
        return self.input_tokens - (1 - price) * self.prefix_tokens

    def total(self, ratio: float) -> float:
        """``cost(0.1)`` plus the summarizer's tokens at ``ratio`` of the agent's price."""
        return self.cost(0.1) + ratio * (self.summarizer_input + self.summarizer_output)

    def per_100(self, n: int) -> float:
        return 100 * n / max(1, self.calls)


def events_of(run: ReplayRun) -> int:
    """Compaction events: ours reports each one (a summary, or a refold that moved the
    fold's anchor) in its stream events, the first call's fold aside; the others count
    their summarizer runs or trims."""
    if not run.compactions:
        return run.events
    return sum(
        bool(c["summarized"] or (i and c["refolded"])) for i, c in enumerate(run.compactions)
    )


def replay_budget(tokens: int, paths: Sequence[Path]) -> list[CostTotals]:
    """Every strategy over every trajectory at one budget."""
    budget = budget_of(tokens)
    trajectories = [(p.stem, load_trajectory(p)) for p in paths]
    out = []
    for name in STRATEGIES:
        totals = CostTotals(name, tokens)
        for stem, messages in trajectories:
            strategy = make_strategy(name, budget, COUNTER)
            totals.add(replay_trajectory(stem, messages, strategy, budget, COUNTER))
        out.append(totals)
    return out


def table(rows: Sequence[CostTotals], out: Callable[[str], None]) -> None:
    best = {p: min(r.cost(p) for r in rows) for p in PRICES}
    out(
        f"{'budget':>6} {'strategy':<10} {'calls':>6} {'input':>11} {'prefix':>6} {'ceil':>5} "
        f"{'p/c':>5} {'cost@0.1':>10} {'rel':>5} {'cost@0.5':>10} {'rel':>5} {'over':>5} "
        f"{'ev/100':>6} {'task':>5} {'errors':>6}"
    )
    for r in rows:
        c1, c5 = r.cost(0.1), r.cost(0.5)
        out(
            f"{r.budget:>6} {r.strategy:<10} {r.calls:>6} {r.input_tokens:>11,} "
            f"{r.prefix:>6.3f} {r.ceiling:>5.3f} {r.prefix / max(1e-9, r.ceiling):>5.3f} "
            f"{c1:>10,.0f} {c1 / best[0.1]:>5.2f} {c5:>10,.0f} {c5 / best[0.5]:>5.2f} "
            f"{r.over:>5} {r.per_100(r.events):>6.1f} {r.task_calls / max(1, r.calls):>5.2f} "
            f"{r.errors:>6}"
        )


def bill(rows: Sequence[CostTotals], out: Callable[[str], None]) -> None:
    """The summarizer's share: calls, tokens, and the total with them billed."""
    best = {q: min(r.total(q) for r in rows) for q in SUMMARIZER_RATIOS}
    out(
        f"{'budget':>6} {'strategy':<10} {'summ/100':>8} {'summ in':>10} {'summ out':>9} "
        + " ".join(f"{f'total@{q}':>11} {'rel':>5}" for q in SUMMARIZER_RATIOS)
    )
    for r in rows:
        totals = " ".join(f"{r.total(q):>11,.0f} {r.total(q) / best[q]:>5.2f}" for q in best)
        out(
            f"{r.budget:>6} {r.strategy:<10} {r.per_100(r.summarizer_calls):>8.1f} "
            f"{r.summarizer_input:>10,} {r.summarizer_output:>9,} {totals}"
        )


def doors(rows: Sequence[CostTotals], out: Callable[[str], None]) -> None:
    """Each door's cost and prefix relative to the node's (1.000: the same requests)."""
    by = {r.strategy: r for r in rows}
    node = by["ours"]
    for name in ("ours-agent", "ours-deep"):
        r = by[name]
        out(
            f"{r.budget:>6} {name} / ours: cost@0.1 {r.cost(0.1) / node.cost(0.1):.3f}, "
            f"cost@0.5 {r.cost(0.5) / node.cost(0.5):.3f}, prefix {r.prefix / node.prefix:.3f}, "
            f"calls {r.calls} / {node.calls}, errors {r.errors}"
        )


def run(quick: bool = False, out: Callable[[str], None] = print) -> dict[str, Any]:
    paths = corpus_files()[:QUICK_TRAJECTORIES] if quick else corpus_files()
    started = time.perf_counter()
    data: dict[str, Any] = {}
    out(f"Effective input cost on {len(paths)} corpus trajectories (cache reads at 0.1x / 0.5x)")
    out("")
    for tokens in BUDGETS:
        rows = replay_budget(tokens, paths)
        table(rows, out)
        out("")
        bill(rows, out)
        out("")
        doors(rows, out)
        out("")
        data[str(tokens)] = [
            {
                **vars(r),
                "prefix": r.prefix,
                "ceiling": r.ceiling,
                **{f"cost@{p}": r.cost(p) for p in PRICES},
                **{f"total@{q}": r.total(q) for q in SUMMARIZER_RATIOS},
            }
            for r in rows
        ]
    out(
        "prefix = tokens of leading messages identical to the previous call's input / input "
        "tokens; ceil = 1 - tokens of messages that arrived since the previous call / input "
        "tokens (no cache serves them: the highest prefix the strategy's own inputs allow); "
        "p/c = prefix / ceil; cost = input - (1 - price) x prefix, in uncached-token units; "
        "rel = cost / the cheapest strategy's; ev/100 = compaction events per 100 agent "
        "calls; summ/100 = summarizer-model calls per 100 agent calls; total@r = cost@0.1 "
        "+ r x (summarizer input + output tokens)."
    )
    out(f"total bench time {time.perf_counter() - started:.0f} s")
    return data


if __name__ == "__main__":
    _report.main("cost", __doc__, run, f"{QUICK_TRAJECTORIES} trajectories")
