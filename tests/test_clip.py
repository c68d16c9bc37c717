"""Stage 1, clip: head+tail with a visible marker and a ref; args clipped inside JSON."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from factories import ai, ai_tool_call, human, system, tool_result
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from langgraph_compact.compaction.clip import clip_args, clip_content, clip_text, clip_tool_outputs
from langgraph_compact.compaction.stage import marker_ref, marker_refs
from langgraph_compact.policies import ToolMode, ToolPolicies, ToolPolicy

MARKER = re.compile(r"\[\.\.\. ([\d,]+) chars / ([\d,]+) lines omitted; ref=(.+?) — ")


def _omitted(out: str) -> tuple[int, int]:
    found = MARKER.search(out)
    assert found, out
    return int(found.group(1).replace(",", "")), int(found.group(2).replace(",", ""))


def test_short_text_is_returned_unchanged() -> None:
    text = "small output"
    assert clip_text(text, 100, "r") is text


def test_long_text_keeps_head_and_tail_and_says_what_was_omitted() -> None:
    text = "\n".join(f"row {i:04d}" for i in range(2_000))
    out = clip_text(text, 1_000, "tool-17")
    assert len(out) <= 1_000
    assert out.startswith("row 0000\n")
    assert out.endswith("row 1999")
    assert marker_ref(out) == "tool-17"
    chars, lines = _omitted(out)
    head, _, tail = out.partition("\n[...")
    tail = tail.split("\n", 1)[1]
    assert chars == len(text) - len(head) - 1 - len(tail)  # head's newline is text too
    assert lines == text[len(head) + 1 : len(text) - len(tail)].count("\n")
    assert "row 1000" not in out


@given(st.text(min_size=0, max_size=3_000), st.integers(min_value=120, max_value=2_500))
def test_clip_text_properties(text: str, limit: int) -> None:
    out = clip_text(text, limit, "ref-1")
    if len(text) <= limit:
        assert out == text
        return
    assert len(out) <= limit
    assert marker_ref(out) == "ref-1"
    chars, _ = _omitted(out)
    kept = len(out) - len(MARKER.search(out).group(0))  # type: ignore[union-attr]
    assert chars > 0 and chars + kept >= len(text) - 120


words = st.lists(st.text("abc0123:.-", min_size=1, max_size=6), min_size=60, max_size=400)


@given(words, st.integers(min_value=200, max_value=1_500), st.data())
def test_a_clip_keeps_whole_words_and_leaves_out_a_part_whole(
    tokens: list[str], limit: int, data: st.DataObject
) -> None:
    """Where a space is near, neither side ends inside a word (a value is never shown in
    pieces), and a part given as ``around`` (a summary inside a hand-off) is omitted whole,
    its room going to the other side."""
    text = " ".join(tokens)
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a + 1, len(text)))
    for around in (None, (a, b)):
        out = clip_text(text, limit, "r", around)
        assert len(out) <= limit
        if out == text:
            continue
        marker = MARKER.search(out)
        assert marker is not None
        head = out[: marker.start()].removesuffix("\n")
        tail = out[out.index("...]", marker.end()) + len("...]") :].removeprefix("\n")
        assert text.startswith(head) and text.endswith(tail)
        if len(head) >= 40:  # a space within its last quarter: it ends on a whole word
            assert text[len(head)] == " ", (head[-20:], around)
        if len(tail) >= 40:
            assert text[len(text) - len(tail) - 1] == " ", (tail[:20], around)
        if around is not None:
            assert len(head) <= a and len(text) - len(tail) >= b


def test_tiny_limit_gives_just_the_marker() -> None:
    out = clip_text("x" * 10_000, 5, "r")
    assert marker_ref(out) == "r"
    assert _omitted(out) == (10_000, 0)


def test_ref_with_spaces_and_dashes_round_trips() -> None:
    out = clip_text("y" * 1_000, 200, "thread 1/msg — 7")
    assert marker_refs(out) == ["thread 1/msg — 7"]


def test_clip_content_blocks() -> None:
    blocks: list[str | dict[object, object]] = [
        {"type": "text", "text": "a" * 500},
        {"type": "image_url", "image_url": {"url": "x"}},
        "b" * 10,
    ]
    snapshot = copy.deepcopy(blocks)
    out = clip_content(blocks, 200, "r")
    assert blocks == snapshot
    assert isinstance(out, list)
    assert marker_ref(out[0]["text"]) == "r"  # type: ignore[index]
    assert out[1] is blocks[1] and out[2] == "b" * 10
    assert clip_content(snapshot, 10_000, "r") is snapshot


def test_clip_args_keeps_valid_json_with_same_keys() -> None:
    args: dict[str, Any] = {
        "path": "big.py",
        "edits": [{"old": "o" * 3_000, "new": "n" * 3_000}],
        "n": 3,
    }
    out = clip_args(args, 500, "ai-1")
    assert json.loads(json.dumps(out)).keys() == args.keys()
    assert out["path"] == "big.py" and out["n"] == 3
    assert marker_ref(out["edits"][0]["old"]) == "ai-1"
    assert len(out["edits"][0]["new"]) <= 500
    assert args["edits"][0]["old"] == "o" * 3_000  # input untouched
    assert clip_args({"a": "short"}, 500, "r") == {"a": "short"}


def _history() -> list[BaseMessage]:
    call = ai_tool_call("bash", {"command": "cat big.log"}, id="a1", call_id="c1")
    write = ai_tool_call("write_file", {"path": "x.py", "content": "z" * 9_000}, id="a2")
    return [
        system("s" * 30_000, id="s0"),
        human("task " * 5_000, id="h0"),
        call,
        tool_result(call, "L\n" * 10_000, id="t1"),
        write,
        tool_result(write, "written", id="t2"),
        human("h" * 30_000, id="h1"),
        ai("a" * 30_000, id="a3"),
    ]


def test_clip_tool_outputs_everywhere_but_text_only_outside_tail() -> None:
    msgs = _history()
    snapshot = [m.model_dump() for m in msgs]
    res = clip_tool_outputs(msgs, ToolPolicies(), protected_from=7)
    assert [m.model_dump() for m in msgs] == snapshot
    out = res.messages
    assert [m.id for m in out] == [m.id for m in msgs]
    assert out[0] is msgs[0] and out[1] is msgs[1]  # head never clipped
    assert marker_ref(str(out[3].content)) == "t1"
    assert isinstance(out[4], AIMessage)
    assert marker_ref(out[4].tool_calls[0]["args"]["content"]) == "a2"
    assert out[4].tool_calls[0]["args"]["path"] == "x.py"
    assert marker_ref(str(out[6].content)) == "h1"
    assert out[7] is msgs[7]  # protected tail: text kept
    assert res.changed == (3, 4, 6)
    assert res.refs == ("t1", "a2", "h1")


def test_protected_tail_still_clips_tool_output() -> None:
    msgs = _history()
    res = clip_tool_outputs(msgs, ToolPolicies(), protected_from=0)
    assert res.changed == (3,)


@pytest.mark.parametrize(
    ("policy", "clipped"),
    [
        (ToolPolicy(mode=ToolMode.KEEP_VERBATIM), False),
        (ToolPolicy(max_chars=50_000), False),
        (ToolPolicy(max_chars=500), True),
        (ToolPolicy(mode=ToolMode.DROP_AFTER_CONSUMED, max_chars=500), True),
    ],
)
def test_policy_decides(policy: ToolPolicy, clipped: bool) -> None:
    msgs = _history()
    res = clip_tool_outputs(msgs, ToolPolicies({"bash": policy}), protected_from=0)
    assert (3 in res.changed) is clipped


def test_tool_name_from_call_when_tool_message_has_no_name() -> None:
    call = ai_tool_call("bash", {"command": "x"}, call_id="c7")
    res_msg = ToolMessage("q" * 5_000, tool_call_id="c7", id="t7")
    policies = ToolPolicies({"bash": ToolPolicy(mode=ToolMode.KEEP_VERBATIM)})
    res = clip_tool_outputs([human(), call, res_msg], policies)
    assert res.changed == ()


def test_policies_registry() -> None:
    reg = ToolPolicies(default=ToolPolicy(max_chars=10))
    assert reg.for_tool("anything").max_chars == 10
    assert reg.for_tool(None).max_chars == 10
    reg2 = reg.with_policy("web", ToolPolicy(open_world=True))
    assert reg2.for_tool("web").open_world and "web" not in reg.policies
    assert reg2 != reg and reg2 == ToolPolicies(
        {"web": ToolPolicy(open_world=True)}, default=reg.default
    )
    assert hash(reg2) == hash(
        ToolPolicies({"web": ToolPolicy(open_world=True)}, default=reg.default)
    )
    with pytest.raises(TypeError):
        reg.policies["x"] = ToolPolicy()  # type: ignore[index]
