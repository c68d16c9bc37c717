"""Redaction through the saver reaches the summary: bytes leave the file, coverage rebuilds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factories import ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage
from langgraph.graph import START, StateGraph

from langgraph_compact import Budget, CompactionNode, CompactState, TokenCounter
from langgraph_compact.checkpoint import CompactSqliteSaver

COUNTER = TokenCounter()
SECRET = "SK-99887766"


def _turns(start: int, n: int) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for i in range(start, start + n):
        call = ai_tool_call("bash", {"command": f"cat src/m{i}.py"}, id=f"a{i}")
        out += [call, tool_result(call, "source line\n" * 300, id=f"t{i}")]
    return out


def test_redacted_message_leaves_file_and_summary_is_rebuilt(tmp_path: Path) -> None:
    budget = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget, counter=COUNTER))
    builder.add_edge(START, "compact")
    db = tmp_path / "thread.sqlite"
    with CompactSqliteSaver.from_conn_string(str(db)) as saver:
        graph = builder.compile(checkpointer=saver)
        config: Any = {"configurable": {"thread_id": "t1"}}
        history = [
            system(id="s"),
            human("Deploy the service.", id="h0"),
            human(f"My API key is {SECRET}.", id="secret"),
            *_turns(0, 60),
        ]
        graph.invoke({"messages": history}, config)
        first = graph.get_state(config).values["running_summary"]
        assert first.covered_through > 3  # the secret message is covered...
        assert SECRET in first.render()  # ...and its fact was extracted

        result = saver.redact("t1", ["secret"], reason="credential pasted", actor="test")
        assert result.message_ids == ["secret"]
        assert SECRET.encode() not in db.read_bytes()
        state = graph.get_state(config).values
        assert SECRET not in str(state["messages"][2].content)
        assert [m.id for m in state["messages"]] == [m.id for m in history]

        graph.invoke({"messages": _turns(60, 2)}, config)
        rebuilt = graph.get_state(config).values["running_summary"]
        assert rebuilt.rebuilt_reason and "changed" in rebuilt.rebuilt_reason
        assert rebuilt.generation == first.generation + 1
        assert SECRET not in rebuilt.render()
    assert SECRET.encode() not in db.read_bytes()


def test_redaction_clears_the_values_a_summary_gave_up(tmp_path: Path) -> None:
    """A summary keeps the value tokens of statements it evicted, with no lineage: the
    redacted message's may be among them, so redaction clears them, in the file too."""
    budget = Budget(context_window=2_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    builder = StateGraph(CompactState)
    builder.add_node("compact", CompactionNode(budget, counter=COUNTER))
    builder.add_edge(START, "compact")
    db = tmp_path / "thread.sqlite"
    names = [f"{chr(97 + n // 26)}{chr(97 + n % 26)}lo" for n in range(40)]  # one subject each
    hosts = [f"{w}-{n}.internal:{5000 + n}" for n, w in enumerate(names)]
    with CompactSqliteSaver.from_conn_string(str(db)) as saver:
        graph = builder.compile(checkpointer=saver)
        config: Any = {"configurable": {"thread_id": "t1"}}
        said = [
            human(f"The {w} relay runs on {h}.", id=f"r{n}")
            for n, (w, h) in enumerate(zip(names, hosts, strict=True))
        ]
        history = [system(id="s"), human("Deploy the service.", id="h0"), *said, *_turns(0, 20)]
        graph.invoke({"messages": history}, config)
        first = graph.get_state(config).values["running_summary"]
        gone = next(n for n, h in enumerate(hosts) if h in first.evicted)
        assert hosts[gone] not in first.render()

        saver.redact("t1", [f"r{gone}"], reason="credential pasted", actor="test")
        assert graph.get_state(config).values["running_summary"].evicted == ()
    assert hosts[gone].encode() not in db.read_bytes()
