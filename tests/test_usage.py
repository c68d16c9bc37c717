"""The usage ledger: agent and summarizer calls, cache details, streamed replies, the saver."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from cli_helpers import run
from factories import human, system
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, message_chunk_to_message
from langgraph.graph import END, START, StateGraph

from langgraph_compact import Budget, CompactionNode, CompactState
from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.compaction import ChatModelSummarizer
from langgraph_compact.usage import ModelPrice, add_usage, count_replies, thread_usage, usage_of

# As langchain-openai normalizes a response: input includes the cached prompt tokens,
# output includes the reasoning tokens.
OPENAI = {
    "input_tokens": 5_000,
    "output_tokens": 700,
    "total_tokens": 5_700,
    "input_token_details": {"audio": 0, "cache_read": 4_096},
    "output_token_details": {"audio": 0, "reasoning": 512},
}
# As langchain-anthropic normalizes one: its input_tokens (which excludes the cache) plus
# cache reads and writes; with a TTL breakdown the writes move to the ephemeral keys.
ANTHROPIC = {
    "input_tokens": 120 + 3_000 + 800,
    "output_tokens": 250,
    "total_tokens": 120 + 3_000 + 800 + 250,
    "input_token_details": {
        "cache_read": 3_000,
        "cache_creation": 0,
        "ephemeral_5m_input_tokens": 800,
        "ephemeral_1h_input_tokens": 0,
    },
}


def _reply(usage: dict[str, Any], model: str, text: str = "ok") -> AIMessage:
    return AIMessage(text, usage_metadata=usage, response_metadata={"model_name": model})


def test_openai_and_anthropic_shapes() -> None:
    prices = {
        "gpt": ModelPrice(2.0, 8.0, cache_read=0.5),
        "claude": ModelPrice(3.0, 15.0, 0.3, 3.75),
    }
    oa = usage_of(_reply(OPENAI, "gpt"), prices)
    assert (oa["input_tokens"], oa["cache_read"], oa["cache_creation"]) == (5_000, 4_096, 0)
    assert (oa["output_tokens"], oa["reasoning"]) == (700, 512)
    assert oa["cost"] == pytest.approx((904 * 2.0 + 4_096 * 0.5 + 700 * 8.0) / 1e6)
    an = usage_of(_reply(ANTHROPIC, "claude"), prices)
    assert (an["input_tokens"], an["cache_read"], an["cache_creation"]) == (3_920, 3_000, 800)
    assert an["cost"] == pytest.approx((120 * 3 + 3_000 * 0.3 + 800 * 3.75 + 250 * 15) / 1e6)
    assert usage_of(_reply(OPENAI, "unpriced"), prices)["cost"] == 0.0


def test_streamed_chunks_are_counted_once_as_merged() -> None:
    parts = [
        AIMessageChunk("Hel", id="r1", usage_metadata={**ANTHROPIC, "output_tokens": 0}),
        AIMessageChunk("lo", id="r1", usage_metadata=_output_only(250)),
    ]
    merged = message_chunk_to_message(parts[0] + parts[1])
    assert isinstance(merged, AIMessage)
    raw: list[BaseMessage] = [system(), human(), merged]
    first = count_replies(None, raw)
    again = add_usage(first, count_replies(first, raw))  # the next call sees the same list
    ((tag, totals),) = again["by"].items()
    assert tag == "agent:unknown"
    assert (totals["calls"], totals["input_tokens"], totals["output_tokens"]) == (1, 3_920, 250)
    assert totals["cache_read"] == 3_000 and totals["cache_creation"] == 800


def _output_only(n: int) -> Any:
    return {"input_tokens": 0, "output_tokens": n, "total_tokens": n}


@pytest.mark.parametrize("seed", range(3))
def test_ledger_of_a_graph_run_tags_the_summarizer_and_survives_the_saver(
    seed: int, tmp_path: Any
) -> None:
    rng = random.Random(seed)
    shapes = [(OPENAI, "gpt"), (ANTHROPIC, "claude")]
    replies = []
    for i in range(24):
        usage, model = rng.choice(shapes)
        replies.append(_reply(usage, model, f"step {i}: " + "detail " * rng.randrange(50, 400)))
    answer = _reply(_output_only(90), "summ", "Goal: keep going. Critical context: step values.")
    summarizer = ChatModelSummarizer(model=GenericFakeChatModel(messages=itertools.repeat(answer)))
    agent = GenericFakeChatModel(messages=iter(replies))
    node = CompactionNode(
        Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0),
        summarizer=summarizer,
        prices={"gpt": ModelPrice(2.0, 8.0)},
    )
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_node("agent", lambda s: {"messages": [agent.invoke(s["llm_input_messages"])]})
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_edge("agent", END)
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "t.db")) as saver:
        graph = builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": f"usage-{seed}"}}
        graph.invoke({"messages": [system(), human("start")]}, config)
        for i in range(len(replies) - 1):
            graph.invoke({"messages": [human(f"continue {i}")]}, config)
        state = graph.get_state(config).values
    ledger = thread_usage(state, {"gpt": ModelPrice(2.0, 8.0)})
    by = ledger["by"]
    for usage, model in shapes:
        sent = [r for r in replies if r.response_metadata["model_name"] == model]
        totals = by.get(f"agent:{model}")
        assert totals is not None and totals["calls"] == len(sent)
        assert totals["input_tokens"] == usage["input_tokens"] * len(sent)
        assert totals["cache_read"] == usage["input_token_details"]["cache_read"] * len(sent)
    assert by["summarizer:summ"]["calls"] >= 1
    assert by["summarizer:summ"]["output_tokens"] == 90 * by["summarizer:summ"]["calls"]
    gpt = by.get("agent:gpt")
    assert gpt is not None and gpt["cost"] == pytest.approx(
        gpt["calls"] * (904 * 2.0 + 4_096 * 2.0 + 700 * 8.0) / 1e6
    )
    # The stored ledger lacks only the final reply, which thread_usage adds.
    stored = state["usage"]["by"]
    assert sum(t["calls"] for k, t in stored.items() if k.startswith("agent")) == len(replies) - 1
    # ``inspect`` shows the same ledger, the agent's calls apart from the summarizer's.
    shown = run("inspect", tmp_path / "t.db", "--thread", f"usage-{seed}").output
    for tag, totals in by.items():
        row = next(line for line in shown.splitlines() if f" {tag} " in line)
        assert f" {totals['calls']:,} " in row and f" {totals['input_tokens']:,} " in row
        assert f" {totals['output_tokens']:,} " in row


@pytest.mark.parametrize("tokens", [4_000, 8_000])
def test_the_ledger_counts_every_summarizer_call_a_replay_makes(tokens: int) -> None:
    """The node's ledger and the stand-in model's own counters agree, call for call and
    token for token: what the cost bench bills is what a thread's ledger shows."""
    from corpus import corpus_files

    from langgraph_compact import TokenCounter
    from langgraph_compact.replay import budget_of, make_strategy, replay_trajectory
    from langgraph_compact.trajectories import load_trajectory

    counter, budget = TokenCounter(), budget_of(tokens)
    path = corpus_files()[0]
    strategy = make_strategy("ours+llm", budget, counter)
    run = replay_trajectory(path.stem, load_trajectory(path), strategy, budget, counter)
    assert run.error is None and run.summarizer_calls > 0
    totals = run.usage["by"]["summarizer:tail-summary"]
    assert totals["calls"] == run.summarizer_calls
    assert totals["input_tokens"] == run.summarizer_input_tokens
    assert totals["output_tokens"] == run.summarizer_output_tokens > 0
