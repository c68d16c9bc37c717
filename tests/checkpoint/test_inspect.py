"""The inspection APIs: ``threads()``, ``redactions()`` and ``verify()`` on a healthy file."""

from __future__ import annotations

from agent_graph import build_graph, turn_input
from backends import Backend

from langgraph_compact.checkpoint import AsyncCompactSqliteSaver, ThreadInfo, VerifyReport


def _cfg(thread: str) -> dict[str, dict[str, str]]:
    return {"configurable": {"thread_id": thread}}


def test_threads_lists_counts_bytes_and_the_newest_checkpoint(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    for turn in range(4):
        graph.invoke(turn_input(turn), _cfg("a"))
    graph.invoke(turn_input(9), _cfg("b"))
    backend.saver.delete_thread("b")
    graph.invoke(turn_input(0), _cfg("c"))
    infos = backend.saver.threads()
    assert [t.thread_id for t in infos] == ["a", "c"]  # "b" was deleted
    a = infos[0]
    latest = graph.get_state(_cfg("a"))
    assert (a.checkpoints, a.messages) == (16, 12)
    assert a.last_checkpoint_id == latest.config["configurable"]["checkpoint_id"]
    assert a.last_checkpoint_ts == latest.created_at
    raw = sum(len(str(m.content).encode()) for m in latest.values["messages"])
    assert raw > 6_000 and raw / 4 < a.stored_bytes < 2 * raw
    assert infos[1].stored_bytes < a.stored_bytes


def test_verify_reports_a_healthy_file_and_counts_what_it_checked(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    for turn in range(3):
        graph.invoke(turn_input(turn), _cfg("a"))
    graph.invoke(turn_input(5), _cfg("b"))
    whole = backend.saver.verify()
    assert isinstance(whole, VerifyReport) and whole.ok and whole.problems == []
    # A tool output can also be stored id-less (its node's write, stored before
    # add_messages gave it an id): 12 messages are 12 to 16 rows.
    assert (whole.threads, whole.checkpoints, whole.writes) == (2, 16, 12)
    assert 12 <= whole.messages <= 16 and whole.texts == whole.messages and whole.values >= 16
    one = backend.saver.verify("a")
    assert one.ok and (one.threads, one.checkpoints) == (1, 12) and 9 <= one.messages <= 12


def test_redactions_lists_the_log_per_thread_and_for_all(backend: Backend) -> None:
    graph = build_graph(backend.saver)
    graph.invoke(turn_input(0), _cfg("a"))
    graph.invoke(turn_input(1), _cfg("b"))
    backend.saver.redact("a", ["human-0"], "PII", actor="alice")
    backend.saver.redact("b", ["ai-1"], "wrong", actor="bob")
    assert [(r.thread_id, r.message_id, r.actor) for r in backend.saver.redactions()] == [
        ("a", "human-0", "alice"),
        ("b", "ai-1", "bob"),
    ]
    only_b = backend.saver.redactions("b")
    assert [(r.message_id, r.reason) for r in only_b] == [("ai-1", "wrong")]
    assert only_b[0].redacted_at.endswith("+00:00")


async def test_async_inspection(asaver: AsyncCompactSqliteSaver) -> None:
    graph = build_graph(asaver)
    await graph.ainvoke(turn_input(0), _cfg("x"))
    infos = await asaver.athreads()
    assert [(t.thread_id, t.messages) for t in infos] == [("x", 3)]
    assert isinstance(infos[0], ThreadInfo)
    assert (await asaver.averify()).ok
    assert await asaver.aredactions() == []
