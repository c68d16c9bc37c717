"""Checkpoint rows: version strings, rows stored as deltas against the row before them,
and loaded checkpoints that callers change in place, on every backend."""

from __future__ import annotations

import re
from typing import Any

from agent_graph import build_graph, state_json, turn_input
from backends import Backend
from langgraph.checkpoint.base import empty_checkpoint

from langgraph_compact.checkpoint import CompactSaverBase
from langgraph_compact.checkpoint._codec import next_version


def test_channel_versions_have_a_36_bit_random_tail_and_stay_ordered() -> None:
    old_format = "0000000007.0a1b2c"  # rows written before the wider tail
    versions = [next_version(old_format) for _ in range(1000)]
    tails = [v.split(".")[1] for v in versions]
    assert all(len(t) == 6 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tails)  # 36 bits
    assert len(set(versions)) == len(versions)
    assert all(old_format < v < next_version(v) for v in versions)
    assert next_version(None) < old_format < next_version(old_format)


def _put_lane(saver: CompactSaverBase, thread: str, ids: list[str]) -> dict[str, Any]:
    """Checkpoints with the given ids (in that order), each changing a counter channel."""
    expected: dict[str, Any] = {}
    parent = None
    for n, cid in enumerate(ids):
        cp = empty_checkpoint()
        cp["id"] = cid
        cp["channel_values"] = {"n": n, "text": f"value {n} " * 5}
        cp["channel_versions"] = {"n": f"{n + 1:010d}.a", "text": f"{n + 1:010d}.a"}
        cp["versions_seen"] = {"node": {"n": f"{n:010d}.a"}}
        conf: dict[str, Any] = {"thread_id": thread, "checkpoint_ns": ""}
        if parent:
            conf["checkpoint_id"] = parent
        saver.put({"configurable": conf}, cp, {"step": n}, dict(cp["channel_versions"]))
        expected[cid] = (n, parent)
        parent = cid
    return expected


def _lane_state(saver: CompactSaverBase, thread: str) -> dict[str, Any]:
    out = {}
    for tup in saver.list({"configurable": {"thread_id": thread, "checkpoint_ns": ""}}):
        parent = tup.parent_config["configurable"]["checkpoint_id"] if tup.parent_config else None
        out[tup.checkpoint["id"]] = (tup.checkpoint["channel_values"]["n"], parent)
    return out


def test_delta_rows_survive_out_of_order_puts_re_puts_and_deleted_runs(backend: Backend) -> None:
    saver = backend.saver
    ids = [f"{i:04d}" for i in range(0, 80, 2)]  # 40 rows: more than two snapshots apart
    expected = _put_lane(saver, "lane", ids)
    expected.update(_put_lane(saver, "lane", ["0021", "0001"]))  # into the middle, the start
    expected["0021"] = (0, None)
    expected["0001"] = (1, "0021")
    again = _put_lane(saver, "lane", ["0040"])  # the same id again: a replaced row
    expected["0040"] = again["0040"]
    with backend.reopen() as fresh:
        assert _lane_state(fresh, "lane") == expected
        assert fresh.verify("lane").ok
    assert _lane_state(saver, "lane") == expected
    rows = backend.query("SELECT payload FROM lgc_checkpoints WHERE tid = ?", backend.tid("lane"))
    assert sum(bytes(p)[1] == 0 for (p,) in rows) <= 8  # mostly deltas, a few snapshots


def _change_loaded_copy(saver: CompactSaverBase, config: dict[str, Any]) -> None:
    """Change a loaded checkpoint in place; a second load must not see it."""
    first = saver.get_tuple(config)
    assert first is not None
    first.checkpoint["channel_versions"]["extra"] = "9999999999.zzzzzz"
    first.checkpoint["versions_seen"].setdefault("agent", {})["extra"] = "1"
    first.metadata["step"] = -99
    again = saver.get_tuple(config)
    assert again is not None and "extra" not in again.checkpoint["channel_versions"]
    assert "extra" not in again.checkpoint["versions_seen"].get("agent", {})
    assert again.metadata["step"] != -99


def test_a_loaded_checkpoint_changed_in_place_does_not_change_what_is_stored(
    backend: Backend,
) -> None:
    config: dict[str, Any] = {"configurable": {"thread_id": "m"}}
    graph = build_graph(backend.saver)
    for turn in range(5):
        if turn == 3:  # LangGraph updates a loaded checkpoint's versions while it runs
            _change_loaded_copy(backend.saver, config)
        graph.invoke(turn_input(turn), config)
    with backend.reopen() as fresh:
        assert state_json(build_graph(fresh), config) == state_json(graph, config)
        assert fresh.verify("m").ok
