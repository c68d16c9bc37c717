"""CompactionNode vs LangMem's SummarizationNode vs LangChain's SummarizationMiddleware.

One run measures, with the same ``TokenCounter`` (tiktoken ``o200k_base``), the same
budget and the same deterministic fake summarizer model for every contender:

1. **Steady-state per-call time** of the pre-model step on histories of ~300 and
   ~3,000 messages (corpus trajectories concatenated with fresh unique message and
   tool-call ids). The history is compacted once (untimed), then each call appends one
   new tool turn (an AIMessage with one tool call and its ToolMessage, fresh ids) and
   times one call of the contender; the median (and p90) over the timed calls is
   reported. Budget: context 8,000 tokens.
2. **Full corpus replays** of every trajectory in ``tests/data/corpus`` at budgets of
   8,000 and 4,000 tokens, through a real compiled graph ``pre-model step -> agent ->
   tools`` (``langgraph_compact.replay``, the harness ``langgraph-compact replay`` runs:
   the agent is a ``GenericFakeChatModel`` replaying the recorded assistant turns; the
   tools node returns the recorded tool results). Reported: total agent-model input tokens
   (sum over every model call), over-budget inputs (> the budget), compaction events and
   summarizer-model calls and their input tokens, and raw messages lost (recorded messages
   missing from the final ``messages`` state), plus trajectories that raised.

Contenders (``langgraph_compact.replay.strategies``) and how their settings map onto one
``Budget(context_window=B, reserved_output=0, compaction_reserve=0, safety_margin=0)``
(usable = B, trigger = 0.8 B, target = 0.5 B, summary cap S = min(2000, 3/5 target)):

- ``ours``: ``CompactionNode(CompactionSettings(budget, counter=COUNTER))`` with the
  default deterministic ``ExtractiveSummarizer`` (no model call).
- ``ours+llm``: the same with ``ChatModelSummarizer(model=<fake>)``. The fake follows
  the summarizer's output-format instruction the way a real model would: its
  fixed-size text is returned inside a JSON object under "Critical Context"
  (``json_section``). Required items the answer misses trigger one retry call, so this
  contender can make two model calls per compaction event.
- ``langmem``: ``SummarizationNode(model=<fake>, max_tokens=B,
  max_tokens_before_summary=0.8 B, max_summary_tokens=S, token_counter=COUNTER)``,
  ``output_messages_key="summarized_messages"`` (its default: raw ``messages`` kept).
  LangMem has no separate "keep" setting: it summarizes the oldest unsummarized
  messages once they add up to ``max_tokens_before_summary`` and the rest fits
  ``max_tokens - max_summary_tokens``.
- ``middleware``: ``SummarizationMiddleware(model=<fake>, trigger=("tokens", 0.8 B),
  keep=("tokens", 0.5 B - S), token_counter=COUNTER)`` (tail + summary lands at the same
  ~0.5 B target as ours). Its only hook in this langchain version is ``before_model``;
  ``create_agent`` wires it as a graph node whose update goes through the ``add_messages``
  reducer, and the model then sees ``[system_prompt, *state["messages"]]``. The harness
  wires it exactly like that (a node calling ``before_model`` before the same agent/tools
  nodes used for every contender); the trajectory's system message is the agent's
  ``system_prompt``, as with ``create_agent``, and is not in the state (the middleware
  does not count it towards its trigger). Its ``trim_tokens_to_summarize`` default (4,000)
  is kept, as is LangMem's own summarizer-input trimming.

The stand-in summarizer (``TailSummaryModel``) answers every call with the last
``SUMMARY_TOKENS`` tokens of its whole input text (cycled if the input is shorter), so
each summary costs the same and depends deterministically on the input. Times are
wall-clock on this machine; token numbers are exact and deterministic.

Run ``python bench/compare_bench.py`` (a few minutes on 2 cores) or ``--quick``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langgraph.graph.message import add_messages

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import corpus_files
from _report import captured, publish

from langgraph_compact.compaction import CompactionSettings
from langgraph_compact.replay import (
    SUMMARY_TOKENS,
    ReplayTotals,
    Strategy,
    budget_of,
    make_strategy,
    replay_all,
)
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import Trajectory, load_trajectory

COUNTER = TokenCounter()
CONTENDERS = ("ours", "ours+llm", "langmem", "middleware")
STEADY_BUDGET = 8_000
REPLAY_BUDGETS = (8_000, 4_000)
SIZES = (300, 3_000)


Contender = Strategy
"""A contender is a library replay strategy (``langgraph_compact.replay.Strategy``)."""


def summary_cap(budget: Budget) -> int:
    """Our default summary cap, reused as LangMem's ``max_summary_tokens``."""
    return CompactionSettings(budget).summary_cap


def make_contender(name: str, budget: Budget, model: BaseChatModel | None = None) -> Strategy:
    """One contender for ``budget``; ``model`` (default: a ``TailSummaryModel``) writes the
    summaries of ``ours+llm``, ``langmem`` and ``middleware``."""
    return make_strategy(name, budget, COUNTER, summary_model=model)


def replay_corpus(name: str, tokens: int, paths: Sequence[Path]) -> ReplayTotals:
    """Totals of ``name`` over every trajectory in ``paths`` at budget ``tokens``."""
    trajectories = [Trajectory(p.stem, load_trajectory(p)) for p in paths]
    return replay_all(trajectories, name, tokens, COUNTER)


# --------------------------------------------------------------------- steady state


def _renumber(messages: Sequence[BaseMessage], tag: str) -> list[BaseMessage]:
    """Copies with fresh message ids and fresh tool-call ids (prefixed with ``tag``)."""
    out: list[BaseMessage] = []
    for i, m in enumerate(messages):
        update: dict[str, Any] = {"id": f"{tag}-{i}"}
        if isinstance(m, AIMessage) and m.tool_calls:
            update["tool_calls"] = [{**c, "id": f"{tag}-{c['id']}"} for c in m.tool_calls]
        if isinstance(m, ToolMessage):
            update["tool_call_id"] = f"{tag}-{m.tool_call_id}"
        out.append(m.model_copy(update=update))
    return out


def build_history(size: int, paths: Sequence[Path]) -> list[BaseMessage]:
    """About ``size`` messages: corpus trajectories concatenated, one system message.

    Ends on a complete turn (never between a tool call and its result).
    """
    history: list[BaseMessage] = []
    for copy_no in range(10_000):
        for path in paths:
            part = load_trajectory(path)
            if history:
                part = [m for m in part if not isinstance(m, SystemMessage)]
            history += _renumber(part, f"c{copy_no}-{path.stem}")
            if len(history) >= size:
                end = size
                while end < len(history) and isinstance(history[end], ToolMessage):
                    end += 1
                return history[:end]
    raise AssertionError("unreachable")


def tool_turns(paths: Sequence[Path]) -> list[tuple[AIMessage, ToolMessage]]:
    """(AIMessage with exactly one tool call, its ToolMessage) pairs from the corpus."""
    pairs: list[tuple[AIMessage, ToolMessage]] = []
    for path in paths:
        t = load_trajectory(path)
        for a, b in pairwise(t):
            if isinstance(a, AIMessage) and len(a.tool_calls) == 1 and isinstance(b, ToolMessage):
                pairs.append((a, b))
    return pairs


@dataclass
class SteadyStats:
    """Per-call times (seconds) of one contender at one history size."""

    times: list[float]
    events: int
    final_messages: int

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times) * 1e3

    @property
    def p90_ms(self) -> float:
        return sorted(self.times)[int(0.9 * (len(self.times) - 1))] * 1e3


def steady_state(
    name: str,
    history: list[BaseMessage],
    turns: Sequence[tuple[AIMessage, ToolMessage]],
    calls: int,
    tokens: int = STEADY_BUDGET,
    warmup: int = 2,
) -> SteadyStats:
    """Compact ``history`` once, then time ``calls`` calls, one new tool turn before each."""
    contender = make_contender(name, budget_of(tokens))
    state: dict[str, Any] = {"messages": list(history)}
    if not contender.system_in_state:
        state["messages"] = [m for m in state["messages"] if not isinstance(m, SystemMessage)]

    def apply(update: dict[str, Any]) -> None:
        for key, value in update.items():
            if key == "messages":  # the add_messages reducer, as the graph would apply it
                state["messages"] = add_messages(state["messages"], value)
            else:
                state[key] = value

    apply(contender.step(state))  # compacted once, untimed
    times: list[float] = []
    events_before = 0
    gc.collect()
    gc.disable()  # as timeit does: collector pauses are noise, not the step's cost
    try:
        for k in range(warmup + calls):
            if k == warmup:
                events_before = contender.events()
            ai, tool = turns[k % len(turns)]
            state["messages"] = [*state["messages"], *_renumber([ai, tool], f"{name}-t{k}")]
            start = time.perf_counter()
            update = contender.step(state)
            elapsed = time.perf_counter() - start
            apply(update)
            if k >= warmup:
                times.append(elapsed)
    finally:
        gc.enable()
    return SteadyStats(times, contender.events() - events_before, len(state["messages"]))


# --------------------------------------------------------------------------- report


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "n/a"


def run(quick: bool = False, out: Callable[[str], None] = print) -> dict[str, Any]:
    """The whole comparison; prints the report and returns the raw numbers."""
    paths = corpus_files()
    replay_paths = paths[::6] if quick else paths
    calls = 5 if quick else 30
    results: dict[str, Any] = {"steady": {}, "replay": {}}
    started = time.perf_counter()

    out(f"Steady state: median per-call time of the pre-model step, budget {STEADY_BUDGET:,}")
    out(f"(history compacted once, then 1 new tool turn per call; 2 rounds x {calls} calls)")
    out("")
    turns = tool_turns(paths)
    header = f"{'contender':<11}"
    for size in SIZES:
        header += f" | {f'{size:,} msgs':>11} {'p90':>8} {'compact':>7} {'state':>5}"
    out(header)
    out("-" * len(header))
    histories = {size: build_history(size, paths) for size in SIZES}
    steady: dict[tuple[str, int], SteadyStats] = {}
    for order in (CONTENDERS, CONTENDERS[::-1]):  # two rounds, reversed: shared noise
        for size in SIZES:
            for name in order:
                s = steady_state(name, histories[size], turns, calls)
                if (name, size) in steady:
                    first = steady[(name, size)]
                    s = SteadyStats(
                        first.times + s.times, first.events + s.events, s.final_messages
                    )
                steady[(name, size)] = s
    results["steady"] = steady
    for name in CONTENDERS:
        row = f"{name:<11}"
        for size in SIZES:
            s = steady[(name, size)]
            row += (
                f" | {s.median_ms:>8.2f} ms {s.p90_ms:>5.1f} ms {s.events:>7} {s.final_messages:>5}"
            )
        out(row)
    out(
        "p90 = 90th percentile; compact = compaction events among the timed calls; state = "
        "messages in the step's state after the last call (the middleware deletes what it "
        "summarized)."
    )
    out("")
    for size in SIZES:
        ours = steady[("ours", size)].median_ms
        parts = [
            f"{name} {_ratio(ours, steady[(name, size)].median_ms)}" for name in CONTENDERS[1:]
        ]
        out(f"{size:>5,} msgs: ours time / " + ", ".join(parts))

    out("")
    out(
        f"Full replays of {len(replay_paths)} corpus trajectories "
        "(sums over every agent-model call)"
    )
    out("")
    header = (
        f"{'budget':>6} {'contender':<11} {'calls':>6} {'input tokens':>13} {'max in':>7} "
        f"{'over':>5} {'compact':>8} {'summ calls':>10} {'summ in tok':>11} "
        f"{'lost msgs':>9} {'errors':>6}"
    )
    out(header)
    out("-" * len(header))
    for tokens in REPLAY_BUDGETS:
        for name in CONTENDERS:
            r = replay_corpus(name, tokens, replay_paths)
            results["replay"][(name, tokens)] = r
            out(
                f"{tokens:>6} {name:<11} {r.model_calls:>6} {r.input_tokens:>13,} "
                f"{r.max_input:>7,} {r.over_budget:>5} {r.events:>8} {r.summarizer_calls:>10} "
                f"{r.summarizer_input_tokens:>11,} {r.lost:>9} {len(r.errors):>6}"
            )
    out("")
    for tokens in REPLAY_BUDGETS:
        ours = results["replay"][("ours", tokens)].input_tokens
        parts = [
            f"{name} {_ratio(ours, results['replay'][(name, tokens)].input_tokens)}"
            for name in CONTENDERS[1:]
        ]
        out(f"budget {tokens:,}: ours input tokens / " + ", ".join(parts))
    out("")
    out(
        "over = model inputs above the budget; compact = compaction events; summ = "
        f"summarizer-model calls and their input tokens (fake model, {SUMMARY_TOKENS}-token "
        "answers); lost msgs = recorded messages missing from the final state. Ratios "
        "are ours / competitor: below 1.00x, ours is faster or sends fewer tokens."
    )
    out(f"total bench time {time.perf_counter() - started:.0f} s")
    for (name, tokens), r in results["replay"].items():
        for error in r.errors:
            print(f"\nERROR {name} @ {tokens}: {error}", file=sys.stderr)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 6 trajectories, 5 calls")
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    with captured() as out:
        run(quick=args.quick)
    if args.write_readme:
        publish("compare", out.getvalue())


if __name__ == "__main__":
    main()
