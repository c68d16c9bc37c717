"""Storage layout: each message once, bounded ref lists, encryption, prune/copy/delete."""

from __future__ import annotations

import hashlib
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from agent_graph import build_graph, file_bytes, state_json, turn_input
from langgraph.channels import DeltaChannel
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
from langgraph.graph import START, StateGraph

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.checkpoint._core import REFS_MAX_DEPTH, decode_refs, next_version
from langgraph_compact.errors import CompactError


def _cfg(thread: str, **extra: Any) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread, **extra}}


def _run(saver: CompactSqliteSaver, thread: str, turns: range, **extra: Any) -> Any:
    graph = build_graph(saver)
    for turn in turns:
        graph.invoke(turn_input(turn), _cfg(thread, **extra))
    return graph


def _count(saver: CompactSqliteSaver, sql: str, *params: Any) -> int:
    return int(saver.conn.execute(sql, params).fetchone()[0])


def test_each_message_content_is_stored_once(saver: CompactSqliteSaver) -> None:
    _run(saver, "once", range(20))
    # 60 messages; ToolMessages also appear id-less in their node's pending writes,
    # which share the text row (one text per distinct content).
    assert _count(saver, "SELECT COUNT(*) FROM lgc_message_texts WHERE thread_id='once'") == 60
    named = "SELECT COUNT(*) FROM lgc_messages WHERE thread_id='once' AND message_id != ''"
    assert _count(saver, named) == 60
    # No blob or write carries message content: message values are refs.
    kinds = saver.conn.execute(
        "SELECT DISTINCT type FROM lgc_blobs WHERE channel='messages' "
        "UNION SELECT DISTINCT type FROM lgc_writes WHERE channel='messages' AND blob != x'90'"
    ).fetchall()
    assert {k for (k,) in kinds} == {"lgc.refs", "lgc.msgs"}


def test_ref_lists_are_deltas_with_bounded_chains(saver: CompactSqliteSaver) -> None:
    _run(saver, "refs", range(40))
    rows = saver.conn.execute(
        "SELECT version, blob, base_version FROM lgc_blobs WHERE thread_id='refs' "
        "AND channel='messages' ORDER BY version"
    ).fetchall()
    refs = [decode_refs(blob, base) for _, blob, base in rows]
    assert max(r.depth for r in refs) <= REFS_MAX_DEPTH
    deltas = [r for r in refs if r.base is not None]
    assert len(deltas) >= len(refs) * 0.9
    assert max(len(r.tail) for r in deltas) <= 2
    # Linear, not quadratic: stored ints are far fewer than the sum of list lengths.
    stored = sum(len(r.tail) for r in refs)
    full = sum(r.keep + len(r.tail) for r in refs)
    assert stored * 10 < full


def test_fresh_process_reads_the_same_state(saver: CompactSqliteSaver, db_path: Path) -> None:
    graph = _run(saver, "fresh", range(12))
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        assert state_json(build_graph(fresh), _cfg("fresh")) == state_json(graph, _cfg("fresh"))
        history = list(build_graph(fresh).get_state_history(_cfg("fresh")))
    assert len(history) == 12 * 4


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
        assert ciphername == "xor"
        nonce, body = ciphertext[:16], ciphertext[16:]
        return bytes(a ^ b for a, b in zip(body, self._stream(nonce, len(body)), strict=True))


def test_encrypted_serializer_keeps_message_text_out_of_the_file(db_path: Path) -> None:
    serde = EncryptedSerializer(_XorStreamCipher(b"k" * 32))
    with CompactSqliteSaver.from_conn_string(str(db_path), serde=serde) as saver:
        graph = _run(saver, "enc", range(4))
        state = graph.get_state(_cfg("enc")).values["messages"]
        assert len(state) == 12 and "src/mod3.py:39" in str(state[-1].content)
        with pytest.raises(CompactError, match="index_text"):
            saver.history("enc", text="mod3")
        assert [i.index for i in saver.history("enc", role="tool").items] == [2, 5, 8, 11]
        expected = state_json(graph, _cfg("enc"))
    raw = file_bytes(db_path)
    assert b"line 39 of src/mod3.py" not in raw and b"please read module" not in raw
    with CompactSqliteSaver.from_conn_string(str(db_path), serde=serde) as again:
        assert state_json(build_graph(again), _cfg("enc")) == expected


def test_prune_keep_latest_keeps_state_and_every_message(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    graph = _run(saver, "p", range(40))
    before = state_json(graph, _cfg("p"))
    saver.prune(["p"], strategy="keep_latest")
    assert len(list(saver.list(_cfg("p")))) == 1
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        assert state_json(build_graph(fresh), _cfg("p")) == before
        assert fresh.history("p", limit=500).total == 120
    # The kept ref list was materialized: no base points at a deleted blob.
    rows = saver.conn.execute(
        "SELECT base_version FROM lgc_blobs WHERE thread_id='p' AND base_version IS NOT NULL"
    ).fetchall()
    assert rows == []
    _run(saver, "p", range(40, 42))
    assert len(graph.get_state(_cfg("p")).values["messages"]) == 126


def test_delete_for_runs_keeps_later_runs_readable(
    saver: CompactSqliteSaver, db_path: Path
) -> None:
    run1, run2 = str(uuid.uuid4()), str(uuid.uuid4())
    _run(saver, "d", range(0, 20), run_id=run1)
    graph = _run(saver, "d", range(20, 25), run_id=run2)
    before = state_json(graph, _cfg("d"))
    saver.delete_for_runs([run1])
    runs = {t.metadata.get("run_id") for t in saver.list(_cfg("d"))}
    assert runs == {run2}
    with CompactSqliteSaver.from_conn_string(str(db_path)) as fresh:
        assert state_json(build_graph(fresh), _cfg("d")) == before


def test_copy_thread_copies_messages_and_index(saver: CompactSqliteSaver) -> None:
    graph = _run(saver, "src", range(5))
    saver.copy_thread("src", "dst")
    assert state_json(graph, _cfg("dst")) == state_json(graph, _cfg("src"))
    assert [i.index for i in saver.history("dst", text="mod4.py line 2").items] == [14]
    with pytest.raises(CompactError, match="already has messages"):
        saver.copy_thread("src", "dst")
    _run(saver, "dst", range(5, 6))
    assert len(graph.get_state(_cfg("src")).values["messages"]) == 15


def test_delete_thread_removes_rows_and_index(saver: CompactSqliteSaver) -> None:
    _run(saver, "gone", range(3))
    _run(saver, "kept", range(3))
    saver.delete_thread("gone")
    for table in ("lgc_checkpoints", "lgc_blobs", "lgc_writes", "lgc_messages"):
        assert _count(saver, f"SELECT COUNT(*) FROM {table} WHERE thread_id='gone'") == 0
    assert saver.history("gone").items == []
    assert len(saver.history("kept", text="mod1.py").items) == 1
    # The contentless FTS index lost exactly the deleted thread's documents.
    fts = "SELECT COUNT(*) FROM lgc_message_fts WHERE lgc_message_fts MATCH 'mod1'"
    assert _count(saver, fts) == 2  # "reading mod1" and its tool output, in "kept" only


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


def test_keep_latest_refuses_delta_channel_threads(saver: CompactSqliteSaver) -> None:
    builder = StateGraph(_DeltaState)
    builder.add_node("add", lambda s: {"items": [f"item{len(s['items'])}"]})
    builder.add_edge(START, "add")
    graph = builder.compile(checkpointer=saver)
    for _ in range(3):
        graph.invoke({"items": []}, _cfg("delta"))
    assert graph.get_state(_cfg("delta")).values["items"] == ["item0", "item1", "item2"]
    with pytest.raises(CompactError, match="DeltaChannel"):
        saver.prune(["delta"], strategy="keep_latest")
    assert graph.get_state(_cfg("delta")).values["items"] == ["item0", "item1", "item2"]


def test_channel_versions_have_a_36_bit_random_tail_and_stay_ordered() -> None:
    old_format = "0000000007.0a1b2c"  # rows written before the wider tail
    versions = [next_version(old_format) for _ in range(1000)]
    tails = [v.split(".")[1] for v in versions]
    assert all(len(t) == 6 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tails)  # 36 bits
    assert len(set(versions)) == len(versions)
    assert all(old_format < v < next_version(v) for v in versions)
    assert next_version(None) < old_format < next_version(old_format)
