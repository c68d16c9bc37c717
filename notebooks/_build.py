"""Generate the tutorial notebooks in this folder from the cell sources below.

The notebooks are committed without outputs; edit the cells here and regenerate with
``.venv/bin/python notebooks/_build.py`` so the three files stay consistent (kernel
``python3``, no outputs, no execution counts). ``tests/test_notebooks.py`` runs them.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

Cell = tuple[str, str]


def md(text: str) -> Cell:
    return ("md", text.strip())


def code(text: str) -> Cell:
    return ("code", text.strip())


# --- 01 quickstart -------------------------------------------------------------------

QUICKSTART: list[Cell] = [
    md("""
# Quickstart: a compaction node in front of the model

A long-running agent keeps appending tool outputs to its message list. Sooner or later
the list no longer fits the model's context window and the provider answers
`prompt_too_long`. The usual fixes delete or overwrite history, which loses the audit
trail and often the task itself.

`langgraph-compact` separates two things:

* the **raw history** (`state["messages"]`): every message exactly as written, never
  modified by compaction;
* the **projection** (`state["llm_input_messages"]`): what the model sees on *this* call,
  recomputed before every model call by `CompactionNode` — tool outputs clipped,
  duplicates and old outputs replaced by one-line stubs, and, only when that is not
  enough, older turns folded into a structured `RunningSummary`.

In this notebook we put `CompactionNode` in front of a model node, replay a real coding
agent run shipped with the package through it with an 8,000-token context window, and
check that the model never saw more than the budget while the raw history stayed intact.
"""),
    code("""
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import END, START, StateGraph

from langgraph_compact import Budget, CompactionNode, CompactState, TokenCounter
from langgraph_compact.trajectories import load_trajectory, sample_path

trajectory = load_trajectory(sample_path("mini-swe-agent-test-astropy__astropy-12907"))
counter = TokenCounter()  # tiktoken o200k_base, works offline

print(f"{len(trajectory)} messages, {counter.count_messages(trajectory):,} tokens in total")
for m in trajectory[:4]:
    print(f"  {m.type:>6}: {m.text[:90]!r}")
"""),
    md("""
## The budget

`Budget` turns a context window into the number of input tokens a call may use:
`usable = context_window - reserved_output - compaction_reserve - safety_margin`.
The reserves matter: the answer needs room, the summary message needs room, and the
provider's own formatting adds tokens our local count cannot see.

Compaction starts above `trigger_tokens` (80 % of usable by default) and compacts down
to about `target_tokens` (50 %). Keeping the two apart means a compaction buys several
turns of headroom instead of firing again on the very next call.
"""),
    code("""
budget = Budget(
    context_window=8_000, reserved_output=1_000, compaction_reserve=500, safety_margin=500
)
print(f"usable={budget.usable}  trigger={budget.trigger_tokens}  target={budget.target_tokens}")
"""),
    md("""
## The model

A real LLM would need network access and an API key, so a replaying chat model stands
in for it: `GenericFakeChatModel` returns the assistant turns recorded in the
trajectory, one per call, and a fake `tools` node answers each tool call with the
recorded output. The graph does not care which model it calls.

With a real model the only change is the model line (plus a real tool node):

```python
from langchain.chat_models import init_chat_model

model = init_chat_model("openai:gpt-4o-mini").bind_tools(tools)  # instead of GenericFakeChatModel
```

(and `langgraph.prebuilt.ToolNode(tools)` instead of the replaying `tools` function).
"""),
    code("""
agent_turns = [m for m in trajectory if isinstance(m, AIMessage)]
recorded_outputs = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
model = GenericFakeChatModel(messages=iter(agent_turns))
print(f"{len(agent_turns)} recorded model turns, {len(recorded_outputs)} tool outputs")
"""),
    md("""
## The graph: `compact → agent → tools → compact …`

* `CompactionNode(budget)` reads `messages` (and the previous `running_summary`) and
  writes `llm_input_messages` and, when it changed, `running_summary`. It never writes
  `messages`.
* The agent node sends `state["llm_input_messages"]` to the model — **not**
  `state["messages"]` — and appends the answer to `messages`.
* `CompactState` declares the three keys; `llm_input_messages` is an `UntrackedValue`, so
  the projection is never written to a checkpoint. Extend `CompactState` with your own
  keys.

The agent node also records, for each call, how big the raw history was and how big the
projection was, so we can compare them afterwards.
"""),
    code("""
steps: list[dict[str, int]] = []


def agent(state: CompactState) -> dict[str, Any]:
    seen = state["llm_input_messages"]  # the projection, never the raw history
    summary = state.get("running_summary")
    steps.append(
        {
            "raw_msgs": len(state["messages"]),
            "raw_tokens": counter.count_messages(state["messages"]),
            "seen_msgs": len(seen),
            "seen_tokens": counter.count_messages(seen),
            "summary_tokens": summary.token_count if summary else 0,
            "covered": summary.covered_through if summary else 0,
        }
    )
    return {"messages": [model.invoke(seen)]}


def tools(state: CompactState) -> dict[str, Any]:
    calls = state["messages"][-1].tool_calls
    return {"messages": [recorded_outputs[c["id"]] for c in calls]}


def route_after_agent(state: CompactState) -> str:
    return "tools" if state["messages"][-1].tool_calls else END


def route_after_tools(state: CompactState) -> str:
    return "compact" if len(steps) < len(agent_turns) else END  # the recording is over


builder = StateGraph(CompactState)
builder.add_node("compact", CompactionNode(budget, counter=counter))
builder.add_node("agent", agent)
builder.add_node("tools", tools)
builder.add_edge(START, "compact")
builder.add_edge("compact", "agent")
builder.add_conditional_edges("agent", route_after_agent, ["tools", END])
builder.add_conditional_edges("tools", route_after_tools, ["compact", END])
graph = builder.compile()
"""),
    md("""
## Run it and listen to the compaction events

Each time it runs, the node emits a custom stream event `{"compaction": stats}`. With
`stream_mode=["custom", "values"]` we get those events and the graph state in one pass.
The run starts from the trajectory's system prompt and first user request.
"""),
    code("""
events: list[dict[str, Any]] = []
final: dict[str, Any] = {}
run_config = {"recursion_limit": 1_000}
for mode, chunk in graph.stream(
    {"messages": trajectory[:2]}, run_config, stream_mode=["custom", "values"]
):
    if mode == "custom" and "compaction" in chunk:
        events.append(chunk["compaction"])
    elif mode == "values":
        final = chunk

print(f"{len(steps)} model calls, {len(events)} compaction events")
"""),
    md("""
## Raw history vs. what the model saw

The raw history grows with every turn; the projection stays under the budget. `gen` is
the summary generation the model saw and `*` marks the calls where the summarizer ran.
Between summaries the projection grows again from the target towards the trigger —
that is the hysteresis at work.
"""),
    code("""
print(f"{'call':>4} {'raw msgs':>8} {'raw tok':>8} {'seen msgs':>9} {'seen tok':>8} {'gen':>4}")
for i, (step, event) in enumerate(zip(steps, events, strict=True), start=1):
    gen = event["summary_generation"] or "-"
    mark = "*" if event["summarized"] else ""
    print(
        f"{i:>4} {step['raw_msgs']:>8} {step['raw_tokens']:>8,} {step['seen_msgs']:>9} "
        f"{step['seen_tokens']:>8,} {gen!s:>4}{mark}"
    )
print(f"usable budget: {budget.usable:,} tokens")
"""),
    md("""
The same numbers as a picture. Top: tokens per model call — the raw history climbs, what
the model is sent saw-tooths under the budget, and each dotted line is a summarizer run.
Bottom: the summary's growth — its size in tokens (capped by `summary_max_tokens`) and how
far its coverage cursor has moved through the raw history.
"""),
    code("""
import matplotlib.pyplot as plt

calls = range(1, len(steps) + 1)
fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True, layout="constrained")
top.plot(calls, [s["raw_tokens"] for s in steps], color="#9aa3ad", lw=2, label="raw history")
top.plot(calls, [s["seen_tokens"] for s in steps], color="#1f6feb", lw=2, label="sent to the model")
top.axhline(budget.usable, color="#cf222e", ls="--", lw=1, label=f"usable budget {budget.usable:,}")
for i, event in zip(calls, events, strict=True):
    if event["summarized"]:
        top.axvline(i, color="#e36209", ls=":", lw=0.8)
top.set_ylabel("input tokens")
top.legend(frameon=False, fontsize=8)

bottom.step(calls, [s["summary_tokens"] for s in steps], where="post", color="#bf8700",
            label="summary tokens")
bottom.set_ylabel("summary tokens")
covered = bottom.twinx()
covered.step(calls, [s["covered"] for s in steps], where="post", color="#1a7f37",
             label="covered through (raw message)")
covered.set_ylabel("covered through")
bottom.set_xlabel("model call")
bottom.legend(handles=[*bottom.get_lines(), *covered.get_lines()], loc="upper left",
              frameon=False, fontsize=8)
plt.show()
"""),
    md("""
## The running summary

When clipping and pruning were not enough, the node folded the older turns into a
`RunningSummary`: fixed sections (Goal, Progress, Critical Context, Relevant Files,
Next Steps, …), extracted deterministically by the default `ExtractiveSummarizer` (no
model call; `ChatModelSummarizer` uses an LLM instead). It covers raw messages
`[head_end, covered_through)` exactly; each new generation merges the previous summary
with the newly covered span instead of re-summarizing everything.
"""),
    code("""
summary = final["running_summary"]
print(
    f"generation {summary.generation} (parent {summary.parent_generation}), "
    f"covers raw messages [{summary.head_end}, {summary.covered_through}), "
    f"{summary.token_count} tokens, summarizer={summary.summarizer}\\n"
)
print(summary.render())
"""),
    md("""
This is the message the model actually receives in place of the covered turns — it
says which messages it replaces and how to get them back (the recall tool, see
notebook 02):
"""),
    code("""
print(summary.to_message().content[:400])
"""),
    md("""
## The compaction events

The stats in each event: message and token counts before and after, what the fold
stage saved, the summary generation and coverage, and — when a summary was written —
which summarizer ran. Handy for logging and dashboards.
"""),
    code("""
from pprint import pprint

first_summary = next(e for e in events if e["summarized"])
pprint(first_summary)
"""),
    md("""
## What we guarantee

Compaction changed only what the model saw: the raw history is exactly the recorded
trajectory, and no model call exceeded the usable budget.
"""),
    code("""
assert final["messages"] == trajectory, "raw history must be the trajectory, untouched"
assert all(step["seen_tokens"] <= budget.usable for step in steps)
assert all(event["tokens_after"] <= budget.usable for event in events)
print(
    f"raw history intact ({len(final['messages'])} messages, "
    f"{counter.count_messages(final['messages']):,} tokens); "
    f"peak model input {max(s['seen_tokens'] for s in steps):,} <= {budget.usable:,}"
)
"""),
]

# --- 02 raw-history checkpointer ----------------------------------------------------

CHECKPOINTER: list[Cell] = [
    md("""
# The raw-history checkpointer: `CompactSqliteSaver`

Compaction only changes what the model *sees*; the raw history is still in
`state["messages"]`, and a checkpointer persists it. The stock savers serialize the
whole message list again at every checkpoint, so a long thread's database grows
quadratically. `CompactSqliteSaver` is a drop-in `BaseCheckpointSaver` that stores
**each message once** and lets checkpoints refer to them. On top of that it offers:

* a **history API** to page through a thread's raw messages by range, role, tool name or
  text;
* the list of **summary generations** the compaction node wrote;
* a **recall tool** the model can call with the `ref=` from a clip or prune marker;
* **redaction**: tombstone a message everywhere it is stored.

Everything below runs in a temporary directory that is removed at the end.
"""),
    code("""
import re
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph

from langgraph_compact import (
    Budget,
    CompactionNode,
    CompactState,
    TokenCounter,
    ToolPolicies,
    ToolPolicy,
)
from langgraph_compact.node import SERDE_ALLOWLIST
from langgraph_compact.checkpoint import CompactSqliteSaver, make_recall_tool
from langgraph_compact.trajectories import load_trajectory, sample_path

workdir = Path(tempfile.mkdtemp(prefix="lgc-notebook-"))
counter = TokenCounter()
budget = Budget(
    context_window=8_000, reserved_output=1_000, compaction_reserve=500, safety_margin=500
)
# Clip bash outputs above 1,500 chars so the projection carries visible clip markers.
policies = ToolPolicies({"bash": ToolPolicy(max_chars=1_500)})
# Let LangGraph's msgpack serializer load RunningSummary values explicitly (strict mode).
serde = JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)
"""),
    md("""
A helper builds the same replaying agent as in the quickstart (compaction node → a fake
model that replays recorded turns → recorded tool outputs) on any checkpointer, and
remembers every projection the model was shown.
"""),
    code("""
def build_graph(checkpointer: Any, turns: list[AIMessage], outputs: dict[str, ToolMessage]):
    model = GenericFakeChatModel(messages=iter(turns))
    projections: list[list[Any]] = []

    def agent(state: CompactState) -> dict[str, Any]:
        projections.append(state["llm_input_messages"])
        return {"messages": [model.invoke(state["llm_input_messages"])]}

    def tools(state: CompactState) -> dict[str, Any]:
        return {"messages": [outputs[c["id"]] for c in state["messages"][-1].tool_calls]}

    def after_agent(state: CompactState) -> str:
        return "tools" if state["messages"][-1].tool_calls else END

    def after_tools(state: CompactState) -> str:
        return "compact" if len(projections) < len(turns) else END

    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget, counter=counter, policies=policies))
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", after_agent, ["tools", END])
    builder.add_conditional_edges("tools", after_tools, ["compact", END])
    graph = builder.compile(checkpointer=checkpointer)
    return graph, projections


def replay(checkpointer: Any, name: str, thread_id: str):
    recorded = load_trajectory(sample_path(name))
    turns = [m for m in recorded if isinstance(m, AIMessage)]
    outputs = {m.tool_call_id: m for m in recorded if isinstance(m, ToolMessage)}
    graph, projections = build_graph(checkpointer, turns, outputs)
    config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 1_000}
    graph.invoke({"messages": recorded[:2]}, config)
    return graph, config, recorded, projections
"""),
    md("""
## Run a thread on the saver

A file path is all the saver needs (it creates the schema on first use). We replay a
157-turn Django bug fix on thread `"django"`.
"""),
    code("""
saver = CompactSqliteSaver(workdir / "agent.sqlite", serde=serde)
TRAJECTORY = "mini-swe-agent-test-django__django-11797"
graph, config, recorded, projections = replay(saver, TRAJECTORY, "django")

state = graph.get_state(config).values
assert state["messages"] == recorded
print(f"{len(state['messages'])} raw messages persisted, {len(projections)} model calls")
"""),
    md("""
## Paging through the raw history

`saver.history(thread_id, ...)` returns a `HistoryPage`: `items` (each a `HistoryItem` with
the message and its `index` in the thread's message list — the same index a summary's
coverage uses), `has_more`, an opaque `cursor` for the next page and `total`. Pass the
cursor back with the same filters to continue.
"""),
    code("""
page = saver.history("django", limit=5)
print(f"total={page.total} has_more={page.has_more}")
for item in page.items:
    print(f"  #{item.index:<3} {item.message.type:>6}: {item.message.text[:70]!r}")

pages, seen, cursor = 0, 0, None
while True:
    page = saver.history("django", limit=50, cursor=cursor)
    pages, seen = pages + 1, seen + len(page.items)
    if not page.has_more:
        break
    cursor = page.cursor
print(f"read all {seen} messages in {pages} pages of up to 50")
"""),
    md("""
Filters narrow a page without renumbering it: `role` (`human`/`ai`/`tool`/`system`),
`tool_name` (the tool's outputs *and* the AI messages that call it) and `text` (full-text
search, each word matched as a phrase).
"""),
    code("""
def show(page, width=70):
    for item in page.items:
        print(f"  #{item.index:<3} {item.message.type:>6}: {item.message.text[:width]!r}")
    print(f"  has_more={page.has_more}")


print("role='human':")
show(saver.history("django", role="human"))
print("tool_name='bash', first 4:")
show(saver.history("django", tool_name="bash", limit=4))
print("text='GROUP BY', first 3:")
show(saver.history("django", text="GROUP BY", limit=3))
"""),
    md("""
## Summary generations

Every summary the compaction node wrote is kept in the checkpoints; `saver.summaries`
lists the generations with their coverage and size. Coverage only moves forward.
"""),
    code("""
generations = saver.summaries("django")
for g in generations:
    print(
        f"gen {g.generation:>2}: covers [{g.head_end}, {g.covered_through:>3}) "
        f"{g.token_count:>4} tokens via {g.summarizer}"
    )
assert [g.covered_through for g in generations] == sorted(g.covered_through for g in generations)
"""),
    md("""
## Recall: getting clipped content back

Every shortening in the projection is *visible* and says how to undo it: a clip marker
reads `[... N chars / M lines omitted; ref=<message id> — call recall(ref) ...]`. Give
the model the recall tool (`make_recall_tool(saver)`) and it can read the original back,
in bounded pages. The tool takes the thread from the run's config, never from the
model's arguments.

Here we take a ref from a clip marker in a projection the model actually saw, and call
the tool ourselves with the run's config.
"""),
    code("""
CLIP_MARKER = re.compile(r"\\[\\.\\.\\. [^\\]]*? omitted; ref=(\\S+) [^\\]]*\\]")
marker, ref = next(
    (match.group(0), match.group(1))
    for projection in reversed(projections)
    for message in projection
    if (match := CLIP_MARKER.search(message.text))
)
print("marker seen by the model:\\n ", marker)

recall = make_recall_tool(saver)
print()
print(recall.invoke({"ref": ref, "limit": 400}, config=config))
"""),
    code("""
print(recall.invoke({"query": "GROUP BY subquery"}, config=config)[:900])
"""),
    md("""
## Thread isolation

Threads share the database file but nothing else: history, search and recall are scoped
to one thread id, so a ref from one conversation resolves to nothing in another.
"""),
    code("""
_, ctf_config, ctf_recorded, _ = replay(saver, "swe-agent-demo-ctf-crypto-eps", "ctf")
print("messages per thread:", {t: saver.history(t, limit=1).total for t in ("django", "ctf")})
print("recall from 'ctf' with a 'django' ref ->", recall.invoke({"ref": ref}, config=ctf_config))
print("'GROUP BY' in 'ctf':", len(saver.history("ctf", text="GROUP BY").items), "hits")
assert saver.get_message("ctf", ref) is None
"""),
    md("""
## Redaction

Sometimes a message must go: a leaked secret, personal data. `saver.redact` replaces the
content (and tool-call arguments, provider metadata, artifacts) with a tombstone wherever
the saver stored it (message table, full-text index, other channels, pending writes), logs
who did it and why, and empties the write-ahead log so the old bytes leave the database
files; the result says whether that completed. The message keeps its id and position, so
the thread stays a valid conversation.

We redact a tool output that the current summary covers.
"""),
    code("""
summary = state["running_summary"]
victim = next(
    m for m in state["messages"][summary.head_end : summary.covered_through]
    if isinstance(m, ToolMessage)
)
print(f"summary gen {summary.generation} covers [{summary.head_end}, {summary.covered_through})")
print(f"redacting {victim.id}: {victim.text[:80]!r}")

result = saver.redact("django", [victim.id], reason="contains a secret", actor="notebook")
print(result)
print("stored now:", saver.get_message("django", victim.id).content)
"""),
    md("""
The summary was computed from the original content, so it no longer matches the history:
it records a digest of the span it covers. On the next call the compaction node notices
the mismatch and rebuilds the summary from the (redacted) raw messages; the reason is
recorded in `running_summary.rebuilt_reason`. We send one more user turn to trigger it.
"""),
    code("""
followup, _ = build_graph(saver, [AIMessage("Nothing left to do.")], {})
out = followup.invoke({"messages": [HumanMessage("Anything left?")]}, config)
rebuilt = out["running_summary"]
print(f"generation {rebuilt.generation} (parent {rebuilt.parent_generation})")
print("rebuilt_reason:", rebuilt.rebuilt_reason)
assert rebuilt.rebuilt_reason is not None
assert rebuilt.generation > summary.generation
"""),
    md("""
## Database size vs. the stock `SqliteSaver`

The same replay, once on a fresh `CompactSqliteSaver` file and once on LangGraph's
`SqliteSaver` (same serializer). Both savers are closed before measuring so the
write-ahead logs are folded into the files.
"""),
    code("""
from langgraph.checkpoint.sqlite import SqliteSaver


def db_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.parent.glob(path.name + "*"))


compact_path, stock_path = workdir / "compact.sqlite", workdir / "stock.sqlite"
with CompactSqliteSaver.from_conn_string(str(compact_path), serde=serde) as compact_saver:
    replay(compact_saver, TRAJECTORY, "django")

stock_conn = sqlite3.connect(stock_path, check_same_thread=False)
replay(SqliteSaver(stock_conn, serde=serde), TRAJECTORY, "django")
stock_conn.close()

compact_size, stock_size = db_size(compact_path), db_size(stock_path)
print(f"CompactSqliteSaver: {compact_size / 1e6:8.2f} MB")
print(f"SqliteSaver:        {stock_size / 1e6:8.2f} MB")
print(f"ratio: the stock file is {stock_size / compact_size:.0f}x larger")
"""),
    code("""
saver.close()
shutil.rmtree(workdir)
"""),
]

# --- 03 tuning ---------------------------------------------------------------------

TUNING: list[Cell] = [
    md("""
# Tuning budgets and tool policies

The defaults are meant to be safe, not optimal. This notebook shows the knobs and what
each one changes:

1. `Budget`: how many tokens a call may use, and the trigger/target hysteresis;
2. `ToolPolicies` / `ToolPolicy`: how each tool's output may be shortened;
3. `fold`: the cheap stages (clip, dedupe, prune, loop detection) and what each saves;
4. `ContextBudgetError`: what happens when the budget cannot be met;
5. the async path.
"""),
    code("""
import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from langgraph_compact import (
    Budget,
    CompactionSettings,
    ContextBudgetError,
    ToolPolicies,
    ToolPolicy,
    compact,
)
from langgraph_compact.compaction import fold
from langgraph_compact.policies import ToolMode
from langgraph_compact.trajectories import load_trajectory, sample_path
"""),
    md("""
## 1. `Budget`

`usable = context_window - reserved_output - compaction_reserve - safety_margin`; the
node compacts once the projection exceeds `trigger_tokens = usable * trigger_fraction`
and brings it down to about `target_tokens = usable * target_fraction`. Bad settings fail
when the `Budget` is created, not in the middle of a run:
"""),
    code("""
for b in (
    Budget(context_window=128_000, reserved_output=8_000),
    Budget(context_window=16_000, reserved_output=2_000, compaction_reserve=1_000,
           safety_margin=1_000),
):
    print(f"window={b.context_window:>7,} usable={b.usable:>7,} "
          f"trigger={b.trigger_tokens:>7,} target={b.target_tokens:>7,}")

for bad in (
    {"context_window": 8_000},  # the default reserves alone are 11,096 tokens
    {"context_window": 8_000, "reserved_output": 0, "target_fraction": 0.9},
):
    try:
        Budget(**bad)
    except ValueError as exc:  # a pydantic ValidationError
        print(f"\\nBudget({bad}) ->\\n  ", exc.errors()[0]["ctx"]["error"])
"""),
    md("""
### Why trigger and target are apart

Every summary costs a summarizer call (an LLM call, with `ChatModelSummarizer`) and
invalidates the provider's prompt cache. If compaction only trimmed to just under the
trigger, the next tool output would push it over again. Below we feed a 314-message
trajectory to `compact()` — the function the node calls — one model turn at a time, and
count summarizer runs for three targets under the same trigger.
"""),
    code("""
trajectory = load_trajectory(sample_path("mini-swe-agent-test-django__django-11797"))


def simulate(budget: Budget) -> tuple[int, int]:
    settings = CompactionSettings(budget)
    summary, summarizer_calls, peak = None, 0, 0
    for end in range(2, len(trajectory) + 1):
        if isinstance(trajectory[end - 1], AIMessage):
            continue  # the model is called after the user turn or the tool outputs
        result = compact(trajectory[:end], summary, settings)
        if result.summary_changed:
            summary = result.summary
        summarizer_calls += result.stats.summarized
        peak = max(peak, result.stats.tokens_after)
    return summarizer_calls, peak


print(f"{'target':>6} {'trigger':>8} {'target tok':>10} {'summaries':>9} {'peak':>6}")
for target_fraction in (0.5, 0.7, 0.78):
    b = Budget(context_window=16_000, reserved_output=2_000, compaction_reserve=1_000,
               safety_margin=1_000, target_fraction=target_fraction)
    calls, peak = simulate(b)
    print(f"{target_fraction:>6} {b.trigger_tokens:>8,} {b.target_tokens:>10,} "
          f"{calls:>9} {peak:>6,}")
"""),
    md("""
A low target means fewer, larger compactions; a target close to the trigger means the
summarizer runs on almost every turn. The peak is the same: the trigger bounds it.

## 2. Tool policies

Tools differ. A file read can be re-run, so an old copy is cheap to drop; a web fetch
or a clock cannot be repeated, so two "identical" calls are not duplicates; a task spec
returned by a tool may have to stay word for word. `ToolPolicies` maps tool names to a
`ToolPolicy` (with a default for every other tool):

| setting | effect |
|---|---|
| `mode=ToolMode.KEEP_VERBATIM` | never clipped, never pruned |
| `mode=ToolMode.CLIP_ON_INSERT` (default) | clipped to `max_chars`; a stub once old |
| `mode=ToolMode.DROP_AFTER_CONSUMED` | a stub once the model has answered after it |
| `open_world=True` | never deduplicated (results are not repeatable) |

"Clipped" means head and tail kept with a visible marker; "a stub once old" means a
one-line stub once the output is outside the protected recent window; drop-after-consumed
stubs an output even inside that window.

A small synthetic history shows all four. The protected recent window is made large
here so that only the policies act, not the pruning of old outputs.
"""),
    code("""
def call(i: int, name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage("", id=f"a{i}", tool_calls=[{"id": f"c{i}", "name": name, "args": args}])


def output(i: int, name: str, text: str) -> ToolMessage:
    return ToolMessage(text, id=f"t{i}", tool_call_id=f"c{i}", name=name)


history = [
    HumanMessage("Fix the exporter.", id="h0"),
    call(1, "read_spec", {}),
    output(1, "read_spec", "\\n".join(f"REQ-{k}: keep field {k}" for k in range(400))),
    call(2, "bash", {"command": "cat build.log"}),
    output(2, "bash", "\\n".join(f"line {k}: INFO step {k} ok" for k in range(400))),
    call(3, "search", {"q": "exporter"}),
    output(3, "search", "\\n".join(f"hit {k}: src/exporter_{k}.py" for k in range(60))),
    AIMessage("The exporter lives in src/exporter_3.py.", id="a3b"),
    call(4, "web_fetch", {"url": "https://example.com/status"}),
    output(4, "web_fetch", "status: degraded " * 40),
    call(5, "bash", {"command": "ls"}),
    output(5, "bash", "a.py\\nb.py\\n" * 30),
    call(6, "web_fetch", {"url": "https://example.com/status"}),
    output(6, "web_fetch", "status: ok " * 40),
    call(7, "bash", {"command": "ls"}),
    output(7, "bash", "a.py\\nb.py\\n" * 30),
    AIMessage("Done.", id="a8"),
]

policies = ToolPolicies({
    "read_spec": ToolPolicy(mode=ToolMode.KEEP_VERBATIM, max_chars=1_000),  # max_chars ignored
    "bash": ToolPolicy(max_chars=1_000),
    "search": ToolPolicy(mode=ToolMode.DROP_AFTER_CONSUMED),
    "web_fetch": ToolPolicy(open_world=True),
})


def show_fold(policies: ToolPolicies) -> None:
    settings = CompactionSettings(
        Budget(context_window=128_000), policies=policies, keep_recent_tokens=50_000
    )
    result = fold(history, settings)
    for before, after in zip(history, result.messages, strict=True):
        if not isinstance(before, ToolMessage):
            continue
        if after.content == before.content:
            print(f"{before.id} {before.name:<9} {len(before.text):>6,} chars  kept")
        else:
            marker = next(line for line in after.text.splitlines() if "ref=" in line)
            print(f"{before.id} {before.name:<9} {len(before.text):>6,} -> "
                  f"{len(after.text):>5,}  {marker[:95]}")


print("custom policies:")
show_fold(policies)
print("\\ndefault policies:")
show_fold(ToolPolicies())
"""),
    md("""
With the custom policies the spec stays whole, the log is clipped to 1,000 chars, the
search hits became a stub once the model had used them, the two status fetches both
survive, and the first `ls` is replaced by a pointer to the identical later call. With
the defaults the spec and the log are both clipped at 6,000 chars, the search hits stay,
and the first status fetch is wrongly "deduplicated" against a later, different answer.

To use policies in a graph: `CompactionNode(budget, policies=policies)`.

## 3. What each fold stage saves on a real run

`fold` is the cheap, model-free part of the pipeline (the node runs it on the part of
the history the summary does not cover). Its stats say what each stage did:
"""),
    code("""
window = Budget(context_window=128_000)
result = fold(trajectory, CompactionSettings(window, keep_recent_tokens=20_000))
print(f"{len(trajectory)} messages: {result.tokens_before:,} -> {result.tokens_after:,} tokens "
      f"({result.saved / result.tokens_before:.0%} saved), {len(result.refs)} messages shortened")
print(f"{'stage':<8} {'before':>8} {'after':>8} {'items':>6} {'saved':>7}")
for s in result.stats:
    print(f"{s.stage:<8} {s.tokens_before:>8,} {s.tokens_after:>8,} {s.items:>6} {s.saved:>7,}")
print("loop detected now:", result.loop)
"""),
    md("""
Pruning old outputs does most of the work on a coding agent; clipping matters when
single outputs are huge; dedupe catches re-reads. What is still over the trigger after
the fold is what the summarizer has to handle.

## 4. When the budget is impossible: `ContextBudgetError`

The node never sends an over-budget request silently. If the budget cannot be met it
raises `ContextBudgetError` with a message that says which part is too big and which
setting to change — catch it where you build the agent, not per turn.
"""),
    code("""
tiny = Budget(context_window=1_000, reserved_output=200, compaction_reserve=0, safety_margin=0)

try:  # the system prompt alone does not fit
    compact(
        [SystemMessage("You are careful. " * 600, id="sys"), HumanMessage("hi", id="h")],
        None,
        CompactionSettings(tiny),
    )
except ContextBudgetError as exc:
    print("ContextBudgetError:", exc)

try:  # the first request may take more than the whole budget
    compact(trajectory[:40], None, CompactionSettings(tiny, head_max_tokens=2_000))
except ContextBudgetError as exc:
    print("ContextBudgetError:", exc)
"""),
    md("""
## 5. The async path

`CompactionNode` is sync and async: under `graph.ainvoke`/`astream` it runs `acompact`,
which awaits the summarizer (`asummarize`), so an LLM summarizer does not block the event
loop. Notebooks support top-level `await`.
"""),
    code("""
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langgraph.graph import END, START, StateGraph

from langgraph_compact import CompactionNode, CompactState

agent_turns = [m for m in trajectory if isinstance(m, AIMessage)]
outputs = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
budget = Budget(context_window=16_000, reserved_output=2_000, compaction_reserve=1_000,
                safety_margin=1_000)
model = GenericFakeChatModel(messages=iter(agent_turns))
calls = {"n": 0}


async def agent(state: CompactState) -> dict[str, Any]:
    calls["n"] += 1
    return {"messages": [await model.ainvoke(state["llm_input_messages"])]}


async def tools(state: CompactState) -> dict[str, Any]:
    return {"messages": [outputs[c["id"]] for c in state["messages"][-1].tool_calls]}


builder = StateGraph(CompactState)
builder.add_node("compact", CompactionNode(budget, policies=policies))
builder.add_node("agent", agent)
builder.add_node("tools", tools)
builder.add_edge(START, "compact")
builder.add_edge("compact", "agent")
builder.add_conditional_edges(
    "agent", lambda s: "tools" if s["messages"][-1].tool_calls else END, ["tools", END]
)
builder.add_conditional_edges(
    "tools", lambda s: "compact" if calls["n"] < len(agent_turns) else END, ["compact", END]
)
graph = builder.compile()

started = time.perf_counter()
final = await graph.ainvoke({"messages": trajectory[:2]}, {"recursion_limit": 2_000})
elapsed = time.perf_counter() - started

summary = final["running_summary"]
assert final["messages"] == trajectory
print(f"{calls['n']} async model calls in {elapsed:.1f}s; raw history intact; "
      f"summary generation {summary.generation} covers [{summary.head_end}, "
      f"{summary.covered_through})")
"""),
]

# --- 04 doors ------------------------------------------------------------------------

DOORS: list[Cell] = [
    md("""
# Four doors, one compaction

LangGraph agents are built in several ways, and `langgraph-compact` enters each of them:

1. **a `StateGraph`** with `CompactionNode` in front of the model node;
2. **the prebuilt react agent** with `CompactionNode` as its `pre_model_hook`;
3. **LangChain's `create_agent`** with `CompactionMiddleware` (it runs a `CompactionNode`
   inside);
4. **deepagents' `create_deep_agent`** with `DeepAgentsCompaction` (the middleware under
   the name deepagents looks for, so it replaces deepagents' own summarization).

Behind every door is the same compaction: the append-only fold anchor, tool schemas
counted in the budget, calibration from the replies' `usage_metadata`, the usage ledger.
Here one recorded coding-agent run is replayed through each door with a 6,000-token
window; every door writes its thread to its own SQLite file, and the CLI's chart shows
each one.
"""),
    code("""
import tempfile
from pathlib import Path
from typing import Annotated, Any

from IPython.display import Image, display
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, create_react_agent, tools_condition
from pydantic import Field

from langgraph_compact import Budget, CompactionNode, CompactState, TokenCounter
from langgraph_compact.calibrate import tool_tokens
from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.cli.charts import thread_chart
from langgraph_compact.cli.thread import view_of_thread
from langgraph_compact.middleware import CompactionMiddleware
from langgraph_compact.node import SERDE_ALLOWLIST, CompactAgentState
from langgraph_compact.trajectories import load_trajectory, sample_path

workdir = Path(tempfile.mkdtemp(prefix="lgc-doors-"))
serde = JsonPlusSerializer(allowed_msgpack_modules=SERDE_ALLOWLIST)
COUNTER = TokenCounter()
BUDGET = Budget(context_window=6_000, reserved_output=0, compaction_reserve=0, safety_margin=0)

RUN = load_trajectory(sample_path("mini-swe-agent-test-django__django-11099"))
SYSTEM = next(m for m in RUN if isinstance(m, SystemMessage))
REQUEST = next(m for m in RUN if m.type == "human")
RESULTS = {m.tool_call_id: m for m in RUN if isinstance(m, ToolMessage)}
TURNS = [*(m for m in RUN if isinstance(m, AIMessage)), AIMessage("Done.", id="final")]
print(f"{len(RUN)} recorded messages, {len(TURNS)} model calls to replay")
"""),
    md("""
The agent's model is a stand-in that answers with the recorded turns and reports usage as
a provider does; the `bash` tool answers with the recorded output of each call.
"""),
    code("""
@tool
def bash(command: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
    \"\"\"Run a shell command.\"\"\"
    return RESULTS[tool_call_id]


class ReplayingModel(GenericFakeChatModel):
    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ReplayingModel":
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        result = super()._generate(messages, *args, **kwargs)
        sent = COUNTER.count_messages(messages) + tool_tokens([bash], COUNTER)
        usage = {"input_tokens": sent, "output_tokens": 50, "total_tokens": sent + 50}
        message = result.generations[0].message
        result.generations[0].message = message.model_copy(update={"usage_metadata": usage})
        return result


def model() -> ReplayingModel:
    return ReplayingModel(messages=iter(TURNS), seen=[])
"""),
    md("""
## The four doors

Each function builds its agent on a saver and returns it with its first input.
"""),
    code("""
def graph_door(llm, saver):
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(BUDGET, counter=COUNTER, tools=[bash]))
    builder.add_node("agent", lambda s: {"messages": [llm.invoke(s["llm_input_messages"])]})
    builder.add_node("tools", ToolNode([bash]))
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", tools_condition, ["tools", END])
    builder.add_edge("tools", "compact")
    return builder.compile(checkpointer=saver), [SYSTEM, REQUEST]


def react_door(llm, saver):
    hook = CompactionNode(BUDGET, counter=COUNTER, tools=[bash])
    agent = create_react_agent(
        llm, [bash], pre_model_hook=hook, state_schema=CompactAgentState, checkpointer=saver
    )
    return agent, [SYSTEM, REQUEST]


def agent_door(llm, saver):
    middleware = CompactionMiddleware(BUDGET, counter=COUNTER)
    agent = create_agent(
        llm, [bash], system_prompt=SYSTEM.content, middleware=[middleware], checkpointer=saver
    )
    return agent, [REQUEST]


def deep_door(llm, saver):
    from deepagents import create_deep_agent

    from langgraph_compact.deep_agents import CompactDeepAgentState, DeepAgentsCompaction

    ours = DeepAgentsCompaction(BUDGET, counter=COUNTER)
    agent = create_deep_agent(
        llm,
        tools=[bash],
        system_prompt=SYSTEM.content,
        middleware=[ours],
        state_schema=CompactDeepAgentState,  # messages as a plain list, for the saver
        checkpointer=saver,
    )
    return agent, [REQUEST]


DOORS = {"StateGraph": graph_door, "react agent": react_door,
         "create_agent": agent_door, "create_deep_agent": deep_door}
"""),
    md("""
## Replay the run through each door

Sync for the first two, async for the others: both paths share one core.
"""),
    code("""
import warnings

runs = {}
for i, (name, door) in enumerate(DOORS.items()):
    llm = model()
    saver = CompactSqliteSaver(workdir / f"door-{i}.sqlite", serde=serde)
    agent, first = door(llm, saver)
    config = {"configurable": {"thread_id": "run"}, "recursion_limit": 1_000}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_react_agent's move notice
        if i < 2:
            agent.invoke({"messages": first}, config)
        else:
            await agent.ainvoke({"messages": first}, config)  # the notebook's event loop
    runs[name] = (llm, saver, agent.get_state(config).values)

print(f"{'door':<18} {'calls':>5} {'max input':>9} {'summary gen':>11} {'ledger calls':>12}")
for name, (llm, _, state) in runs.items():
    sent = [COUNTER.count_messages(s) for s in llm.seen]
    summary = state.get("running_summary")
    ledger = state.get("usage", {}).get("by", {})
    calls = sum(t["calls"] for t in ledger.values())
    print(f"{name:<18} {len(sent):>5} {max(sent):>9,} {summary.generation:>11} {calls:>12}")
    assert max(sent) <= BUDGET.usable
"""),
    md("""
The first three doors send the model exactly the same inputs, call by call
(`tests/test_doors.py` checks it for every release). deepagents adds its own system prompt
and tools (files, to-dos, sub-agents), so its inputs differ by that framing; compaction
keeps it inside the same budget.
"""),
    code("""
inputs = {name: [[m.content for m in s] for s in llm.seen] for name, (llm, _, _) in runs.items()}
assert inputs["StateGraph"] == inputs["react agent"] == inputs["create_agent"]
print("StateGraph, react agent and create_agent sent identical inputs on every call")
"""),
    md("""
## What each door sent, call by call

The inputs each door's model received (tool schemas included), against the budget.
"""),
    code("""
import matplotlib.pyplot as plt

schemas = tool_tokens([bash], COUNTER)
fig, ax = plt.subplots(figsize=(8, 3.2))
for name, (llm, _, _) in runs.items():
    sent = [COUNTER.count_messages(s) + schemas for s in llm.seen]
    ax.plot(range(1, len(sent) + 1), sent, lw=1.5, label=name)
ax.axhline(BUDGET.usable, color="#cf222e", ls="--", lw=1, label=f"budget {BUDGET.usable:,}")
ax.set_xlabel("model call")
ax.set_ylabel("input tokens")
ax.legend(fontsize=8, frameon=False)
plt.show()
"""),
    md("""
## The CLI's chart for each door

`langgraph-compact inspect <file> --thread run --budget 6000 --html ...` reads a saved
thread; here the same view and chart are built in Python from each door's file. (deepagents
keeps `messages` in a `DeltaChannel` of its own; `CompactDeepAgentState`, passed above,
declares them as a plain list so the saver stores, pages and recalls every message.)
"""),
    code("""
for i, (name, (_, saver, _)) in enumerate(runs.items()):
    view = view_of_thread(saver, "run", BUDGET.usable, source=name)
    view.title = f"{name}: raw history vs sent, {view.events} compactions"
    display(Image(filename=str(thread_chart(view, workdir / f"door-{i}.png"))))
"""),
]

NOTEBOOKS = {
    "01_quickstart.ipynb": QUICKSTART,
    "02_raw_history_checkpointer.ipynb": CHECKPOINTER,
    "03_tuning_budgets_and_policies.ipynb": TUNING,
    "04_four_doors.ipynb": DOORS,
}


def build(cells: list[Cell]) -> nbformat.NotebookNode:
    nb = new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    for i, (kind, source) in enumerate(cells):
        cell = new_markdown_cell(source) if kind == "md" else new_code_cell(source)
        cell["id"] = f"cell-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        nbformat.write(build(cells), HERE / name)
        print(f"wrote {name} ({len(cells)} cells)")


if __name__ == "__main__":
    main()
