"""Benchmark fold: warm-cache cost per call vs history length, and token reduction.

Run: ``.venv/bin/python bench/fold_bench.py`` (a few minutes at most on 2 cores).

1. Median wall time of one ``fold`` call with a warm token cache at 300, 3,000 and
   30,000 messages. Long histories are real corpus trajectories concatenated with fresh
   message and tool-call ids. Two cases: the same history again (nothing new), and the
   agent's steady state (one new message per call). The 30,000/300 ratio shows how the
   per-call cost scales: tokenization is O(new messages) thanks to the cache; what is
   left is linear bookkeeping (a digest per message, the stage passes).
2. Token reduction of fold alone (no summarizer), per corpus source, default settings.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, ToolCall, ToolMessage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import corpus_files
from _report import captured, publish

from langgraph_compact.compaction.fold import fold
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.verify import protocol_violations
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import load_trajectory

SIZES = (300, 3_000, 30_000)
WINDOW = 20_000
"""The recent window left alone (``keep_recent_tokens``) in this bench."""


def settings() -> CompactionSettings:
    """Default fold settings with a fresh counter and a ``WINDOW``-token recent window."""
    budget = Budget(context_window=128_000)
    return CompactionSettings(budget, counter=TokenCounter(), keep_recent_tokens=WINDOW)


def source_of(path: Path) -> str:
    """``swe-agent``, ``mini-swe-agent`` or ``tau-bench`` from a corpus file name."""
    for source in ("mini-swe-agent", "swe-agent", "tau-bench"):
        if path.name.startswith(source):
            return source
    return path.stem


def _renamed(messages: Sequence[BaseMessage], prefix: str) -> list[BaseMessage]:
    """A copy of ``messages`` with fresh message ids and tool-call ids."""
    out: list[BaseMessage] = []
    for m in messages:
        update: dict[str, object] = {"id": f"{prefix}{m.id}"}
        if isinstance(m, AIMessage) and m.tool_calls:
            update["tool_calls"] = [
                ToolCall(name=c["name"], args=c["args"], id=f"{prefix}{c['id']}", type="tool_call")
                for c in m.tool_calls
            ]
        if isinstance(m, ToolMessage):
            update["tool_call_id"] = f"{prefix}{m.tool_call_id}"
        out.append(m.model_copy(update=update))
    return out


def long_history(n: int, corpus: list[list[BaseMessage]]) -> list[BaseMessage]:
    """About ``n`` messages of concatenated trajectories, cut between tool groups."""
    out: list[BaseMessage] = []
    copy = 0
    while len(out) < n + 1:
        for t, traj in enumerate(corpus):
            out.extend(_renamed(traj, f"c{copy}.{t}:"))
            if len(out) >= n + 1:
                break
        copy += 1
    cut = n
    while cut > 0 and isinstance(out[cut], ToolMessage):
        cut -= 1  # never split an AI message from its results
    return out[:cut]


def median_seconds(history: list[BaseMessage], config: CompactionSettings, grow: bool) -> float:
    fold(history, config)  # warm the token cache
    repeats = 15 if len(history) <= 3_000 else 5
    times = []
    work = list(history)
    for i in range(repeats):
        if grow:
            work = [*work, AIMessage(f"step {i}: continuing", id=f"new-{len(work)}-{i}")]
        start = time.perf_counter()
        fold(work, config)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_scaling(corpus: list[list[BaseMessage]]) -> None:
    print("## fold cost per call, warm token cache (median)")
    print(f"{'messages':>9} {'same history':>14} {'+1 new msg':>12} {'per message':>13}")
    results: dict[int, tuple[float, float]] = {}
    for n in SIZES:
        history = long_history(n, corpus)
        assert not protocol_violations(history)
        config = settings()
        same = median_seconds(history, config, grow=False)
        grow = median_seconds(history, config, grow=True)
        results[n] = (same, grow)
        print(
            f"{len(history):>9,} {same * 1e3:>11.1f} ms {grow * 1e3:>9.1f} ms "
            f"{grow / len(history) * 1e6:>10.2f} µs"
        )
    small, large = results[SIZES[0]], results[SIZES[-1]]
    print(
        f"ratio {SIZES[-1]:,}/{SIZES[0]:,}: {large[0] / small[0]:.1f}x (same history), "
        f"{large[1] / small[1]:.1f}x (+1 new message); history ratio "
        f"{SIZES[-1] / SIZES[0]:.0f}x"
    )


def bench_reduction(files: list[Path]) -> None:
    print()
    print("## token reduction of fold alone (default settings, 20,000-token window, o200k_base)")
    config = settings()
    before: dict[str, int] = defaultdict(int)
    after: dict[str, int] = defaultdict(int)
    by_stage: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[str, int] = defaultdict(int)
    for path in files:
        result = fold(load_trajectory(path), config)
        src = source_of(path)
        counts[src] += 1
        before[src] += result.tokens_before
        after[src] += result.tokens_after
        for s in result.stats:
            by_stage[src][s.stage] += s.saved
    header = f"{'source':<15} {'files':>5} {'tokens before':>14} {'after':>10} {'reduction':>9}"
    print(header + "   saved by clip / dedupe / prune")
    for src in sorted(before):
        st = by_stage[src]
        print(
            f"{src:<15} {counts[src]:>5} {before[src]:>14,} {after[src]:>10,} "
            f"{1 - after[src] / before[src]:>9.1%}   "
            f"{st['clip']:,} / {st['dedupe']:,} / {st['prune']:,}"
        )
    total_b, total_a = sum(before.values()), sum(after.values())
    print(
        f"{'all':<15} {len(files):>5} {total_b:>14,} {total_a:>10,} {1 - total_a / total_b:>9.1%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    files = corpus_files()
    corpus = [load_trajectory(p) for p in files]
    with captured() as out:
        bench_scaling(corpus)
        bench_reduction(files)
    if args.write_readme:
        publish("fold", out.getvalue())


if __name__ == "__main__":
    main()
