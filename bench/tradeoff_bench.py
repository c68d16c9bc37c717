"""The cost–fidelity frontier of ours' knobs, beside LangMem, in one run.

The cost issue asks for LangMem's input tokens and cost at unchanged fidelity. Whether a
setting of ours gets there is a trade: a lower target or a smaller summary cap sends fewer
tokens and keeps fewer facts. This bench measures both sides of each setting in one run,
so the claim is measured, not argued. Settings of ``ours`` (``CompactionNode`` with the
default ``ExtractiveSummarizer``), as ``Budget(trigger_fraction, target_fraction)`` and
``CompactionSettings(summary_max_tokens, head_max_tokens)``:

- ``default``: trigger 0.8, target 0.5, summary cap min(2000, 3/5 target), head cap B / 8;
- ``tgt0.2+cap800`` and ``tgt0.2+cap400``: target 0.2, summary cap 800 or 400 tokens;
- ``trg0.7+tgt0.2+cap800+head200``: also trigger 0.7 and the first request clipped to 200;
- ``trg0.6+tgt0.2+cap800``: trigger 0.6;

and ``langmem`` (LangMem's ``SummarizationNode``, ``langgraph_compact.replay.strategies``),
at budgets 8,000 and 4,000 (``budget_of``: the whole window is usable input).

Cost is measured as in ``cost_bench.py``: every corpus trajectory replayed through a real
compiled graph, LangMem summarizing with the cost bench's ``TailSummaryModel``. Reported:
input tokens, ``cost@0.1`` (the cacheable prefix billed at 0.1x), both relative to
LangMem's, ``p/c`` (prefix / ceiling), compaction events per 100 agent calls, calls over
the budget, and for ours the mean input per call split into head (system prompt and first
request), summary and tail (everything after the summary), from the node's
``{"compaction": stats}`` stream events.

Fidelity is measured as in ``fidelity_bench.py`` (``seen_text`` probes at the last model
call, stale values in non-verbatim messages) on every third trajectory, seed 1, with the
bench's canaries and the first held-out generator; LangMem summarizes there with the
fidelity bench's ``LineScoringModel`` (answers up to its summary cap), as that bench does.

Run ``python bench/tradeoff_bench.py [--quick] [--write-readme]`` (``--quick``: cost on
every 6th trajectory, fidelity on every 12th; a full run takes about 11 minutes on 2 cores).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report
import fidelity_bench
from _corpus import corpus_files
from _generators import GENERATORS
from cost_bench import CostTotals
from langchain_core.messages import BaseMessage

from langgraph_compact import Budget, TokenCounter
from langgraph_compact.replay import (
    ReplayRun,
    Strategy,
    budget_of,
    make_strategy,
    replay_trajectory,
)
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
BUDGETS = (8_000, 4_000)
SEED = 1
FIDELITY_GENERATORS = ("canaries", "held-out")
PRICE = 0.1
LANGMEM = "langmem"

SETTINGS: dict[str, tuple[dict[str, float], dict[str, int]]] = {
    "default": ({}, {}),
    "tgt0.2+cap800": ({"target_fraction": 0.2}, {"summary_max_tokens": 800}),
    "tgt0.2+cap400": ({"target_fraction": 0.2}, {"summary_max_tokens": 400}),
    "trg0.7+tgt0.2+cap800+head200": (
        {"trigger_fraction": 0.7, "target_fraction": 0.2},
        {"summary_max_tokens": 800, "head_max_tokens": 200},
    ),
    "trg0.6+tgt0.2+cap800": (
        {"trigger_fraction": 0.6, "target_fraction": 0.2},
        {"summary_max_tokens": 800},
    ),
}
"""Setting name -> (``Budget`` fractions, ``CompactionSettings`` caps) of ours."""


def ours(setting: str, tokens: int) -> Strategy:
    """The ``ours`` replay strategy with one of ``SETTINGS``."""
    fractions, caps = SETTINGS[setting]
    budget = Budget(
        context_window=tokens,
        reserved_output=0,
        compaction_reserve=0,
        safety_margin=0,
        **fractions,
    )
    return make_strategy("ours", budget, COUNTER, options=caps)


def cost_strategy(setting: str, tokens: int) -> Strategy:
    """What the cost side replays: LangMem as the cost bench sets it up, or ours."""
    if setting == LANGMEM:
        return make_strategy(LANGMEM, budget_of(tokens), COUNTER)
    return ours(setting, tokens)


def fidelity_strategy(setting: str, tokens: int) -> Strategy:
    """What the fidelity side replays: LangMem as the fidelity bench sets it up, or ours."""
    if setting == LANGMEM:
        return fidelity_bench.strategy(LANGMEM, tokens)
    return ours(setting, tokens)


@dataclass
class Row:
    """One setting at one budget: its cost over the cost paths, its fidelity on the sample."""

    setting: str
    budget: int
    cost: CostTotals
    head: int = 0
    summary: int = 0
    tail: int = 0
    split_calls: int = 0
    """Calls with a ``compaction`` stream event (ours: every call; LangMem: none)."""
    fidelity: dict[str, fidelity_bench.Outcome] = field(default_factory=dict)
    seconds: float = 0.0

    def add_split(self, run: ReplayRun) -> None:
        """Head, summary and tail tokens of each call, from the node's stream events."""
        for call, stats in zip(run.calls, run.compactions, strict=False):
            self.head += stats["head_tokens"]
            self.summary += stats["summary_tokens"]
            self.tail += call.input_tokens - stats["head_tokens"] - stats["summary_tokens"]
            self.split_calls += 1

    def split(self) -> tuple[float, float, float] | None:
        """Mean head, summary and tail tokens per call; None without stream events."""
        n = self.split_calls
        return (self.head / n, self.summary / n, self.tail / n) if n else None

    def kept(self, generator: str) -> float:
        """% of the planted items visible at the last model call."""
        o = self.fidelity[generator]
        return 100 * sum(o.survived.values()) / max(1, sum(o.planted.values()))


Planted = tuple[str, list[BaseMessage], list[Any]]


def plant(paths: Sequence[Path]) -> dict[str, list[Planted]]:
    """Every sample trajectory planted by each generator (seed ``SEED``), once per run."""
    return {
        g: [(p.stem, *GENERATORS[g](load_trajectory(p), SEED)) for p in paths]
        for g in FIDELITY_GENERATORS
    }


def fidelity(setting: str, tokens: int, planted: Sequence[Planted]) -> fidelity_bench.Outcome:
    """``fidelity_bench.run_one`` over planted trajectories, with this bench's strategy."""
    out = fidelity_bench.Outcome()
    budget = budget_of(tokens)
    for stem, messages, items in planted:
        run = replay_trajectory(stem, messages, fidelity_strategy(setting, tokens), budget, COUNTER)
        fidelity_bench.tally(run, items, out, stem)
    return out


def measure(
    setting: str,
    tokens: int,
    trajectories: Sequence[tuple[str, list[BaseMessage]]],
    planted: dict[str, list[Planted]],
) -> Row:
    """One setting at one budget: cost over ``trajectories``, fidelity over ``planted``."""
    started = time.perf_counter()
    row = Row(setting, tokens, CostTotals(setting, tokens))
    budget = budget_of(tokens)
    for stem, messages in trajectories:
        run = replay_trajectory(stem, messages, cost_strategy(setting, tokens), budget, COUNTER)
        row.cost.add(run)
        row.add_split(run)
    for generator, sample in planted.items():
        row.fidelity[generator] = fidelity(setting, tokens, sample)
    row.seconds = time.perf_counter() - started
    return row


def table(rows: Sequence[Row], out: Callable[[str], None]) -> None:
    base = next(r.cost for r in rows if r.setting == LANGMEM)
    out(
        f"{'budget':>6} {'setting':<28} {'input':>11} {'vs LM':>5} {'cost@0.1':>10} "
        f"{'vs LM':>5} {'p/c':>5} {'ev/100':>6} {'over':>4} {'head':>5} {'summ':>5} "
        f"{'tail':>5} {'canaries':>8} {'held-out':>8} {'stale':>5}"
    )
    for r in rows:
        c = r.cost
        split = r.split()
        cells = " ".join(f"{x:>5.0f}" for x in split) if split else f"{'-':>5} {'-':>5} {'-':>5}"
        stale = sum(o.stale for o in r.fidelity.values())
        out(
            f"{r.budget:>6} {r.setting:<28} {c.input_tokens:>11,} "
            f"{c.input_tokens / base.input_tokens:>5.2f} {c.cost(PRICE):>10,.0f} "
            f"{c.cost(PRICE) / base.cost(PRICE):>5.2f} {c.prefix / max(1e-9, c.ceiling):>5.3f} "
            f"{c.per_100(c.events):>6.1f} {c.over:>4} {cells} "
            f"{r.kept('canaries'):>7.1f}% {r.kept('held-out'):>7.1f}% {stale:>5}"
        )


def run(quick: bool = False, out: Callable[[str], None] = print) -> dict[str, Any]:
    files = corpus_files()
    step = 12 if quick else 3
    cost_paths, fidelity_paths = (files[::6] if quick else files), files[::step]
    started = time.perf_counter()
    trajectories = [(p.stem, load_trajectory(p)) for p in cost_paths]
    planted = plant(fidelity_paths)
    names = [*SETTINGS, LANGMEM]
    out(
        f"Cost on {len(cost_paths)} corpus trajectories (cache reads at {PRICE}x), fidelity on "
        f"{len(fidelity_paths)} of them (every {step}{'rd' if step == 3 else 'th'}, seed {SEED}): "
        "ours' settings against LangMem"
    )
    out("")
    data: dict[str, Any] = {}
    errors: list[str] = []
    for tokens in BUDGETS:
        rows = [measure(name, tokens, trajectories, planted) for name in names]
        table(rows, out)
        out("")
        for r in rows:
            split = r.split()
            data[f"{r.setting}@{tokens}"] = {
                **{k: v for k, v in vars(r.cost).items() if k != "strategy"},
                f"cost@{PRICE}": r.cost.cost(PRICE),
                "prefix": r.cost.prefix,
                "ceiling": r.cost.ceiling,
                "split": dict(zip(("head", "summary", "tail"), split, strict=True))
                if split
                else None,
                **{
                    g: {
                        "survived": dict(o.survived),
                        "planted": dict(o.planted),
                        "stale": o.stale,
                        "over": o.over,
                        "errors": len(o.errors),
                    }
                    for g, o in r.fidelity.items()
                },
                "seconds": round(r.seconds, 1),
            }
            errors += [f"{r.setting}@{tokens}: {e}" for o in r.fidelity.values() for e in o.errors]
            if r.cost.errors:
                errors.append(f"{r.setting}@{tokens}: {r.cost.errors} cost replays failed")
    out(
        "trg / tgt = Budget trigger_fraction / target_fraction (default 0.8 / 0.5); cap = "
        "CompactionSettings.summary_max_tokens; head = head_max_tokens. input = agent input "
        "tokens; cost@0.1 = input - 0.9 x cacheable prefix; vs LM = / LangMem's; p/c = prefix "
        "/ ceiling (cost_bench.py); ev/100 = compaction events per 100 agent calls; over = "
        "agent inputs above the budget; head / summ / tail = mean tokens per call of the "
        "first request with the system prompt, the summary, and everything after it (ours "
        "only); canaries / held-out = % of planted items visible at the last model call; "
        "stale = corrected values still shown in a summary, both generators. LangMem "
        "summarizes with TailSummaryModel for cost and LineScoringModel for fidelity, as "
        "in the cost and fidelity benches."
    )
    out(f"total bench time {time.perf_counter() - started:.0f} s")
    for error in errors[:5]:
        print("ERROR", error, file=sys.stderr)
    return data


if __name__ == "__main__":
    _report.main("tradeoff", __doc__, run, "cost on 6 trajectories, fidelity on 3")
