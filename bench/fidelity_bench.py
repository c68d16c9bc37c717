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

Run ``python bench/fidelity_bench.py`` (``--quick``: 8 trajectories, 1 seed).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _report import captured, publish
from canaries import KINDS, plant
from compare_bench import COUNTER, Contender, budget_of, make_contender, summary_cap

from langgraph_compact.compaction.verify import protocol_violations
from langgraph_compact.messages import message_text
from langgraph_compact.trajectories import corpus_files, load_trajectory

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


def strategy(name: str, tokens: int) -> Contender:
    """A contender of ``compare_bench`` with the line-scoring model as its summarizer."""
    budget = budget_of(tokens)
    return make_contender(name, budget, model=LineScoringModel(answer_tokens=summary_cap(budget)))


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


def replay(
    trajectory: list[BaseMessage], contender: Contender, tokens: int
) -> tuple[list[BaseMessage], list[BaseMessage], dict[str, int]]:
    """Drive the planted trajectory; return the last projection, the raw state, counters."""
    recorded = [m for m in trajectory if isinstance(m, AIMessage)]
    model = GenericFakeChatModel(messages=iter(recorded))
    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
    system = [m for m in trajectory[:1] if isinstance(m, SystemMessage)]
    prefix = [] if contender.system_in_state else system
    feed = trajectory if contender.system_in_state else trajectory[len(system) :]
    nxt = {id(a): feed[i + 1] if i + 1 < len(feed) else None for i, a in enumerate(feed)}
    last_tool = {}
    for i, m in enumerate(feed):
        if isinstance(m, ToolMessage):
            last_tool[m.tool_call_id] = feed[i + 1] if i + 1 < len(feed) else None
    counters = {"calls": 0, "tokens": 0, "full": 0, "over": 0, "violations": 0}
    seen: dict[str, list[BaseMessage]] = {"last": []}

    def agent(state: dict[str, Any]) -> dict[str, Any]:
        projection = [*prefix, *state[contender.input_key]]
        n = COUNTER.count_messages(projection)
        counters["calls"] += 1
        counters["tokens"] += n
        counters["full"] += COUNTER.count_messages([*prefix, *state["messages"]])
        counters["over"] += n > tokens
        counters["violations"] += bool(protocol_violations(projection))
        seen["last"] = projection
        return {"messages": [model.invoke(projection)]}

    def tools(state: dict[str, Any]) -> dict[str, Any]:
        last = state["messages"][-1]
        return {"messages": [results[c["id"] or ""] for c in last.tool_calls]}

    def route(state: dict[str, Any]) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    def after_tools(state: dict[str, Any]) -> str:
        # Stop where the recording has a human turn next: the driver feeds it.
        following = last_tool.get(state["messages"][-1].tool_call_id)
        return "step" if isinstance(following, AIMessage) else END

    builder = StateGraph(contender.state_schema)
    builder.add_node("step", contender.node)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "step")
    builder.add_edge("step", "agent")
    builder.add_conditional_edges("agent", route, ["tools", END])
    builder.add_conditional_edges("tools", after_tools, ["step", END])
    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "fidelity"}, "recursion_limit": 10_000}
    pending: list[BaseMessage] = []
    for message in feed:
        if isinstance(message, (AIMessage, ToolMessage)):
            continue
        pending.append(message)
        if isinstance(nxt[id(message)], AIMessage):
            graph.invoke({"messages": pending}, config)
            pending = []
    del nxt
    raw = graph.get_state(config).values["messages"]
    return seen["last"], raw, counters


def _seen(message: BaseMessage) -> str:
    """Everything the model reads of a message: its text and its tool calls' arguments."""
    calls = getattr(message, "tool_calls", None) or []
    return "\n".join([message_text(message), *(json.dumps(c["args"]) for c in calls)])


def _derived(projection: Sequence[BaseMessage], raw: Sequence[BaseMessage]) -> str:
    """Text of the projection's messages that are not verbatim raw messages."""
    verbatim = {(m.id, message_text(m)) for m in raw}
    return "\n".join(
        message_text(m) for m in projection if (m.id, message_text(m)) not in verbatim
    ).lower()


def run_one(path: Path, seed: int, name: str, tokens: int, out: Outcome) -> None:
    planted, canaries = plant(load_trajectory(path), seed)
    contender = strategy(name, tokens)
    try:
        projection, raw, counters = replay(planted, contender, tokens)
    except Exception as exc:  # reported, never hidden
        out.errors.append(f"{path.stem} seed {seed}: {type(exc).__name__}: {exc}"[:300])
        return
    seen = "\n".join(_seen(m) for m in projection).lower()
    derived = _derived(projection, raw)
    for c in canaries:
        out.planted[c.kind] += 1
        out.survived[c.kind] += c.probe.lower() in seen
        if c.stale and re.search(rf"(?<![\w.]){re.escape(c.stale.lower())}(?!\w)", derived):
            out.stale += 1
    out.input_tokens += counters["tokens"]
    out.full_tokens += counters["full"]
    out.calls += counters["calls"]
    out.over += counters["over"]
    out.violations += counters["violations"]
    if contender.summary_model is not None:
        out.summarizer_calls += contender.summary_model.calls


def report(
    paths: Sequence[Path], seeds: Sequence[int], strategies: Sequence[str] = STRATEGIES
) -> dict[str, Any]:
    started = time.perf_counter()
    results: dict[tuple[str, int], Outcome] = {}
    for tokens in BUDGETS:
        for name in strategies:
            outcome = Outcome()
            for seed in seeds:
                for path in paths:
                    run_one(path, seed, name, tokens, outcome)
            results[(name, tokens)] = outcome
    n = len(paths) * len(seeds)
    print(
        f"Canary survival: {len(paths)} trajectories x {len(seeds)} seeds, one canary of each "
        f"kind per run ({n} per kind and budget); % of canaries visible at the last model call"
    )
    print()
    short = {k: k.replace("arg_identifier", "arg_id").replace("goal_change", "goal") for k in KINDS}
    head = f"{'budget':>6} {'strategy':<10} " + " ".join(f"{short[k][:10]:>10}" for k in KINDS)
    print(head + f" {'all':>5} {'stale':>5}")
    print("-" * (len(head) + 12))
    for (name, tokens), o in results.items():
        cells = " ".join(f"{100 * o.survived[k] / max(1, o.planted[k]):>9.0f}%" for k in KINDS)
        total = 100 * sum(o.survived.values()) / max(1, sum(o.planted.values()))
        print(f"{tokens:>6} {name:<10} {cells} {total:>4.0f}% {o.stale:>5}")
    print()
    print(
        f"{'budget':>6} {'strategy':<10} {'calls':>6} {'input tokens':>13} {'vs full':>8} "
        f"{'over':>5} {'proto':>5} {'summ calls':>10} {'errors':>6}"
    )
    for (name, tokens), o in results.items():
        print(
            f"{tokens:>6} {name:<10} {o.calls:>6} {o.input_tokens:>13,} "
            f"{o.input_tokens / max(1, o.full_tokens):>7.0%} {o.over:>5} {o.violations:>5} "
            f"{o.summarizer_calls:>10} {len(o.errors):>6}"
        )
    for tokens in BUDGETS:
        if ("ours", tokens) in results and ("langmem", tokens) in results:
            ours = results[("ours", tokens)].input_tokens
            langmem = results[("langmem", tokens)].input_tokens
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
        f"{name}@{tokens}": {
            "survived": dict(o.survived),
            "planted": dict(o.planted),
            "stale": o.stale,
            "input_tokens": o.input_tokens,
            "over": o.over,
            "violations": o.violations,
            "summarizer_calls": o.summarizer_calls,
            "errors": len(o.errors),
        }
        for (name, tokens), o in results.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 trajectories, 1 seed")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    paths = corpus_files()
    seeds = SEEDS
    if args.quick:
        paths, seeds = paths[::4], (1,)
    with captured() as out:
        data = report(paths, seeds, tuple(args.strategies.split(",")))
    if args.write_readme:
        publish("fidelity", out.getvalue(), data)


if __name__ == "__main__":
    main()
