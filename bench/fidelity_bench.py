"""What survives compaction: planted canaries, side by side with LangMem and LangChain.

Every corpus trajectory gets one canary of each of ten kinds (``canaries.py``: random
phrasings and values, random positions in its first 70%), for several seeds. Each
planted trajectory is replayed through a real compiled graph (pre-model step → agent →
tools; the agent replays the recorded turns, the tools the recorded outputs, human
messages arrive between turns as in the recording) at budgets 8,000, 4,000 and 2,000:

- ``ours``: ``CompactionNode`` with the default ``ExtractiveSummarizer``;
- ``ours+llm``: ``CompactionNode`` with ``ChatModelSummarizer`` over the fake model;
- ``langmem``: LangMem's ``SummarizationNode``;
- ``middleware``: LangChain's ``SummarizationMiddleware`` (its ``before_model`` hook as
  a node, as ``create_agent`` wires it).

All four share one deterministic fake summarizer model (``LineScoringModel``: it keeps
the input lines that look most informative — numbers, errors, instructions, paths — up
to the summary cap, answering JSON when asked for sections) and one token counter.
At the last model call a canary survives if its probe value is in what the model saw;
a correction is stale if its old value appears in a message that is not a verbatim raw
message (a summary). Also printed: input tokens against the full history, over-budget
calls, protocol violations, summarizer-model calls.

Every run is made with the bench's canaries and with thirteen held-out generators
(``heldout.py`` and ``heldout_b.py`` to ``heldout_m.py``, each written after the
recognizers it measures; those named in ``_generators.UNTUNED`` not yet read against),
reported side by side. A full run fails when a kind of ours drops more than ``MAX_DROP`` points
against the previous release's figures (``results/fidelity-baseline.json``), or shows more
stale values, so a gain on one column cannot hide a loss on the other; the report is
published either way, with the losses listed under it.

Run ``python bench/fidelity_bench.py`` (``--quick``: 8 trajectories, 1 seed; ``--jobs N``:
N worker processes, the same figures sooner).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import corpus_files
from _generators import GENERATORS, UNTUNED
from _report import captured, publish
from canaries import KINDS, Canary

from langgraph_compact import CompactionSettings, TokenCounter
from langgraph_compact.messages import message_text
from langgraph_compact.replay import Strategy, budget_of, make_strategy
from langgraph_compact.replay.harness import ReplayRun, replay_trajectory, seen_text
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()

BUDGETS = (8_000, 4_000, 2_000)
STRATEGIES = ("ours", "ours+llm", "langmem", "middleware")
SEEDS = (1, 2, 3)

_ERROR = re.compile(r"error|exception|failed|traceback|denied|refused|not found", re.I)
_RULE = re.compile(r"\b(must|never|only|always|prefer|don't|do not|avoid|instead)\b", re.I)
_CODE = re.compile(r"^\s{4,}|[{};]\s*$|^\s*(def|class|import|return|from)\b")


class LineScoringModel(BaseChatModel):
    """A deterministic stand-in for a summarizer LLM: keeps the most informative lines.

    Every line of the input is scored (digits, error words, instructions, paths and
    key-values up; code down) and the best ones, up to ``answer_tokens``, are returned
    in input order — as ``{"Critical Context": [...]}`` when the prompt asks for
    sections (a model that follows the format, filing everything under one heading),
    as plain text otherwise.
    """

    answer_tokens: int = 400
    calls: int = 0
    input_tokens: int = 0

    @property
    def _llm_type(self) -> str:
        return "line-scoring-fake"

    @staticmethod
    def score(line: str) -> float:
        s = 0.0
        s += 2 * bool(re.search(r"\d", line))
        s += 2 * bool(_ERROR.search(line))
        s += 2 * bool(_RULE.search(line))
        s += bool(re.search(r"[\w-]+/[\w./-]+|\w+\.\w{2,4}\b", line))
        s += bool(re.search(r"\w\s*[:=]\s*\S", line))
        s += 0.5 * len(re.findall(r"\b[A-Z][a-z]+", line)) ** 0.5
        s -= 3 * bool(_CODE.search(line))
        return s - max(0, len(line) - 200) / 100

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        self.calls += 1
        self.input_tokens += COUNTER.count_messages(messages)
        lines: list[str] = []
        for m in messages[1:] if isinstance(messages[0], SystemMessage) else messages:
            if isinstance(m, AIMessage):
                continue  # its own earlier answer, in a retry
            lines += [ln.strip()[:200] for ln in message_text(m).splitlines() if ln.strip()]
        ranked = sorted(range(len(lines)), key=lambda i: (-self.score(lines[i]), -i))
        keep, used = set(), 0
        for i in ranked:
            cost = COUNTER.count_text(lines[i]) + 1
            if used + cost > self.answer_tokens:
                continue
            keep.add(i)
            used += cost
        picked = [lines[i] for i in sorted(keep)]
        prompt = message_text(messages[0]) if messages else ""
        if "Answer with the sections" in prompt:
            text = json.dumps({"Critical Context": picked})
        else:
            text = "\n".join(picked)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text))])


def strategy(name: str, tokens: int) -> Strategy:
    """A replay strategy with the line-scoring model as its summarizer model."""
    budget = budget_of(tokens)
    model = LineScoringModel(answer_tokens=CompactionSettings(budget).summary_cap)
    return make_strategy(name, budget, COUNTER, summary_model=model)


@dataclass
class Outcome:
    """Totals of one strategy at one budget."""

    survived: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    planted: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    stale: int = 0
    input_tokens: int = 0
    full_tokens: int = 0
    calls: int = 0
    over: int = 0
    violations: int = 0
    summarizer_calls: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: Outcome) -> None:
        for kind, n in other.survived.items():
            self.survived[kind] += n
        for kind, n in other.planted.items():
            self.planted[kind] += n
        counts = ("stale", "input_tokens", "full_tokens", "calls", "over", "violations")
        for name in (*counts, "summarizer_calls"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors += other.errors


def _derived(projection: Sequence[BaseMessage], raw: Sequence[BaseMessage]) -> str:
    """Text of the projection's messages that are not verbatim raw messages."""
    verbatim = {(m.id, message_text(m)) for m in raw}
    return "\n".join(
        message_text(m) for m in projection if (m.id, message_text(m)) not in verbatim
    ).lower()


MAX_DROP = 2.0
"""Points a kind may lose against the previous published figures before the bench fails."""
GATED = ("ours", "ours+llm")


def run_one(
    path: Path, seed: int, name: str, tokens: int, out: Outcome, generator: str = "canaries"
) -> None:
    planted, items = GENERATORS[generator](load_trajectory(path), seed)
    budget = budget_of(tokens)
    run = replay_trajectory(path.stem, planted, strategy(name, tokens), budget, COUNTER)
    tally(run, items, out, f"{path.stem} seed {seed}")


def tally(run: ReplayRun, items: Sequence[Canary], out: Outcome, where: str) -> None:
    """Add one replay's surviving canaries, stale values and totals to ``out``."""
    if run.error is not None:  # reported, never hidden
        out.errors.append(f"{where}: {run.error}"[:300])
        return
    seen = "\n".join(seen_text(m) for m in run.last_input).lower()
    derived = _derived(run.last_input, run.final_messages)
    for c in items:
        out.planted[c.kind] += 1
        out.survived[c.kind] += c.probe.lower() in seen
        if c.stale and re.search(rf"(?<![\w.]){re.escape(c.stale.lower())}(?!\w)", derived):
            out.stale += 1
    out.input_tokens += run.input_tokens
    out.full_tokens += sum(c.raw_tokens for c in run.calls)
    out.calls += len(run.calls)
    out.over += run.over_budget
    out.violations += run.violations
    out.summarizer_calls += run.summarizer_calls


def _cell(generator: str, name: str, tokens: int, seed: int, paths: Sequence[Path]) -> Outcome:
    """One seed of one strategy at one budget: the unit a worker process runs."""
    outcome = Outcome()
    for path in paths:
        run_one(path, seed, name, tokens, outcome, generator)
    return outcome


def report(
    paths: Sequence[Path],
    seeds: Sequence[int],
    strategies: Sequence[str] = STRATEGIES,
    generators: Sequence[str] = tuple(GENERATORS),
    jobs: int = 1,
) -> dict[str, Any]:
    started = time.perf_counter()
    cells = [
        (generator, name, tokens, seed)
        for generator in generators
        for tokens in BUDGETS
        for name in strategies
        for seed in seeds
    ]
    # Every cell is deterministic and independent, so worker processes give the same
    # figures as one process; results are merged in the order above.
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        run = pool.map if pool is not None else map
        outcomes = list(run(_cell, *zip(*cells, strict=True), [paths] * len(cells)))
    results: dict[tuple[str, str, int], Outcome] = {}
    for (generator, name, tokens, _), outcome in zip(cells, outcomes, strict=True):
        results.setdefault((generator, name, tokens), Outcome()).add(outcome)
    n = len(paths) * len(seeds)
    print(
        f"Canary survival: {len(paths)} trajectories x {len(seeds)} seeds, one canary of each "
        f"kind per run ({n} per kind and budget); % of canaries visible at the last model call."
    )
    blind = [g for g in UNTUNED if g in generators]
    untuned = f"; {' and '.join(blind)} never tuned against" if blind else ""
    print(
        f"{len(generators)} generators: the bench's own canaries and held-out ones written "
        f"independently (bench/heldout*.py){untuned}."
    )
    print()
    short = {k: k.replace("arg_identifier", "arg_id").replace("goal_change", "goal") for k in KINDS}
    head = f"{'budget':>6} {'strategy':<10} {'canaries':<10} " + " ".join(
        f"{short[k][:10]:>10}" for k in KINDS
    )
    print(head + f" {'all':>5} {'stale':>5}")
    print("-" * (len(head) + 12))
    for tokens in BUDGETS:
        for name in strategies:
            for generator in generators:
                o = results[(generator, name, tokens)]
                cells = " ".join(f"{_pct(o, k):>9.0f}%" for k in KINDS)
                total = 100 * sum(o.survived.values()) / max(1, sum(o.planted.values()))
                print(f"{tokens:>6} {name:<10} {generator:<10} {cells} {total:>4.0f}% {o.stale:>5}")
    print()
    print(
        f"{'budget':>6} {'strategy':<10} {'canaries':<10} {'calls':>6} {'input tokens':>13} "
        f"{'vs full':>8} {'over':>5} {'proto':>5} {'summ calls':>10} {'errors':>6}"
    )
    for (generator, name, tokens), o in results.items():
        print(
            f"{tokens:>6} {name:<10} {generator:<10} {o.calls:>6} {o.input_tokens:>13,} "
            f"{o.input_tokens / max(1, o.full_tokens):>7.0%} {o.over:>5} {o.violations:>5} "
            f"{o.summarizer_calls:>10} {len(o.errors):>6}"
        )
    for tokens in BUDGETS:
        if ("canaries", "ours", tokens) in results and ("canaries", "langmem", tokens) in results:
            ours = results[("canaries", "ours", tokens)].input_tokens
            langmem = results[("canaries", "langmem", tokens)].input_tokens
            print(f"budget {tokens:,}: ours input tokens / langmem {ours / max(1, langmem):.2f}x")
    print()
    print(
        "stale = a corrected value still shown in a summary (not in a verbatim message); "
        "over = model inputs above the budget; proto = projections that break the tool "
        "protocol; summ calls = calls of the fake summarizer model."
    )
    print(f"total bench time {time.perf_counter() - started:.0f} s")
    for o in results.values():
        for error in o.errors[:3]:
            print("ERROR", error, file=sys.stderr)
    return {
        _key(generator, name, tokens): {
            "survived": dict(o.survived),
            "planted": dict(o.planted),
            "stale": o.stale,
            "input_tokens": o.input_tokens,
            "over": o.over,
            "violations": o.violations,
            "summarizer_calls": o.summarizer_calls,
            "errors": len(o.errors),
        }
        for (generator, name, tokens), o in results.items()
    }


def _pct(o: Outcome, kind: str) -> float:
    return 100 * o.survived[kind] / max(1, o.planted[kind])


def _key(generator: str, name: str, tokens: int) -> str:
    """``ours@8000`` for the bench's canaries (the key earlier releases published),
    ``held-out:ours@8000`` for the held-out ones."""
    return f"{name}@{tokens}" if generator == "canaries" else f"{generator}:{name}@{tokens}"


def regressions(previous: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Kinds of ``GATED`` strategies that lost more than ``MAX_DROP`` points against
    ``previous`` (the previous release's figures) at any budget, in either column."""
    out = []
    for key, now in current.items():
        before = previous.get(key)
        if before is None or key.split(":")[-1].split("@")[0] not in GATED:
            continue
        for kind, planted in now["planted"].items():
            if not before["planted"].get(kind) or not planted:
                continue
            was = 100 * before["survived"].get(kind, 0) / before["planted"][kind]
            is_ = 100 * now["survived"].get(kind, 0) / planted
            if was - is_ > MAX_DROP:
                out.append(f"{key} {kind}: {was:.1f}% -> {is_:.1f}%")
        if now["stale"] > before["stale"]:
            out.append(f"{key} stale: {before['stale']} -> {now['stale']}")
    return out


def _previous() -> dict[str, Any]:
    """The previous release's figures (``results/fidelity-baseline.json``, replaced by hand
    at a release): a run is compared with them, not with the last run, so a series of
    small losses cannot pass one at a time."""
    path = Path(__file__).resolve().parent / "results" / "fidelity-baseline.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8")).get("data") or {}
    return data if isinstance(data, dict) else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 trajectories, 1 seed")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--generators", default=",".join(GENERATORS))
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (same figures)")
    args = parser.parse_args()
    paths = corpus_files()
    seeds = SEEDS
    if args.quick:
        paths, seeds = paths[::4], (1,)
    with captured() as out:
        data = report(
            paths, seeds, args.strategies.split(","), args.generators.split(","), args.jobs
        )
    if args.quick:
        return  # a sample: nothing to compare with the published figures
    dropped = regressions(_previous(), data)
    if dropped:
        note = "\n".join(
            [f"kinds that dropped more than {MAX_DROP:g} points below the previous release:"]
            + [f"  {d}" for d in dropped]
        )
        print(note)
    if args.write_readme:  # published either way: a loss is shown, not hidden
        publish("fidelity", out.getvalue() + (note + "\n" if dropped else ""), data)
    if dropped:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
