"""Hypothesis: random histories fold into valid projections without touching the input."""

from __future__ import annotations

import itertools

from factories import unreferenced_changes
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)

from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.fold import fold
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.stage import marker_ref
from langgraph_compact.compaction.verify import assert_tool_pairs_intact
from langgraph_compact.policies import ToolMode, ToolPolicies, ToolPolicy
from langgraph_compact.tokens import Budget, TokenCounter

COUNTER = TokenCounter()
TOOLS = ["read_file", "bash", "web_fetch", "write_file"]
CHUNKS = ["def f(x):\n    return x\n", "ERROR: test failed\n", '{"k": [1, 2, 3]}', "ünï©ødé ✓ "]

texts = st.one_of(
    st.text(max_size=40),
    st.builds(lambda c, n: c * n, st.sampled_from(CHUNKS), st.integers(0, 600)),
)
args = st.dictionaries(
    st.sampled_from(["path", "command", "content"]),
    st.one_of(st.sampled_from(["a.py", "ls", "pytest"]), texts),
    max_size=2,
)
policies = st.builds(
    ToolPolicy,
    mode=st.sampled_from(list(ToolMode)),
    max_chars=st.integers(150, 5_000),
    max_arg_chars=st.integers(150, 3_000),
    open_world=st.booleans(),
    prunable=st.booleans(),
)


@st.composite
def histories(draw: st.DrawFn) -> list[BaseMessage]:
    """System prompt(s), a first human turn, then human/AI/tool-call turns in any mix."""
    ids = itertools.count()

    def nid(prefix: str) -> str:
        return f"{prefix}{next(ids)}"

    msgs: list[BaseMessage] = [SystemMessage(draw(texts), id=nid("s"))]
    msgs.append(HumanMessage(draw(texts), id=nid("h")))
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["human", "ai", "calls", "calls", "calls", "system"]))
        if kind == "human":
            msgs.append(HumanMessage(draw(texts), id=nid("h")))
        elif kind == "system":
            msgs.append(SystemMessage(draw(texts), id=nid("s")))
        elif kind == "ai":
            msgs.append(AIMessage(draw(texts), id=nid("a")))
        else:
            n = draw(st.integers(1, 3))
            calls = [
                ToolCall(name=draw(st.sampled_from(TOOLS)), args=draw(args), id=nid("c"))
                for _ in range(n)
            ]
            msgs.append(AIMessage(draw(texts), tool_calls=calls, id=nid("a")))
            order = draw(st.permutations(range(n)))
            for k in order:
                call = calls[k]
                msgs.append(
                    ToolMessage(
                        draw(texts), tool_call_id=call["id"] or "", name=call["name"], id=nid("t")
                    )
                )
    if draw(st.booleans()):  # a pending call the tool node has not answered yet
        pending = ToolCall(name="bash", args={"command": "make"}, id=nid("c"))
        msgs.append(AIMessage("", tool_calls=[pending], id=nid("a")))
    return msgs


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    history=histories(),
    protect=st.integers(0, 6_000),
    tool_policies=st.dictionaries(st.sampled_from(TOOLS), policies, max_size=4),
    default=policies,
    max_text=st.integers(200, 20_000),
)
def test_fold_properties(
    history: list[BaseMessage],
    protect: int,
    tool_policies: dict[str, ToolPolicy],
    default: ToolPolicy,
    max_text: int,
) -> None:
    snapshot = [m.model_dump() for m in history]
    config = CompactionSettings(
        Budget(context_window=128_000),
        counter=COUNTER,
        policies=ToolPolicies(tool_policies, default=default),
        keep_recent_tokens=protect,
        max_text_chars=max_text,
    )
    result = fold(history, config)
    event(f"stages that shortened something: {sorted(s.stage for s in result.stats if s.items)}")
    # 1. the input is deep-equal before and after
    assert [m.model_dump() for m in history] == snapshot
    # 2. the output is a valid tool protocol
    assert_tool_pairs_intact(result.messages)
    # 3. every shortened message carries a ref to its original (its own id)
    assert result.repairs == ()
    assert unreferenced_changes(history, result.messages) == []
    assert set(result.refs) == {
        m.id for m, o in zip(result.messages, history, strict=True) if m is not o
    }
    # 4. accounting is exact and the recent window is kept verbatim (text)
    assert result.tokens_after == COUNTER.count_messages(result.messages)
    for old, new in zip(
        history[result.protected_from :], result.messages[result.protected_from :], strict=True
    ):
        if not isinstance(old, ToolMessage):
            assert new is old


@given(st.text(max_size=5_000), st.integers(1, 4_000), st.text(min_size=1, max_size=20))
def test_clip_text_ref_round_trips(text: str, limit: int, ref: str) -> None:
    out = clip_text(text, limit, ref)
    if out != text:
        assert marker_ref(out) == ref or " — call recall(ref)" in ref
    assert clip_text(text, max(limit, len(text)), ref) == text
