"""Redaction: the content leaves every table, the index and the file; the log records it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent_graph import build_graph, file_bytes, turn_input
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSqliteSaver
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.messages import message_digest

SECRET = "SECRET-TOKEN-4242-xyzzy"
CONFIG: dict[str, Any] = {"configurable": {"thread_id": "r"}}


def _thread_with_secret(saver: CompactSqliteSaver) -> Any:
    graph = build_graph(saver)
    graph.invoke(turn_input(0), CONFIG)
    leak = HumanMessage(f"my api key is {SECRET}", id="leak")
    graph.invoke({"messages": [leak]}, CONFIG)
    graph.invoke(turn_input(2), CONFIG)
    return graph


def test_redaction_removes_secret_bytes_from_the_file(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    graph = _thread_with_secret(saver)
    before = graph.get_state(CONFIG).values["messages"]
    assert any(SECRET in str(m.content) for m in before if m.id == "leak")
    assert SECRET.encode() in file_bytes(db_path)
    assert len(saver.history("r", text=SECRET).items) == 1

    result = saver.redact("r", ["leak"], "leaked credential", actor="alice")
    assert result.message_ids == ["leak"] and result.message_rows >= 1

    assert SECRET.encode() not in file_bytes(db_path)
    assert b"xyzzy" not in file_bytes(db_path)
    assert saver.history("r", text="xyzzy").items == []
    log = saver.conn.execute("SELECT message_id, reason, actor FROM lgc_redactions").fetchall()
    assert log == [("leak", "leaked credential", "alice")]


def test_state_after_redaction_has_tombstone_with_same_id(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    graph = _thread_with_secret(saver)
    old = next(m for m in graph.get_state(CONFIG).values["messages"] if m.id == "leak")
    saver.redact("r", ["leak"], "PII")
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        for s in (saver, fresh):
            msgs = build_graph(s).get_state(CONFIG).values["messages"]
            new = next(m for m in msgs if m.id == "leak")
            assert new.content == "[redacted: PII]"
            assert message_digest(new) != message_digest(old)
            assert len(msgs) == 9
    # Every historical checkpoint shows the tombstone too.
    for snap in graph.get_state_history(CONFIG):
        for m in snap.values.get("messages", []):
            assert SECRET not in str(m.content)
    # The thread keeps working after redaction.
    graph.invoke(turn_input(3), CONFIG)
    assert len(graph.get_state(CONFIG).values["messages"]) == 12


def test_redaction_scrubs_messages_inside_other_channel_blobs(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    config = {"configurable": {"thread_id": "blob", "checkpoint_ns": ""}}
    cp = empty_checkpoint()
    secret_msg = HumanMessage(f"copy {SECRET}", id="m1")
    cp["channel_values"] = {"archive": {"last": secret_msg, "n": 1}}
    cp["channel_versions"] = {"archive": 1}
    stored = saver.put(config, cp, {"source": "update", "step": 0}, {"archive": 1})
    saver.put_writes(stored, [("archive", {"last": secret_msg})], "task-1")
    assert SECRET.encode() in file_bytes(db_path)
    result = saver.redact("blob", ["m1"], "PII")
    assert result.values_rewritten == 2
    assert SECRET.encode() not in file_bytes(db_path)
    tup = saver.get_tuple(stored)
    assert tup is not None
    assert tup.checkpoint["channel_values"]["archive"]["last"].content == "[redacted: PII]"
    assert tup.checkpoint["channel_values"]["archive"]["n"] == 1
    assert tup.pending_writes and tup.pending_writes[0][2]["last"].id == "m1"


async def test_async_redaction(asaver: AsyncCompactSqliteSaver, db_path: Path) -> None:
    graph = build_graph(asaver)
    await graph.ainvoke({"messages": [HumanMessage(f"key {SECRET}", id="leak")]}, CONFIG)
    assert SECRET.encode() in file_bytes(db_path)
    await asaver.aredact("r", ["leak"], "PII", actor="bob")
    assert SECRET.encode() not in file_bytes(db_path)
    state = await graph.aget_state(CONFIG)
    assert state.values["messages"][0].content == "[redacted: PII]"


def test_redaction_scrubs_summaries_and_leaves_other_user_values_alone(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    graph = _thread_with_secret(saver)
    note = "Customer wants the deployment tomorrow; mod1 was read."
    summary = RunningSummary(
        sections={
            Section.CRITICAL: (
                SummaryItem(text=f"api key is {SECRET}", sources=("leak",)),
                SummaryItem(text=f"the token {SECRET} expires soon", sources=("human-2",)),
                SummaryItem(text="mod1 was read", sources=("human-0",)),
            )
        },
        head_end=1,
        covered_through=6,
        span_digest="abc",
    )
    graph.update_state(CONFIG, {"notes": note, "summary": summary})
    # The notes channel shares long words with the redacted message ("deployment").
    graph.update_state(CONFIG, {"messages": [HumanMessage("deployment tomorrow", id="leak")]})
    assert SECRET.encode() in file_bytes(db_path)
    saver.redact("r", ["leak"], "PII")
    assert SECRET.encode() not in file_bytes(db_path)
    values = graph.get_state(CONFIG).values
    assert values["notes"] == note  # user state is never rewritten
    scrubbed = values["summary"]
    assert [i.text for i in scrubbed.items(Section.CRITICAL)] == [
        "the token [redacted] expires soon",
        "mod1 was read",
    ]
    assert scrubbed.span_digest == "" and scrubbed.rebuilt_reason == "redacted"


def _two_identical_replies(saver: CompactSqliteSaver) -> Any:
    def bot(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("ok sure", id=f"ai{len(state['messages'])}")]}

    builder = StateGraph(MessagesState)
    builder.add_node("bot", bot)
    builder.add_edge(START, "bot")
    graph = builder.compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hello", id="u1")]}, CONFIG)
    graph.invoke({"messages": [HumanMessage("again", id="u2")]}, CONFIG)
    return graph


def test_redaction_changes_only_the_requested_ids(saver: CompactSqliteSaver, db_path: Path) -> None:
    graph = _two_identical_replies(saver)
    # An older stored version of ai1 (edited, then edited back) is redacted too.
    graph.update_state(CONFIG, {"messages": [AIMessage("ok sure v2", id="ai1")]})
    graph.update_state(CONFIG, {"messages": [AIMessage("ok sure", id="ai1")]})
    result = saver.redact("r", ["ai1"], "wrong")
    assert result.message_ids == ["ai1"]
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        for s in (saver, fresh):
            tup = s.get_tuple(CONFIG)
            assert tup is not None
            got = [(m.id, m.content) for m in tup.checkpoint["channel_values"]["messages"]]
            assert got == [
                ("u1", "hello"),
                ("ai1", "[redacted: wrong]"),
                ("u2", "again"),
                ("ai3", "ok sure"),
            ]
    assert b"ok sure v2" not in file_bytes(db_path)
    # The text index still finds the untouched reply, and only it.
    assert [i.message.id for i in saver.history("r", text="ok sure").items] == ["ai3"]
    assert [i.message.id for i in saver.history("r", text="redacted wrong").items] == ["ai1"]
    log = saver.conn.execute("SELECT message_id FROM lgc_redactions").fetchall()
    assert log == [("ai1",)]


def test_a_redaction_by_another_saver_is_seen_by_a_saver_that_cached_the_thread(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    graph = build_graph(saver)
    graph.invoke({"messages": [HumanMessage(f"my key is {SECRET}")]}, CONFIG)
    leak_id = graph.get_state(CONFIG).values["messages"][0].id  # cached by `saver` now
    with CompactSqliteSaver.from_conn_string(str(db_path)) as admin:
        admin.redact("r", [leak_id], "PII")
    assert graph.get_state(CONFIG).values["messages"][0].content == "[redacted: PII]"
    assert saver.get_message("r", leak_id).content == "[redacted: PII]"  # type: ignore[union-attr]
    graph.invoke(turn_input(1), CONFIG)  # continuing must not write the secret back
    assert SECRET.encode() not in file_bytes(db_path)
    with CompactSqliteSaver.from_conn_string(str(db_path)) as admin:
        admin.delete_thread("r")
    graph.invoke(turn_input(2), CONFIG)
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        msgs = build_graph(fresh).get_state(CONFIG).values["messages"]
    assert [m.id for m in msgs] == [m.id for m in graph.get_state(CONFIG).values["messages"]]
    assert len(msgs) == 3
