"""deepagents: our compaction vs deepagents' own summarization, on the corpus.

Two parts, both at budgets 8,000 and 4,000 with the shared mapping (trigger 80%, target
50%, the same o200k_base counter, the same deterministic 400-token stand-in summary model):

1. The replay harness (every trajectory, same graph for both): ``ours`` is
   ``CompactionNode``; ``deepagents`` runs deepagents' ``SummarizationMiddleware``
   hook as ``create_deep_agent`` installs it (``langgraph_compact.replay.deep``).
2. Real ``create_deep_agent`` graphs (every recording with one user turn and no tool
   named like a deepagents built-in): ``DeepAgentsCompaction`` in the summarization slot
   vs deepagents' summarization in that slot, the model replaying the recorded turns.

Run ``python bench/deepagents_bench.py [--quick] [--write-readme]`` (about 4 minutes on
2 cores; ``--quick``: three trajectories).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import corpus_files
from _report import captured, publish

from langgraph_compact.replay import budget_of, replay_all
from langgraph_compact.replay.deep import replay_deep_agent, replayable
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import Trajectory, load_trajectory

BUDGETS = (8_000, 4_000)
HEADER = (
    f"{'budget':>6} {'strategy':<20} {'runs':>4} {'calls':>6} {'input tokens':>13} "
    f"{'max in':>7} {'over':>5} {'viol':>5} {'task kept':>9} {'last in':>7} "
    f"{'summ':>5} {'summ in tok':>11} {'lost':>5} {'err':>4}"
)


def _row(budget: int, name: str, d: dict[str, Any]) -> str:
    kept = f"{d['task_kept'] / d['calls']:.0%}" if d.get("task_kept") is not None else "-"
    return (
        f"{budget:>6} {name:<20} {d['runs']:>4} {d['calls']:>6} {d['input_tokens']:>13,} "
        f"{d['max_in']:>7,} {d['over']:>5} {d['violations']:>5} {kept:>9} "
        f"{d['last_in']:>7.1f} {d['summ']:>5} {d['summ_in']:>11,} {d['lost']:>5} {d['errors']:>4}"
    )


def harness(paths: list[Path], counter: TokenCounter) -> dict[str, Any]:
    named = [Trajectory(p.stem, load_trajectory(p)) for p in paths]
    out: dict[str, Any] = {}
    for budget in BUDGETS:
        for strategy in ("ours", "deepagents"):
            last: list[int] = []
            totals = replay_all(
                named,
                strategy,
                budget,
                counter,
                on_run=lambda run, last=last: last.append(len(run.last_input)),
            )
            out[f"{budget}/{strategy}"] = {
                "runs": totals.trajectories,
                "calls": totals.model_calls,
                "input_tokens": totals.input_tokens,
                "max_in": totals.max_input,
                "over": totals.over_budget,
                "violations": totals.violations,
                "task_kept": totals.task_kept,
                "last_in": sum(last) / max(1, len(last)),
                "summ": totals.summarizer_calls if strategy != "ours" else totals.events,
                "summ_in": totals.summarizer_input_tokens,
                "lost": totals.lost,
                "errors": len(totals.errors),
            }
    return out


def real(paths: list[Path], counter: TokenCounter) -> tuple[dict[str, Any], int]:
    runs = [load_trajectory(p) for p in paths]
    usable = [t for t in runs if replayable(t) is None]
    out: dict[str, Any] = {}
    for budget in BUDGETS:
        for ours, name in ((True, "ours in deep agent"), (False, "deepagents default")):
            d = {"runs": 0, "calls": 0, "input_tokens": 0, "max_in": 0, "over": 0}
            d |= {"violations": 0, "task_kept": None, "last_in": 0.0, "summ": 0, "summ_in": 0}
            d |= {"lost": 0, "errors": 0}
            last = []
            for trajectory in usable:
                try:
                    run = replay_deep_agent(trajectory, budget_of(budget), counter, ours=ours)
                except Exception as exc:  # counted and shown, never hidden
                    print(f"error: {type(exc).__name__}: {exc}"[:300], file=sys.stderr)
                    d["errors"] += 1
                    continue
                d["runs"] += 1
                d["calls"] += len(run.calls)
                d["input_tokens"] += sum(run.calls)
                d["max_in"] = max(d["max_in"], max(run.calls, default=0))
                d["over"] += sum(c > budget for c in run.calls)
                d["violations"] += run.violations
                d["summ"] += run.summarizer_calls
                d["summ_in"] += run.summarizer_input_tokens
                d["lost"] += run.lost
                last.append(run.last_messages)
            d["last_in"] = sum(last) / max(1, len(last))
            out[f"{budget}/{name}"] = d
    return out, len(runs) - len(usable)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three trajectories only")
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    paths = corpus_files()
    if args.quick:
        paths = paths[:2] + paths[-1:]
    counter = TokenCounter()
    started = time.perf_counter()
    with captured() as out:
        first = harness(paths, counter)
        print(f"Replay harness: {len(paths)} trajectories, the same graph for both\n")
        print(HEADER)
        print("-" * len(HEADER))
        for key, d in first.items():
            budget, name = key.split("/")
            print(_row(int(budget), name, d))
        second, skipped = real(paths, counter)
        print(
            f"\nReal create_deep_agent graphs: {len(paths) - skipped} recordings with one user "
            f"turn and no tool named like a deepagents built-in ({skipped} others skipped)\n"
        )
        print(HEADER)
        print("-" * len(HEADER))
        for key, d in second.items():
            budget, name = key.split("/")
            print(_row(int(budget), name, d))
        for budget in BUDGETS:
            ours = first[f"{budget}/ours"]["input_tokens"]
            theirs = first[f"{budget}/deepagents"]["input_tokens"]
            deep_ours = second[f"{budget}/ours in deep agent"]["input_tokens"]
            deep_theirs = second[f"{budget}/deepagents default"]["input_tokens"]
            print(
                f"\nbudget {budget:,}: input tokens ours / deepagents {ours / theirs:.2f}x "
                f"(harness), {deep_ours / max(1, deep_theirs):.2f}x (create_deep_agent)",
                end="",
            )
        print(
            "\n\nover = model inputs above the budget; viol = inputs breaking the tool "
            "protocol; task kept = inputs holding the first request (harness only); last in "
            "= messages in the last model input (mean per run); summ = summarizer calls "
            "(ours: compaction events, extractive, no model); lost = recorded messages "
            "missing from the final state. Both keep the raw messages; deepagents also "
            "offloads what it summarized to a file in its backend."
        )
        print(f"total bench time {time.perf_counter() - started:.0f} s")
    if args.write_readme:
        publish("deepagents", out.getvalue(), {"harness": first, "create_deep_agent": second})


if __name__ == "__main__":
    main()
