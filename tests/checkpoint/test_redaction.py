"""Redaction: the content leaves every decoded cell, the index, the file and the WAL; the
log records it; a concurrent reader makes the result say bytes remain."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from agent_graph import build_graph, turn_input
from backends import SQLITE_BACKENDS, Backend
from cells import occurrences
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, CompactSaverBase
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.messages import message_digest

SECRET = "SECRET-TOKEN-4242-xyzzy"
CONFIG: dict[str, Any] = {"configurable": {"thread_id": "r"}}

# One distinctive word per place a secret can hide (single words: the index stores words).
PLACES = {
    "content": "zqcontentsecret",
    "args": "zqargumentsecret",
    "kwargs": "zqproviderrawsecret",
    "metadata": "zqlogprobsecret",
    "invalid": "zqinvalidargsecret",
    "artifact": "zqartifactsecret",
    "output": "zqtooloutputsecret",
}


def _thread_with_secret(saver: CompactSaverBase) -> Any:
    graph = build_graph(saver)
    graph.invoke(turn_input(0), CONFIG)
    leak = HumanMessage(f"my api key is {SECRET}", id="leak")
    graph.invoke({"messages": [leak]}, CONFIG)
    graph.invoke(turn_input(2), CONFIG)
    return graph


def _secret_everywhere_graph(saver: CompactSaverBase) -> Any:
    """A graph whose model puts a secret in every field a message has."""
    p = PLACES

    def model(state: MessagesState) -> dict[str, Any]:
        if state["messages"][-1].type == "tool":
            return {"messages": [AIMessage("done", id="final")]}
        call = {"id": "c1", "name": "login", "args": {"password": p["args"], "user": "bob"}}
        raw = {"tool_calls": [{"function": {"arguments": f'{{"password": "{p["kwargs"]}"}}'}}]}
        bad = {"name": "login", "args": f"{{{p['invalid']}", "id": "c2", "error": "bad json"}
        ai = AIMessage(
            f"logging in {p['content']}",
            id="ai-secret",
            tool_calls=[call],
            invalid_tool_calls=[bad],
            additional_kwargs=raw,
            response_metadata={"logprobs": {"tokens": [p["metadata"]]}},
        )
        return {"messages": [ai]}

    def tool(state: MessagesState) -> dict[str, Any]:
        out = ToolMessage(
            f"session {p['output']}",
            tool_call_id="c1",
            name="login",
            id="tool-secret",
            artifact={"cookie": p["artifact"]},
        )
        return {"messages": [out]}

    builder = StateGraph(MessagesState)
    builder.add_node("model", model)
    builder.add_node("tool", tool)
    builder.add_edge(START, "model")
    builder.add_conditional_edges(
        "model", lambda s: "tool" if s["messages"][-1].tool_calls else "__end__"
    )
    builder.add_edge("tool", "model")
    return builder.compile(checkpointer=saver)


def test_a_secret_in_every_field_leaves_every_decoded_cell_the_file_and_the_wal(
    backend: Backend,
) -> None:
    graph = _secret_everywhere_graph(backend.saver)
    graph.invoke({"messages": [HumanMessage("log in please", id="h1")]}, CONFIG)
    for word in PLACES.values():
        assert occurrences(backend.rows(), word), f"{word} was never stored: the test is void"
    summary = RunningSummary(
        sections={
            Section.CRITICAL: (
                SummaryItem(text=f"password is {PLACES['args']}", sources=("ai-secret",)),
                SummaryItem(text="bob logged in", sources=("h1",)),
            )
        },
        head_end=1,
        covered_through=3,
        span_digest="abc",
    )
    summary_graph = build_graph(backend.saver)
    summary_graph.update_state(CONFIG, {"summary": summary})

    result = backend.saver.redact("r", ["ai-secret", "tool-secret"], "credentials", actor="t")
    assert result.message_ids == ["ai-secret", "tool-secret"] and result.complete
    assert result.remaining_bytes == 0 and result.also_in_threads == []
    for place, word in PLACES.items():
        assert occurrences(backend.rows(), word) == [], place
        assert word.encode() not in backend.file_bytes(), place
    msgs = {m.id: m for m in graph.get_state(CONFIG).values["messages"]}
    ai, tool = msgs["ai-secret"], msgs["tool-secret"]
    assert ai.content == tool.content == "[redacted: credentials]"
    assert ai.tool_calls == [{"name": "login", "args": {}, "id": "c1", "type": "tool_call"}]
    assert ai.additional_kwargs == {} and ai.response_metadata == {}
    assert tool.artifact is None and tool.tool_call_id == "c1"
    kept = summary_graph.get_state(CONFIG).values["summary"]
    assert [i.text for i in kept.items(Section.CRITICAL)] == ["bob logged in"]
    assert backend.saver.verify().ok
    log = backend.saver.redactions("r")
    assert [(r.message_id, r.reason, r.actor) for r in log] == [
        ("ai-secret", "credentials", "t"),
        ("tool-secret", "credentials", "t"),
    ]


def test_redaction_removes_secret_bytes_from_the_file(backend: Backend) -> None:
    graph = _thread_with_secret(backend.saver)
    before = graph.get_state(CONFIG).values["messages"]
    assert any(SECRET in str(m.content) for m in before if m.id == "leak")
    assert SECRET.encode() in backend.file_bytes()
    assert len(backend.saver.history("r", text=SECRET).items) == 1

    result = backend.saver.redact("r", ["leak"], "leaked credential", actor="alice")
    assert result.message_ids == ["leak"] and result.message_rows >= 1 and result.complete

    assert SECRET.encode() not in backend.file_bytes()
    assert occurrences(backend.rows(), "xyzzy") == []
    assert backend.saver.history("r", text="xyzzy").items == []
    assert [(r.message_id, r.reason, r.actor) for r in backend.saver.redactions()] == [
        ("leak", "leaked credential", "alice")
    ]


def test_state_after_redaction_has_tombstone_with_same_id(backend: Backend) -> None:
    graph = _thread_with_secret(backend.saver)
    old = next(m for m in graph.get_state(CONFIG).values["messages"] if m.id == "leak")
    backend.saver.redact("r", ["leak"], "PII")
    with backend.reopen() as fresh:
        for s in (backend.saver, fresh):
            msgs = build_graph(s).get_state(CONFIG).values["messages"]
            new = next(m for m in msgs if m.id == "leak")
            assert new.content == "[redacted: PII]"
            assert message_digest(new) != message_digest(old)
            assert len(msgs) == 9
    for snap in graph.get_state_history(CONFIG):  # every historical checkpoint too
        for m in snap.values.get("messages", []):
            assert SECRET not in str(m.content)
    graph.invoke(turn_input(3), CONFIG)  # the thread keeps working after redaction
    assert len(graph.get_state(CONFIG).values["messages"]) == 12


def test_redaction_scrubs_messages_inside_other_channel_values(backend: Backend) -> None:
    saver = backend.saver
    config = {"configurable": {"thread_id": "blob", "checkpoint_ns": ""}}
    cp = empty_checkpoint()
    secret_msg = HumanMessage(f"copy {SECRET} and more words to be a value row", id="m1")
    cp["channel_values"] = {"archive": {"last": secret_msg, "n": 1}}
    cp["channel_versions"] = {"archive": 1}
    stored = saver.put(config, cp, {"source": "update", "step": 0}, {"archive": 1})
    saver.put_writes(stored, [("archive", {"last": secret_msg})], "task-1")
    assert SECRET.encode() in backend.file_bytes()
    result = saver.redact("blob", ["m1"], "PII")
    assert result.values_rewritten == 2
    assert SECRET.encode() not in backend.file_bytes()
    assert occurrences(backend.rows(), "xyzzy") == []
    tup = saver.get_tuple(stored)
    assert tup is not None
    assert tup.checkpoint["channel_values"]["archive"]["last"].content == "[redacted: PII]"
    assert tup.checkpoint["channel_values"]["archive"]["n"] == 1
    assert tup.pending_writes and tup.pending_writes[0][2]["last"].id == "m1"


def test_redaction_scrubs_summaries_and_leaves_other_user_values_alone(backend: Backend) -> None:
    graph = _thread_with_secret(backend.saver)
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
    assert SECRET.encode() in backend.file_bytes()
    backend.saver.redact("r", ["leak"], "PII")
    assert SECRET.encode() not in backend.file_bytes()
    values = graph.get_state(CONFIG).values
    assert values["notes"] == note  # user state is never rewritten
    scrubbed = values["summary"]
    assert [i.text for i in scrubbed.items(Section.CRITICAL)] == [
        "the token [redacted] expires soon",
        "mod1 was read",
    ]
    assert scrubbed.span_digest == "" and scrubbed.rebuilt_reason == "redacted"


def _two_identical_replies(saver: CompactSaverBase) -> Any:
    def bot(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("ok sure", id=f"ai{len(state['messages'])}")]}

    builder = StateGraph(MessagesState)
    builder.add_node("bot", bot)
    builder.add_edge(START, "bot")
    graph = builder.compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hello", id="u1")]}, CONFIG)
    graph.invoke({"messages": [HumanMessage("again", id="u2")]}, CONFIG)
    return graph


def test_redaction_changes_only_the_requested_ids(backend: Backend) -> None:
    graph = _two_identical_replies(backend.saver)
    # An older stored version of ai1 (edited, then edited back) is redacted too.
    graph.update_state(CONFIG, {"messages": [AIMessage("ok sure v2", id="ai1")]})
    graph.update_state(CONFIG, {"messages": [AIMessage("ok sure", id="ai1")]})
    result = backend.saver.redact("r", ["ai1"], "wrong")
    assert result.message_ids == ["ai1"]
    with backend.reopen() as fresh:
        for s in (backend.saver, fresh):
            tup = s.get_tuple(CONFIG)
            assert tup is not None
            got = [(m.id, m.content) for m in tup.checkpoint["channel_values"]["messages"]]
            assert got == [
                ("u1", "hello"),
                ("ai1", "[redacted: wrong]"),
                ("u2", "again"),
                ("ai3", "ok sure"),
            ]
    assert b"ok sure v2" not in backend.file_bytes()
    # The text index still finds the untouched reply, and only it.
    assert [i.message.id for i in backend.saver.history("r", text="ok sure").items] == ["ai3"]
    hits = backend.saver.history("r", text="redacted wrong").items
    assert [i.message.id for i in hits] == ["ai1"]
    assert [r.message_id for r in backend.saver.redactions("r")] == ["ai1"]


def test_a_redaction_by_another_saver_is_seen_by_a_saver_that_cached_the_thread(
    backend: Backend,
) -> None:
    graph = build_graph(backend.saver)
    graph.invoke({"messages": [HumanMessage(f"my key is {SECRET}")]}, CONFIG)
    leak_id = graph.get_state(CONFIG).values["messages"][0].id  # cached by the saver now
    with backend.reopen() as admin:
        admin.redact("r", [leak_id], "PII")
    assert graph.get_state(CONFIG).values["messages"][0].content == "[redacted: PII]"
    got = backend.saver.get_message("r", leak_id)
    assert got is not None and got.content == "[redacted: PII]"
    graph.invoke(turn_input(1), CONFIG)  # continuing must not write the secret back
    assert SECRET.encode() not in backend.file_bytes()
    with backend.reopen() as admin:
        admin.delete_thread("r")
    graph.invoke(turn_input(2), CONFIG)
    with backend.reopen() as fresh:
        msgs = build_graph(fresh).get_state(CONFIG).values["messages"]
    assert [m.id for m in msgs] == [m.id for m in graph.get_state(CONFIG).values["messages"]]
    assert len(msgs) == 3


@pytest.mark.backends(*SQLITE_BACKENDS)  # SQLite's WAL: Postgres readers keep no log alive
def test_a_concurrent_reader_makes_the_result_say_bytes_remain(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    _thread_with_secret(backend.saver)
    reader = sqlite3.connect(backend.path, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT COUNT(*) FROM lgc_messages").fetchone()[0] > 0
    with caplog.at_level(logging.WARNING, logger="langgraph_compact.checkpoint.redact"):
        result = backend.saver.redact("r", ["leak"], "PII")
    assert not result.complete and result.remaining_bytes > 0
    assert result.message_ids == ["leak"]
    assert "finish_redaction" in caplog.text and "read transaction" in caplog.text
    assert SECRET.encode() in backend.file_bytes()  # the old pages are still in the WAL
    reader.execute("COMMIT")
    reader.close()
    assert backend.saver.finish_redaction() == 0
    assert SECRET.encode() not in backend.file_bytes()


def test_copies_in_another_thread_are_reported(backend: Backend) -> None:
    _thread_with_secret(backend.saver)
    backend.saver.copy_thread("r", "r-copy")
    result = backend.saver.redact("r", ["leak"], "PII")
    assert result.also_in_threads == ["r-copy"] and not result.complete
    assert backend.saver.redact("r-copy", ["leak"], "PII").complete
    assert SECRET.encode() not in backend.file_bytes()


def test_a_writer_keeps_working_while_another_saver_redacts(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    for turn in range(60):
        graph.invoke(turn_input(turn), {"configurable": {"thread_id": f"w{turn % 6}"}})
    _thread_with_secret(backend.saver)
    errors: list[BaseException] = []
    done = threading.Event()

    def write() -> None:
        try:
            with backend.reopen() as other:
                g = build_graph(other)
                turn = 100
                while not done.is_set():
                    g.invoke(turn_input(turn), {"configurable": {"thread_id": "writer"}})
                    turn += 1
        except BaseException as e:  # a failed write is what this test looks for
            errors.append(e)

    worker = threading.Thread(target=write)
    worker.start()
    time.sleep(0.2)
    for _ in range(5):
        backend.saver.redact("r", ["leak"], "PII")
    done.set()
    worker.join()
    assert errors == []
    assert backend.saver.history("writer").total >= 3


async def test_async_redaction(asaver: AsyncCompactSqliteSaver) -> None:
    graph = build_graph(asaver)
    await graph.ainvoke({"messages": [HumanMessage(f"key {SECRET}", id="leak")]}, CONFIG)
    result = await asaver.aredact("r", ["leak"], "PII", actor="bob")
    assert result.complete
    state = await graph.aget_state(CONFIG)
    assert state.values["messages"][0].content == "[redacted: PII]"
    assert [r.actor for r in await asaver.aredactions("r")] == ["bob"]
    assert await asaver.afinish_redaction() == 0


def test_redaction_listeners_run_after_each_redaction_and_can_be_removed(
    backend: Backend,
) -> None:
    _thread_with_secret(backend.saver)
    seen: list[list[str]] = []
    remove = backend.saver.on_redact(lambda result: seen.append(result.message_ids))
    backend.saver.redact("r", ["leak"], "PII")
    assert seen == [["leak"]]
    remove()
    backend.saver.redact("r", ["leak"], "again")
    assert seen == [["leak"]]


async def test_async_redaction_awaits_async_listeners(tmp_path: Path) -> None:
    async with AsyncCompactSqliteSaver.from_conn_string(tmp_path / "a.sqlite") as saver:
        graph = build_graph(saver)
        await graph.ainvoke(turn_input(0), CONFIG)
        seen: list[str] = []

        async def listener(result: Any) -> None:
            seen.extend(result.message_ids)

        saver.on_redact(listener)
        first = (await graph.aget_state(CONFIG)).values["messages"][0].id
        await saver.aredact("r", [first], "PII")
        assert seen == [first]
