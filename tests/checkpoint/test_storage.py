"""Storage layout: each message once, Fenwick-linked ref lists, packed writes, inline values,
encryption, prune/copy/delete, on every backend."""

from __future__ import annotations

import base64
import hashlib
import math
import random
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, TypedDict

import pytest
from agent_graph import build_graph, state_json, turn_input
from backends import Backend
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.channels import DeltaChannel
from langgraph.checkpoint.base import copy_checkpoint
from langgraph.checkpoint.base.id import uuid6
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
from langgraph.graph import START, MessagesState, StateGraph, add_messages

from langgraph_compact.checkpoint import CompactSaverBase, CompactSqliteSaver
from langgraph_compact.checkpoint._check import Where
from langgraph_compact.checkpoint._codec import decode_writes, unkey, unpack_text
from langgraph_compact.checkpoint._fts import text_words, word_filter
from langgraph_compact.checkpoint._refs import decode_link
from langgraph_compact.checkpoint._writes import folded_entries
from langgraph_compact.errors import CompactError, SaverArgumentError


def _cfg(thread: str, **extra: Any) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread, **extra}}


def _run(saver: CompactSaverBase, thread: str, turns: range, **extra: Any) -> Any:
    graph = build_graph(saver)
    for turn in turns:
        graph.invoke(turn_input(turn), _cfg(thread, **extra))
    return graph


def _links(backend: Backend, tid: int) -> list[tuple[Any, bytes, Any]]:
    """Every ref-list link of a thread as ``(where, value, base)``: folded into checkpoint
    rows (by checkpoint id) and ``lgc_blobs`` ref rows (by version)."""
    folded = backend.query(
        "SELECT checkpoint_id, link, link_base FROM lgc_checkpoints "
        "WHERE tid = ? AND link IS NOT NULL",
        tid,
    )
    rows = backend.query(
        "SELECT version, blob, base_version FROM lgc_blobs WHERE tid = ? AND type = 'lgc.refs'",
        tid,
    )
    return [(c, bytes(v)[:-8], b and str(uuid.UUID(bytes=bytes(b)))) for c, v, b in folded] + [
        (v, bytes(b), x) for v, b, x in rows
    ]


def _write_entries(backend: Backend) -> list[tuple[str, bytes, bytes]]:
    """``(checkpoint id, task key, packed writes)`` of every pending-writes entry: the
    ``lgc_writes`` rows and the entries folded into checkpoint rows."""
    sql = "SELECT checkpoint_id, task_id, writes FROM lgc_writes"
    out = [(unkey(bytes(c)), bytes(t), bytes(w)) for c, t, w in backend.query(sql)]
    sql = "SELECT checkpoint_id, writes FROM lgc_checkpoints WHERE writes IS NOT NULL"
    for cid, raw in backend.query(sql):
        out += [(cid, t, w) for t, w, _ in folded_entries(bytes(raw), Where(""))]
    return out


def test_each_message_content_is_stored_once(backend: Backend) -> None:
    _run(backend.saver, "once", range(20))
    tid = backend.tid("once")
    # 60 messages; ToolMessages also appear id-less in their node's pending writes,
    # which share the text row (one text per distinct content).
    assert backend.scalar("SELECT COUNT(*) FROM lgc_texts WHERE tid = ?", tid) == 60
    named = "SELECT COUNT(*) FROM lgc_messages WHERE tid = ? AND length(message_id) > 0"
    assert backend.scalar(named, tid) == 60
    # No value or write holds message content: message lists are refs, writes refs too.
    # An append-only thread's links are all folded into their checkpoint rows.
    assert backend.query("SELECT type FROM lgc_blobs WHERE channel = 'messages'") == []
    assert len(_links(backend, tid)) == 60  # a new list version per step: input, agent, tools
    writes = [decode_writes(b)[1] for _, _, b in _write_entries(backend)]
    assert len(writes) == 60  # __start__, agent, tools a turn
    kinds = {t for entries in writes for _, c, t, _ in entries if c == "messages"}
    assert kinds <= {"lgc.msgs", "msgpack"}  # refs, or the empty input list
    assert all(len(v) < 16 for entries in writes for _, _, _, v in entries)


def test_ref_lists_are_fenwick_linked_with_log_depth_and_n_log_n_size(backend: Backend) -> None:
    _run(backend.saver, "refs", range(80))
    rows = _links(backend, backend.tid("refs"))
    base_of = {v: b for v, _, b in rows}
    links = {v: decode_link(blob) for v, blob, _ in rows}
    n_versions, n_messages = len(rows), 240

    def depth(version: str) -> int:
        d = 0
        while base_of[version] is not None:
            version, d = base_of[version], d + 1
        return d

    assert max(depth(v) for v in base_of) <= math.log2(n_versions) + 2
    stored = sum(len(tail) for _, _, tail in links.values())
    assert stored <= 3 * n_messages * math.log2(n_messages)  # O(n log n) numbers ...
    full = sum(keep + len(tail) for _, keep, tail in links.values())
    assert stored * 8 < full  # ... far from the O(n^2) of one list per version
    assert all(base is None or base in base_of for base in base_of.values())


def test_fresh_process_reads_the_same_state(backend: Backend) -> None:
    graph = _run(backend.saver, "fresh", range(12))
    with backend.reopen() as fresh:
        assert state_json(build_graph(fresh), _cfg("fresh")) == state_json(graph, _cfg("fresh"))
        history = list(build_graph(fresh).get_state_history(_cfg("fresh")))
        _run(fresh, "fresh", range(12, 14))  # continues from the loaded chain
    assert len(history) == 12 * 4
    assert len(graph.get_state(_cfg("fresh")).values["messages"]) == 42


def test_a_task_writes_one_row_and_small_values_stay_in_the_checkpoint(
    backend: Backend,
) -> None:
    _run(backend.saver, "rows", range(10))
    tid = backend.tid("rows")
    entries = _write_entries(backend)
    assert len(entries) == len({(c, t) for c, t, _ in entries}) == 30  # one a task a step
    # Every entry ends in its checkpoint's row (writes stored first move in with it).
    assert backend.scalar("SELECT COUNT(*) FROM lgc_writes WHERE tid = ?", tid) == 0
    tasks = [(len(entries),)]
    # The trigger channels (branch:to:agent, value None) never get a value row.
    assert backend.scalar("SELECT COUNT(*) FROM lgc_blobs WHERE channel LIKE 'branch:%'") == 0
    assert (
        backend.scalar("SELECT SUM(task_count) FROM lgc_checkpoints WHERE tid = ?", tid)
        == tasks[0][0]
    )


def test_search_finds_exactly_the_texts_holding_every_word_of_the_query(
    backend: Backend,
) -> None:
    # Few words, many texts: most texts hold some of a query's words and a word filter
    # passes many that lack one, which the text check must then drop.
    rng = random.Random(11)
    vocab = ["alpha", "Beta", "GAMMA", "delta", "v2", "42", "x_y", "mod1.py", "a-b", "привет"]
    vocab += ["ПРИВЕТ", "中文", "Δ", "eps"]
    texts = [" ".join(rng.choices(vocab, k=rng.randint(1, 6))) for _ in range(40)]
    builder = StateGraph(MessagesState)
    builder.add_node("bot", lambda s: None)
    builder.add_edge(START, "bot")
    graph = builder.compile(checkpointer=backend.saver)
    for i, text in enumerate(texts):
        graph.invoke({"messages": [HumanMessage(text, id=f"h{i}")]}, _cfg("q"))

    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[^\W_]+", text)}

    for _ in range(60):
        query = " ".join(rng.sample(vocab, rng.randint(1, 3)))
        want = [f"h{i}" for i, t in enumerate(texts) if words(t) >= words(query)]
        got = [item.message.id for item in backend.saver.history("q", text=query).items]
        assert got == want, query


def test_blob_words_stay_out_of_the_index_and_are_still_found(backend: Backend) -> None:
    rng = random.Random(7)
    blob = base64.b64encode(rng.randbytes(600)).decode()
    digest = hashlib.sha1(b"x").hexdigest()
    builder = StateGraph(MessagesState)
    builder.add_node("bot", lambda s: {"messages": [AIMessage(f"commit {digest}", id="a1")]})
    builder.add_edge(START, "bot")
    graph = builder.compile(checkpointer=backend.saver)
    graph.invoke({"messages": [HumanMessage(f"attachment {blob} end", id="h1")]}, _cfg("b"))
    if backend.postgres:  # each text row holds the filter of exactly its text's words
        rows = [
            (unpack_text(bytes(t)), w)
            for t, w in backend.query("SELECT text, words FROM lgc_texts")
        ]
        assert all(bytes(w) == word_filter(text) for text, w in rows)
        terms = set().union(*(text_words(text) for text, _ in rows))
    else:
        terms = {t for (t,) in backend.query_vocabulary()}
    token = max(re.findall(r"[A-Za-z0-9]+", blob), key=len)
    assert token.lower() not in terms and digest not in terms
    assert {"attachment", "end", "commit"} <= terms and len(terms) == 3
    assert [i.message.id for i in backend.saver.history("b", text=token).items] == ["h1"]
    assert [i.message.id for i in backend.saver.history("b", text=f"commit {digest}").items] == [
        "a1"
    ]
    assert backend.saver.history("b", text=digest[:-1] + "0").items == []


class _XorStreamCipher:
    """A keyed stream cipher (SHAKE-256 keystream, random nonce) for the serde protocol."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def _stream(self, nonce: bytes, n: int) -> bytes:
        return hashlib.shake_256(self.key + nonce).digest(n)

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
        nonce = uuid.uuid4().bytes
        ks = self._stream(nonce, len(plaintext))
        return "xor", nonce + bytes(a ^ b for a, b in zip(plaintext, ks, strict=True))

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
        if ciphername != "xor":
            raise ValueError(ciphername)
        nonce, body = ciphertext[:16], ciphertext[16:]
        return bytes(a ^ b for a, b in zip(body, self._stream(nonce, len(body)), strict=True))


def test_encrypted_serializer_keeps_message_text_out_of_the_file(backend: Backend) -> None:
    serde = EncryptedSerializer(_XorStreamCipher(b"k" * 32))
    with backend.reopen(serde=serde) as saver:
        graph = _run(saver, "enc", range(4))
        state = graph.get_state(_cfg("enc")).values["messages"]
        assert len(state) == 12 and "src/mod3.py:39" in str(state[-1].content)
        with pytest.raises(CompactError, match="index_text"):
            saver.history("enc", text="mod3")
        assert [i.index for i in saver.history("enc", role="tool").items] == [2, 5, 8, 11]
        expected = state_json(graph, _cfg("enc"))
        assert saver.verify("enc").ok
    raw = backend.file_bytes()
    assert b"line 39 of src/mod3.py" not in raw and b"please read module" not in raw
    with backend.reopen(serde=serde) as again:
        assert state_json(build_graph(again), _cfg("enc")) == expected


def test_prune_keep_latest_keeps_state_and_every_message(backend: Backend) -> None:
    graph = _run(backend.saver, "p", range(40))
    before = state_json(graph, _cfg("p"))
    backend.saver.prune(["p"], strategy="keep_latest")
    assert len(list(backend.saver.list(_cfg("p")))) == 1
    with backend.reopen() as fresh:
        assert state_json(build_graph(fresh), _cfg("p")) == before
        assert fresh.history("p", limit=500).total == 120
        assert fresh.verify("p").ok
    links = _links(backend, backend.tid("p"))
    assert [(len(decode_link(v)[2]), b) for _, v, b in links] == [(120, None)]  # one snapshot
    _run(backend.saver, "p", range(40, 42))
    assert len(graph.get_state(_cfg("p")).values["messages"]) == 126


def test_delete_for_runs_keeps_later_runs_readable(backend: Backend) -> None:
    run1, run2 = str(uuid.uuid4()), str(uuid.uuid4())
    _run(backend.saver, "d", range(0, 20), run_id=run1)
    graph = _run(backend.saver, "d", range(20, 25), run_id=run2)
    before = state_json(graph, _cfg("d"))
    backend.saver.delete_for_runs([run1])
    listed = list(backend.saver.list(_cfg("d")))
    assert {t.metadata.get("run_id") for t in listed} == {run2}
    assert listed[-1].parent_config is None  # its parent was run1's: now a root
    with backend.reopen() as fresh:
        assert state_json(build_graph(fresh), _cfg("d")) == before
        assert fresh.verify("d").ok


def test_copy_thread_copies_messages_and_index(backend: Backend) -> None:
    graph = _run(backend.saver, "src", range(5))
    backend.saver.copy_thread("src", "dst")
    assert state_json(graph, _cfg("dst")) == state_json(graph, _cfg("src"))
    assert [i.index for i in backend.saver.history("dst", text="mod4.py line 2").items] == [14]
    with pytest.raises(CompactError, match="already has messages"):
        backend.saver.copy_thread("src", "dst")
    _run(backend.saver, "dst", range(5, 6))
    assert len(graph.get_state(_cfg("src")).values["messages"]) == 15
    assert backend.saver.verify().ok


def test_copy_thread_refuses_a_target_left_with_checkpoint_rows(backend: Backend) -> None:
    """Checkpoint rows of the target without its head or messages (a delete cut short by
    hand, say) make the copy refuse, naming the target, not fail on a key conflict."""
    _run(backend.saver, "src", range(2))
    _run(backend.saver, "dst", range(2))
    dst = backend.tid("dst")
    for table in ("lgc_heads", "lgc_messages"):
        backend.execute(f"DELETE FROM {table} WHERE tid = ?", dst)
    with backend.reopen() as fresh, pytest.raises(CompactError, match="'dst' already has"):
        fresh.copy_thread("src", "dst")


def test_delete_thread_removes_rows_and_index(backend: Backend) -> None:
    _run(backend.saver, "gone", range(3))
    _run(backend.saver, "kept", range(3))
    gone = backend.tid("gone")
    backend.saver.delete_thread("gone")
    for table in ("lgc_heads", "lgc_checkpoints", "lgc_blobs", "lgc_writes", "lgc_messages"):
        assert backend.scalar(f"SELECT COUNT(*) FROM {table} WHERE tid = ?", gone) == 0
    assert backend.saver.history("gone").items == []
    assert len(backend.saver.history("kept", text="mod1.py").items) == 1
    if backend.postgres:  # the word filters went with the thread's text rows
        assert backend.scalar("SELECT COUNT(*) FROM lgc_texts WHERE tid = ?", gone) == 0
    else:  # the contentless FTS index lost exactly the deleted thread's documents
        fts = "SELECT COUNT(*) FROM lgc_text_fts WHERE lgc_text_fts MATCH 'mod1'"
        assert backend.scalar(fts) == 2  # "reading mod1" and its tool output, in "kept" only
    _run(backend.saver, "gone", range(2))  # the id can be used again, from scratch
    assert len(build_graph(backend.saver).get_state(_cfg("gone")).values["messages"]) == 6


def test_prune_rejects_an_unknown_strategy(backend: Backend) -> None:
    with pytest.raises(SaverArgumentError, match="keep_latest"):
        backend.saver.prune(["x"], strategy="oldest")


def test_sync_saver_is_thread_safe(saver: CompactSqliteSaver) -> None:
    graph = build_graph(saver)

    def work(thread: str) -> int:
        for turn in range(5):
            graph.invoke(turn_input(turn), _cfg(thread))
        return len(graph.get_state(_cfg(thread)).values["messages"])

    with ThreadPoolExecutor(4) as pool:
        sizes = list(pool.map(work, [f"t{i}" for i in range(8)]))
    assert sizes == [15] * 8


def _concat(state: list[str], writes: list[list[str]]) -> list[str]:
    return [*state, *(x for w in writes for x in w)]


class _DeltaState(TypedDict):
    items: Annotated[list[str], DeltaChannel(_concat)]


def test_keep_latest_refuses_delta_channel_threads(backend: Backend) -> None:
    builder = StateGraph(_DeltaState)
    builder.add_node("add", lambda s: {"items": [f"item{len(s['items'])}"]})
    builder.add_edge(START, "add")
    graph = builder.compile(checkpointer=backend.saver)
    for _ in range(3):
        graph.invoke({"items": []}, _cfg("delta"))
    assert graph.get_state(_cfg("delta")).values["items"] == ["item0", "item1", "item2"]
    with pytest.raises(CompactError, match="DeltaChannel"):
        backend.saver.prune(["delta"], strategy="keep_latest")
    assert graph.get_state(_cfg("delta")).values["items"] == ["item0", "item1", "item2"]


def test_edits_and_forks_link_to_the_shared_prefix(backend: Backend) -> None:
    graph = _run(backend.saver, "e", range(30))
    graph.update_state(_cfg("e"), {"messages": [HumanMessage("edited", id="human-28")]})
    old = next(s for s in graph.get_state_history(_cfg("e")) if len(s.values["messages"]) == 45)
    graph.invoke(turn_input(99), old.config)  # a fork from turn 15
    tails = sorted(len(decode_link(v)[2]) for _, v, _ in _links(backend, backend.tid("e")))
    assert tails[-1] < 90  # no list was stored whole again (90 = the full list)
    assert len(graph.get_state(_cfg("e")).values["messages"]) == 48  # the fork is newest
    main = next(s for s in graph.get_state_history(_cfg("e")) if len(s.values["messages"]) == 90)
    assert main.values["messages"][84].content == "edited"
    assert backend.saver.verify("e").ok


def test_a_list_with_a_tool_message_appended_in_place_is_stored_correctly(
    backend: Backend,
) -> None:
    builder = StateGraph(MessagesState)

    def mutate(state: MessagesState) -> dict[str, Any]:
        # A node that (wrongly) appends to the state's own list before returning it.
        state["messages"].append(
            ToolMessage("late", tool_call_id="c", id=f"t{len(state['messages'])}")
        )
        return {"messages": [AIMessage("ok", id=f"a{len(state['messages'])}")]}

    builder.add_node("bot", mutate)
    builder.add_edge(START, "bot")
    graph = builder.compile(checkpointer=backend.saver)
    for i in range(3):
        graph.invoke({"messages": [HumanMessage(f"q{i}", id=f"h{i}")]}, _cfg("m"))
    expected = [m.id for m in graph.get_state(_cfg("m")).values["messages"]]
    with backend.reopen() as fresh:
        got = [m.id for m in build_graph(fresh).get_state(_cfg("m")).values["messages"]]
    assert got == expected


class _TwoLists(TypedDict):
    messages: Annotated[list[Any], add_messages]
    notes: Annotated[list[Any], add_messages]


def _two_lists_graph(saver: Any) -> Any:
    def bot(s: _TwoLists) -> dict[str, Any]:
        n = len(s["messages"])
        update: dict[str, Any] = {"messages": [AIMessage(f"reply {n}", id=f"r{n}")]}
        if n % 3:  # both lists change in this step, or only the messages
            update["notes"] = [AIMessage(f"note {n}", id=f"n{n}")]
        return update

    builder = StateGraph(_TwoLists)
    builder.add_node("bot", bot)
    builder.add_edge(START, "bot")
    return builder.compile(checkpointer=saver)


def test_two_lists_changed_in_one_step_are_each_stored_and_read_back(backend: Backend) -> None:
    graph, memory = _two_lists_graph(backend.saver), _two_lists_graph(InMemorySaver())
    for turn in range(12):
        for g in (graph, memory):
            g.invoke({"messages": [HumanMessage(f"ask {turn}", id=f"h{turn}")]}, _cfg("two"))
    want = [s.values for s in memory.get_state_history(_cfg("two"))]
    assert [s.values for s in graph.get_state_history(_cfg("two"))] == want
    tid = backend.tid("two")
    # A row holds one link: where both lists changed, the other is a ref row.
    refs = "SELECT COUNT(*) FROM lgc_blobs WHERE tid = ? AND type = 'lgc.refs'"
    assert backend.scalar(refs, tid) > 0
    assert len(_links(backend, tid)) > backend.scalar(refs, tid)
    with backend.reopen() as fresh:
        assert [s.values for s in _two_lists_graph(fresh).get_state_history(_cfg("two"))] == want
        notes = [i.message.content for i in fresh.history("two", channel="notes").items]
        assert notes == [m.content for m in want[0]["notes"]]
        assert fresh.verify("two").ok
        fresh.prune(["two"], strategy="keep_latest")
        assert _two_lists_graph(fresh).get_state(_cfg("two")).values == want[0]
        assert fresh.verify("two").ok


def test_a_chain_stays_where_it_is_stored() -> None:
    from langgraph_compact.checkpoint._refs import RefChain

    msgs = [HumanMessage(str(i), id=str(i)) for i in range(8)]
    chain, head = RefChain.start("", "messages", "v1", [1, 2], msgs[:2], None)
    assert head.row is None
    link = chain.append("v2", [3], msgs[2:3], "c2")  # a row offered: the chain stays put
    assert (link.row, link.keep, link.tail) == (None, 2, (3,))
    folded, head = RefChain.start("", "messages", "v1", [1, 2], msgs[:2], "c1")
    link = folded.append("v2", [3], msgs[2:3], "c2")
    assert (link.row, link.base, link.tail) == ("c2", "c1", (3,))
    link = folded.append("v3", [4], msgs[3:4], None)  # no row can take it: a snapshot
    assert (link.row, link.base, link.keep, link.tail) == (None, None, 0, (1, 2, 3, 4))


def test_a_put_without_a_base_record_names_the_lists_its_parent_holds(backend: Backend) -> None:
    _run(backend.saver, "np", range(4))
    tid, head = backend.tid("np"), backend.saver.get_tuple(_cfg("np"))
    assert head is not None
    links = len(_links(backend, tid))
    with backend.reopen() as fresh:  # no record cached: the channels are "unknown" here
        cp = copy_checkpoint(head.checkpoint)
        cp["id"] = str(uuid6(clock_seq=-2))
        config = fresh.put(head.config, cp, {"source": "update", "step": 99, "parents": {}}, {})
        got = fresh.get_tuple(config)
    assert got is not None and got.checkpoint["channel_values"] == head.checkpoint["channel_values"]
    assert len(_links(backend, tid)) == links  # no list stored again


def test_writes_stored_before_their_checkpoint_move_into_its_row(backend: Backend) -> None:
    _run(backend.saver, "ew", range(1))
    tid, head = backend.tid("ew"), backend.saver.get_tuple(_cfg("ew"))
    assert head is not None
    rows = "SELECT COUNT(*) FROM lgc_writes WHERE tid = ?"
    md: Any = {"source": "update", "step": 9, "parents": {}}

    def early(saver: CompactSaverBase, value: str) -> tuple[Any, Any]:
        cp = copy_checkpoint(head.checkpoint)
        cp["id"] = str(uuid6(clock_seq=-2))
        config = _cfg("ew", checkpoint_ns="", checkpoint_id=cp["id"])
        saver.put_writes(config, [("notes", value)], "task-1")  # LangGraph may, with async
        assert backend.scalar(rows, tid) >= 1  # durability: a row while no checkpoint is there
        return cp, config

    cp, config = early(backend.saver, "first")
    backend.saver.put(head.config, cp, md, {})
    assert backend.scalar(rows, tid) == 0  # moved into the checkpoint's row
    got = backend.saver.get_tuple(config)
    assert got is not None and got.pending_writes == [("task-1", "notes", "first")]
    with backend.reopen() as other:  # written first by another store: the row stays a row
        cp, config = early(backend.saver, "second")
        other.put(head.config, cp, md, {})
        got = other.get_tuple(config)
        assert got is not None and got.pending_writes == [("task-1", "notes", "second")]
        assert backend.scalar(rows, tid) == 1 and other.verify("ew").ok
