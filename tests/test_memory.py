"""Long-term memory: flushed per user from committed summaries, searchable, redactable.

Runs on LangGraph's ``InMemoryStore`` and on ``PostgresStore`` against the real server
(a fresh, uniquely named database per test, dropped afterwards).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langgraph_compact import CompactionNode, CompactionSettings, CompactState, TokenCounter
from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.errors import MemoryNamespaceError, SettingsError
from langgraph_compact.memory import (
    MemoryFlush,
    forget,
    forget_on_redact,
    make_memory_tool,
    namespace_for,
    search_memories,
)
from langgraph_compact.replay import budget_of

COUNTER = TokenCounter()
PG = "postgresql://postgres@127.0.0.1:5432/{db}"


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[BaseStore]:
    if request.param == "memory":
        yield InMemoryStore()
        return
    psycopg = pytest.importorskip("psycopg")
    from langgraph.store.postgres import PostgresStore

    name = f"lgc_memory_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG.format(db="postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with PostgresStore.from_conn_string(PG.format(db=name)) as pg:
            pg.setup()
            yield pg
    finally:
        with psycopg.connect(PG.format(db="postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _graph(saver: Any, store: BaseStore, memory: MemoryFlush | None = None) -> Any:
    def agent(state: Any) -> dict[str, Any]:
        n = len(state["messages"])
        return {"messages": [AIMessage(f"Working on step {n}. " + "details " * 300, id=f"ai-{n}")]}

    node = CompactionNode(budget_of(3_000), counter=COUNTER, memory=memory or MemoryFlush())
    builder = StateGraph(CompactState)
    builder.add_node("compact", node)
    builder.add_node("agent", agent)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_edge("agent", END)
    return builder.compile(checkpointer=saver, store=store)


def _cfg(thread: str, user: str) -> Any:
    return {"configurable": {"thread_id": thread, "user_id": user}}


def _talk(graph: Any, config: Any, turns: list[HumanMessage]) -> None:
    for turn in turns:
        graph.invoke({"messages": [turn]}, config)


TURNS = [
    HumanMessage("Please fix the flaky CSV importer in our billing service.", id="h0"),
    HumanMessage("I prefer tabs over spaces in every Python file.", id="pref"),
    HumanMessage("Never deploy to production on a Friday.", id="rule"),
    *(HumanMessage(f"Next, look at module number {i}.", id=f"h{i}") for i in range(1, 9)),
]


def test_flush_search_isolation_and_redaction(tmp_path: Path, store: BaseStore) -> None:
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "m.sqlite")) as saver:
        graph = _graph(saver, store)
        _talk(graph, _cfg("A", "u1"), TURNS)
        summary = graph.get_state(_cfg("A", "u1")).values["running_summary"]
        assert summary.covered_through > 4  # the preference and the rule are summarized
        flushed = search_memories(store, ("memories", "u1"), limit=100)
        texts = {i.value["text"]: i.value for i in flushed}
        assert "I prefer tabs over spaces in every Python file." in texts
        assert "Never deploy to production on a Friday." in texts
        pref = texts["I prefer tabs over spaces in every Python file."]
        assert pref["sources"] == ["pref"] and pref["thread_id"] == "A"
        assert pref["kind"] == "preference" and pref["section"] == "Constraints & Preferences"
        assert all(v["kind"] != "goal" for v in texts.values())
        # a later thread of the same user finds them; another user's thread does not
        tool = make_memory_tool()
        graph.invoke({"messages": [HumanMessage("hi", id="b0")]}, _cfg("B", "u1"))

        def ask(user: str, query: str) -> str:
            config = _cfg("B" if user == "u1" else "C", user)
            return str(tool.invoke({"query": query}, config=config))

        # the tool reads the graph's store: call it the way a tool node would, in a run
        tool_store = make_memory_tool(store)
        found = tool_store.invoke({"query": "tabs python"}, config=_cfg("B", "u1"))
        assert "I prefer tabs over spaces" in found.splitlines()[1]
        other = tool_store.invoke({"query": "tabs python"}, config=_cfg("C", "u2"))
        assert "No long-term memories" in other and "tabs" not in other.split("match")[0]
        assert search_memories(store, ("memories", "u2")) == []
        with pytest.raises(SettingsError):
            ask("u1", "tabs")  # outside a run there is no graph store to fall back on
        # redaction in the saver removes the items derived from the redacted message: a
        # plain saver.redact does, once the saver forgets on redact
        deleted: list[int] = []
        remove = saver.on_redact(lambda r: deleted.append(forget(store, r.message_ids)))
        result = saver.redact("A", ["pref"], "privacy")
        remove()
        assert result.message_ids == ["pref"] and deleted == [1]
        left = {i.value["text"] for i in search_memories(store, ("memories", "u1"), limit=100)}
        assert "I prefer tabs over spaces in every Python file." not in left
        assert "Never deploy to production on a Friday." in left
        # the rebuilt summary does not bring it back
        graph.invoke({"messages": [HumanMessage("continue", id="h99")]}, _cfg("A", "u1"))
        again = {i.value["text"] for i in search_memories(store, ("memories", "u1"), limit=100)}
        assert not any("tabs" in t for t in again)


def test_only_new_items_are_written_and_superseded_values_overwrite() -> None:
    store = InMemoryStore()
    flush = MemoryFlush(store=store)
    from langgraph_compact.compaction import RunningSummary, Section, SummaryItem

    def summary(value: str, generation: int) -> RunningSummary:
        items = (
            SummaryItem(
                text=f"Deadline is {value}",
                key="fact:deadline",
                kind="correction",
                pinned=True,
                sources=(value,),
            ),
            SummaryItem(text="Use ruff", key="d:ruff", kind="decision", sources=("m2",)),
            SummaryItem(text="port 8080", key="fact:port", kind="fact", sources=("m3",)),
        )
        return RunningSummary(
            sections={Section.CRITICAL: items}, head_end=1, covered_through=5, generation=generation
        )

    config: Any = _cfg("T", "u")
    first = summary("Monday", 1)
    assert flush.flush(store, first, None, config) == 2  # the fact is not a stable kind
    assert flush.flush(store, first, first, config) == 0  # nothing new
    assert flush.flush(store, summary("Tuesday", 2), first, config) == 1
    texts = sorted(i.value["text"] for i in store.search(("memories", "u"), limit=50))
    assert texts == ["Deadline is Tuesday", "Use ruff"]
    assert forget(store, ["Tuesday"]) == 1 and forget(store, ["nothing"]) == 0


def test_namespace_needs_the_user_id() -> None:
    assert namespace_for(("memories", "{user_id}"), _cfg("t", "u7")) == ("memories", "u7")
    assert namespace_for(
        ("org", "{org}", "{user_id}"), {"configurable": {"org": "o", "user_id": "u"}}
    ) == ("org", "o", "u")
    with pytest.raises(MemoryNamespaceError, match="'user_id'"):
        namespace_for(("memories", "{user_id}"), {"configurable": {"thread_id": "t"}})


class _BrokenStore(InMemoryStore):
    def batch(self, ops: Any) -> Any:
        raise OSError("store is down")


def test_a_failing_store_is_logged_and_the_run_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = _BrokenStore()
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "b.sqlite")) as saver:
        graph = _graph(saver, store)
        with caplog.at_level(logging.WARNING, logger="langgraph_compact"):
            _talk(graph, _cfg("A", "u1"), TURNS)
        messages: list[BaseMessage] = graph.get_state(_cfg("A", "u1")).values["messages"]
    assert [m.id for m in messages if isinstance(m, HumanMessage)] == [t.id for t in TURNS]
    assert any("memory flush of thread 'A' failed" in r.getMessage() for r in caplog.records)


def test_memory_is_off_by_default() -> None:
    node = CompactionNode(CompactionSettings(budget_of(3_000), counter=COUNTER))
    assert node.memory is None


def test_items_a_child_read_from_its_handoff_keep_the_parents_sources() -> None:
    from langgraph_compact.compaction import RunningSummary, Section, SummaryItem
    from langgraph_compact.handoff import build_handoff

    rule = SummaryItem(
        text="Never deploy on a Friday.", kind="safety", pinned=True, sources=("p-7",)
    )
    parent = RunningSummary(sections={Section.CONSTRAINTS: (rule,)}, head_end=1, covered_through=9)
    handoff = build_handoff(parent, None, parent_thread_id="P", rotation=1, reason="r")
    read_back = rule.model_copy(update={"sources": (handoff.id,)})
    other = SummaryItem(
        text="I prefer short answers.", kind="preference", pinned=True, sources=(handoff.id, "c-2")
    )
    child = RunningSummary(
        sections={Section.CONSTRAINTS: (read_back, other)}, head_end=1, covered_through=3
    )
    records = dict(
        (v["text"], v["sources"]) for _, v in MemoryFlush().records(child, None, "P~1", [handoff])
    )
    assert records["Never deploy on a Friday."] == ["p-7"]
    # not in the hand-off's table: every parent source it lists, plus its own
    assert records["I prefer short answers."] == ["c-2", "p-7"]


async def test_the_async_node_flushes_too(tmp_path: Path) -> None:
    from langgraph_compact.checkpoint import AsyncCompactSqliteSaver

    store = InMemoryStore()
    async with AsyncCompactSqliteSaver.from_conn_string(tmp_path / "a.sqlite") as saver:
        graph = _graph(saver, store)
        for turn in TURNS:
            await graph.ainvoke({"messages": [turn]}, _cfg("A", "u1"))
    texts = {i.value["text"] for i in store.search(("memories", "u1"), limit=100)}
    assert "Never deploy to production on a Friday." in texts
    assert forget(store, ["rule"]) == 1


def test_forget_on_redact_makes_a_plain_redaction_forget(tmp_path: Path) -> None:
    store = InMemoryStore()
    for key, source in (("a", "m1"), ("b", "m2")):
        store.put(("memories", "u"), key, {"text": key, "sources": [source]})
    with CompactSqliteSaver.from_conn_string(str(tmp_path / "f.sqlite")) as saver:
        graph = _graph(saver, store)
        _talk(graph, _cfg("T", "u"), [HumanMessage("hello", id="m1"), HumanMessage("yes", id="m2")])
        undo = forget_on_redact(saver, store)
        saver.redact("T", ["m1"], "privacy")
        assert {i.key for i in store.search(("memories", "u"))} == {"b"}
        undo()
        saver.redact("T", ["m2"], "privacy")  # no longer attached: the memory stays
        assert {i.key for i in store.search(("memories", "u"))} == {"b"}
