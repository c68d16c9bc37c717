"""Re-compaction: what survives when the whole previous context comes back as one message.

A rotated session's hand-off, a pasted brief, or a compactor of compactors hands the next
run one large first message. Every corpus trajectory gets one canary of each kind (from
the bench's generator and from the held-out ones, ``_generators.py``)
and is compacted by ``compact`` (default ``ExtractiveSummarizer``) at an output budget of
20% and of 30% of the planted transcript (at least 2,000 tokens). Each round's projection
is rendered to one text (``role: text`` per message, tool calls with their arguments; the
system prompt stays the system message) and fed back as the next round's only request,
five rounds.

Reported per generator and share: the share of each kind's probes still in the last
round's output, the lowest all-kinds survival of any round, stale values (a corrected
value still shown in the last round's summary), outputs over their budget, and errors.

Run ``python bench/recompaction_bench.py [--quick] [--write-readme]`` (``--quick``: 8
trajectories, 1 seed).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _report
from _corpus import corpus_files
from _generators import GENERATORS
from canaries import KINDS
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from langgraph_compact import Budget, CompactionSettings, TokenCounter, compact
from langgraph_compact.messages import message_text
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
ROUNDS = 5
SHARES = (0.2, 0.3)
SEEDS = (1, 2)
MIN_WINDOW = 2_000


def render(projection: Sequence[BaseMessage]) -> str:
    """A projection as one hand-off text (the system prompt left out: it stays the next
    session's system message)."""
    out = []
    for m in projection:
        if isinstance(m, SystemMessage):
            continue
        calls = m.tool_calls if isinstance(m, AIMessage) else []
        shown = [f"[call {c['name']} {json.dumps(c['args'], ensure_ascii=False)}]" for c in calls]
        out.append("\n".join([f"{m.type}: {message_text(m)}", *shown]))
    return "\n\n".join(out)


@dataclass
class Outcome:
    planted: Counter[str] = field(default_factory=Counter)
    survived: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    """Probes seen per round, all kinds."""
    stale: int = 0
    over: int = 0
    errors: list[str] = field(default_factory=list)

    def lowest_round(self) -> float:
        total = sum(self.planted.values())
        return min((self.rounds[r] / total for r in range(1, ROUNDS + 1)), default=0.0)


def run_one(path: Path, seed: int, share: float, generator: str, out: Outcome) -> None:
    transcript, items = GENERATORS[generator](load_trajectory(path), seed)
    window = max(MIN_WINDOW, int(COUNTER.count_messages(transcript) * share))
    budget = Budget(context_window=window, reserved_output=0, compaction_reserve=0, safety_margin=0)
    settings = CompactionSettings(budget, counter=COUNTER)
    system = [m for m in transcript[:1] if isinstance(m, SystemMessage)]
    messages: list[BaseMessage] = transcript
    try:
        for round_no in range(1, ROUNDS + 1):
            result = compact(messages, None, settings)
            out.over += COUNTER.count_messages(result.messages) > budget.usable
            text = render(result.messages)
            out.rounds[round_no] += sum(c.probe.lower() in text.lower() for c in items)
            messages = [*system, HumanMessage(text, id=f"handoff-{round_no}")]
    except Exception as exc:  # reported, never hidden
        out.errors.append(f"{path.stem} seed {seed}: {type(exc).__name__}: {exc}"[:300])
        return
    summary = result.summary.render().lower() if result.summary else ""
    for c in items:
        out.planted[c.kind] += 1
        out.survived[c.kind] += c.probe.lower() in text.lower()
        out.stale += bool(c.stale) and c.stale.lower() in summary


def run(quick: bool = False, out: Callable[[str], None] = print) -> dict[str, Any]:
    paths = corpus_files()[::4] if quick else corpus_files()
    seeds = SEEDS[:1] if quick else SEEDS
    started = time.perf_counter()
    results: dict[tuple[str, float], Outcome] = {}
    for generator in GENERATORS:
        for share in SHARES:
            outcome = Outcome()
            for seed in seeds:
                for path in paths:
                    run_one(path, seed, share, generator, outcome)
            results[(generator, share)] = outcome
    n = len(paths) * len(seeds)
    out(
        f"Re-compaction, {ROUNDS} rounds: {len(paths)} trajectories x {len(seeds)} seeds "
        f"({n} per kind); % of probes in the last round's output"
    )
    out("")
    short = {k: k.replace("arg_identifier", "arg_id").replace("goal_change", "goal") for k in KINDS}
    head = f"{'share':>5} {'canaries':<10} " + " ".join(f"{short[k][:10]:>10}" for k in KINDS)
    out(head + f" {'all':>5} {'lowest':>6} {'stale':>5} {'over':>4} {'errors':>6}")
    for share in SHARES:
        for generator in GENERATORS:
            o = results[(generator, share)]
            cells = " ".join(f"{100 * o.survived[k] / max(1, o.planted[k]):>9.0f}%" for k in KINDS)
            total = 100 * sum(o.survived.values()) / max(1, sum(o.planted.values()))
            lowest = 100 * o.lowest_round()
            out(
                f"{share:>5.0%} {generator:<10} {cells} {total:>4.0f}% {lowest:>5.0f}% "
                f"{o.stale:>5} {o.over:>4} {len(o.errors):>6}"
            )
    out("")
    out(
        "share = output budget / planted transcript tokens (at least 2,000); lowest = the "
        "lowest all-kinds survival of any round; stale = a corrected value in the last "
        "round's summary; over = outputs above their budget."
    )
    out(f"total bench time {time.perf_counter() - started:.0f} s")
    for o in results.values():
        for error in o.errors[:3]:
            print("ERROR", error, file=sys.stderr)
    return {
        f"{generator}@{share}": {
            "survived": dict(o.survived),
            "planted": dict(o.planted),
            "stale": o.stale,
            "over": o.over,
            "errors": len(o.errors),
        }
        for (generator, share), o in results.items()
    }


if __name__ == "__main__":
    _report.main("recompaction", __doc__, run, "8 trajectories, 1 seed")
