"""fold: stages composed, per-stage stats, steady-state cost, and the bad-input cases."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from factories import ai, ai_tool_call, human, system, tool_result
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction.fold import fold
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.stage import marker_ref
from langgraph_compact.compaction.verify import UNKNOWN_TOOL_NAME, assert_tool_pairs_intact
from langgraph_compact.errors import MessageError, ProtocolError
from langgraph_compact.messages import canonical_json
from langgraph_compact.policies import ToolPolicies, ToolPolicy
from langgraph_compact.tokens import Budget, TokenCounter

LOG = "".join(f"test_{i} PASSED\n" for i in range(800))


def _history() -> list[BaseMessage]:
    msgs: list[BaseMessage] = [system(id="s"), human("fix the bug", id="h")]
    for i in range(8):
        call = ai_tool_call("bash", {"command": "pytest"}, f"try {i}", id=f"a{i}")
        msgs += [call, tool_result(call, LOG + f"run {i}", id=f"t{i}")]
        msgs.append(human(f"keep going {i}", id=f"h{i}"))
    return msgs


def _config(**kwargs: Any) -> CompactionSettings:
    kwargs.setdefault("keep_recent_tokens", 3_000)
    return CompactionSettings(Budget(context_window=128_000), counter=TokenCounter(), **kwargs)


def test_fold_reports_each_stage_and_consistent_tokens() -> None:
    msgs = _history()
    config = _config()
    result = fold(msgs, config)
    names = [s.stage for s in result.stats]
    assert names == ["clip", "dedupe", "prune", "loops"]
    assert result.tokens_before == config.counter.count_messages(msgs)
    assert result.tokens_after == config.counter.count_messages(result.messages)
    for prev, nxt in zip(result.stats, result.stats[1:], strict=False):
        assert prev.tokens_after == nxt.tokens_before
    assert result.stats[0].tokens_before == result.tokens_before
    assert result.saved == sum(s.saved for s in result.stats) > 0
    clip = result.stage("clip")
    assert clip is not None and clip.items == 8  # every output over 6,000 chars
    dedupe = result.stage("dedupe")
    assert dedupe is not None and dedupe.items == 7  # same call 8 times: 7 superseded
    assert result.stage("summarize") is None
    assert set(result.refs) == {f"t{i}" for i in range(8)}
    assert [m.id for m in result.messages] == [m.id for m in msgs]
    assert_tool_pairs_intact(result.messages)


def test_fold_never_mutates_input() -> None:
    msgs = _history()
    snapshot = [m.model_dump() for m in msgs]
    fold(msgs, _config())
    assert [m.model_dump() for m in msgs] == snapshot


def test_fold_twice_is_stable_and_second_call_only_tokenizes_new_messages() -> None:
    msgs = _history()
    config = _config()
    first = fold(msgs, config)
    misses = config.counter.misses
    again = fold(msgs, config)
    assert config.counter.misses == misses  # warm: nothing re-tokenized
    assert [m.model_dump() for m in again.messages] == [m.model_dump() for m in first.messages]
    msgs.append(ai("new turn"))
    fold(msgs, config)
    assert config.counter.misses == misses + 1


def test_loop_signal_surfaces_in_result() -> None:
    msgs: list[BaseMessage] = [human()]
    for _ in range(3):
        call = ai_tool_call("bash", {"command": "make"})
        msgs += [call, tool_result(call, "error: no rule")]
    result = fold(msgs, _config())
    assert result.loop is not None and result.loop.count == 3
    loops = result.stage("loops")
    assert loops is not None and loops.items == 3


def test_stages_can_be_switched_off() -> None:
    result = fold(_history(), _config(dedupe=False, prune=False))
    assert [s.stage for s in result.stats] == ["clip", "loops"]


def test_protected_window_keeps_recent_text() -> None:
    msgs: list[BaseMessage] = [human("task"), human("x" * 50_000, id="big-old")]
    msgs += [ai("y" * 50_000, id="big-new")]
    result = fold(msgs, _config(keep_recent_tokens=7_000, max_text_chars=1_000))
    assert marker_ref(str(result.messages[1].content)) == "big-old"
    assert result.messages[2] is msgs[2]
    assert result.protected_from == 2


# ---------------------------------------------------------------- bad input, each documented


def test_message_without_id_is_a_clear_error() -> None:
    msgs = [human(), HumanMessage("no id here")]
    with pytest.raises(MessageError, match=r"message 1 \(human\) has no id"):
        fold(msgs, _config())


def test_non_string_content_blocks_are_handled() -> None:
    blocks: list[Any] = [
        {"type": "text", "text": "see image " + "z" * 30_000},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
        {"type": "reasoning", "summary": []},
    ]
    call = ai_tool_call("screenshot", {})
    out_blocks: list[Any] = [{"type": "text", "text": "w" * 20_000}, {"type": "image", "url": "x"}]
    msgs = [
        human(),
        HumanMessage(blocks, id="blocks"),
        call,
        ToolMessage(out_blocks, tool_call_id=call.tool_calls[0]["id"] or "", id="tool-blocks"),
        ai("done"),
    ]
    result = fold(msgs, _config(keep_recent_tokens=100))
    text_block = result.messages[1].content[0]
    assert isinstance(text_block, dict) and marker_ref(text_block["text"]) == "blocks"
    assert result.messages[1].content[1:] == blocks[1:]  # non-text blocks kept as is
    tool_out = result.messages[3]
    assert isinstance(tool_out.content, str) and marker_ref(tool_out.content) == "tool-blocks"
    assert_tool_pairs_intact(result.messages)


def test_empty_tool_name_is_repaired_and_reported() -> None:
    call = ai_tool_call("", {"x": 1})
    msgs = [human(), call, tool_result(call, "?"), ai()]
    result = fold(msgs, _config())
    out = result.messages[1]
    assert isinstance(out, AIMessage) and out.tool_calls[0]["name"] == UNKNOWN_TOOL_NAME
    assert result.repairs and result.stats[0].stage == "repair"
    with pytest.raises(ProtocolError, match="empty name"):
        fold(msgs, _config(), repair=False)


def test_five_megabyte_tool_output_is_clipped_quickly() -> None:
    huge = "".join(f"{i:08d} some log text here\n" for i in range(190_000))
    assert len(huge) > 5_000_000
    call = ai_tool_call("bash", {"command": "cat big.log"})
    msgs = [human(), call, tool_result(call, huge, id="huge")]  # just inserted: protected
    config = _config()
    start = time.perf_counter()
    result = fold(msgs, config)
    assert time.perf_counter() - start < 10
    content = str(result.messages[2].content)
    assert len(content) <= ToolPolicy().max_chars
    assert marker_ref(content) == "huge"
    assert content.startswith("00000000 ") and content.rstrip().endswith(
        "00189999 some log text here"
    )
    assert result.tokens_before - result.tokens_after > 1_000_000


def test_tool_args_that_are_not_json_are_kept_and_hashed_by_str() -> None:
    odd: dict[str, Any] = {"path": Path("/tmp/x"), "tags": {"b", "a"}, "obj": object()}
    first = ai_tool_call("read", odd)
    second = ai_tool_call("read", dict(odd))
    msgs = [human(), first, tool_result(first, LOG), second, tool_result(second, LOG), ai()]
    result = fold(msgs, _config())
    assert isinstance(result.messages[1], AIMessage)
    assert result.messages[1].tool_calls[0]["args"] == odd  # projection keeps the objects
    dedupe = result.stage("dedupe")
    assert dedupe is not None and dedupe.refs == (msgs[2].id,)
    assert '"<PosixPath:/tmp/x>"' in canonical_json(odd)
    assert_tool_pairs_intact(result.messages)


def test_invalid_raw_history_folds_into_valid_projection() -> None:
    call = ai_tool_call("bash", {"command": "ls"}, call_id="dup")
    again = ai_tool_call("bash", {"command": "pwd"}, call_id="dup")
    msgs = [
        human(),
        ToolMessage("stray", tool_call_id="ghost", id="stray"),
        call,
        tool_result(call, "a"),
        again,
        tool_result(again, "b"),
        ai(),
    ]
    result = fold(msgs, _config())
    assert_tool_pairs_intact(result.messages)
    assert len(result.repairs) == 2
    assert "stray" not in [m.id for m in result.messages]


def test_policies_reach_the_stages() -> None:
    config = _config(policies=ToolPolicies({"bash": ToolPolicy(open_world=True, max_chars=50_000)}))
    result = fold(_history(), config)
    assert result.stage("clip").items == 0  # type: ignore[union-attr]
    assert result.stage("dedupe").items == 0  # type: ignore[union-attr]


def test_warm_fold_reuses_its_shortened_copies() -> None:
    """The second fold of the same messages re-makes no copy (digests and counts stay cached)."""
    call = ai_tool_call("bash", {"command": "cat big.log"}, id="a-big")
    history = [human(id="h-big"), call, tool_result(call, "x\n" * 40_000, id="t-big")]
    config = CompactionSettings.default()
    first, second = fold(history, config), fold(history, config)
    assert first.refs == ("t-big",)
    assert second.messages[2] is first.messages[2]
    edited = [*history[:2], history[2].model_copy(update={"content": "y\n" * 40_000})]
    assert fold(edited, config).messages[2] is not first.messages[2]
