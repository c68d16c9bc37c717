"""Stage 3, prune: old outputs become one-line stubs per policy; recent window kept."""

from __future__ import annotations

import pytest
from factories import ai, ai_tool_call, human, tool_result
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.clip import clip_tool_outputs
from langgraph_compact.compaction.prune import STUB_FACTS, kept, protected_start, prune_old_outputs
from langgraph_compact.compaction.stage import marker_ref
from langgraph_compact.compaction.verify import assert_tool_pairs_intact
from langgraph_compact.policies import ToolMode, ToolPolicies, ToolPolicy
from langgraph_compact.tokens import TokenCounter

OUTPUT = "".join(f"line {i}\n" for i in range(300))


def _history(n: int = 6) -> list[BaseMessage]:
    msgs: list[BaseMessage] = [human("fix it", id="h0")]
    for i in range(n):
        call = ai_tool_call("bash", {"command": f"cat f{i}.py"}, id=f"a{i}")
        msgs += [call, tool_result(call, OUTPUT, id=f"t{i}")]
    msgs.append(ai("done", id="end"))
    return msgs


def test_outputs_before_window_become_stubs() -> None:
    msgs = _history()
    res = prune_old_outputs(msgs, ToolPolicies(), protected_from=7)
    assert res.changed == (2, 4, 6)
    stub = str(res.messages[2].content)
    assert stub == (
        '[pruned output of bash {"command":"cat f0.py"}: 2,590 chars / 300 lines; '
        "ref=t0 — call recall(ref) for the original]"
    )
    assert "\n" not in stub
    assert marker_ref(stub) == "t0"
    assert all(res.messages[i] is msgs[i] for i in range(7, len(msgs)))
    assert_tool_pairs_intact(res.messages)


def test_stub_describes_the_original_not_the_clipped_copy() -> None:
    msgs = _history()
    clipped = clip_tool_outputs(msgs, ToolPolicies(default=ToolPolicy(max_chars=300)))
    res = prune_old_outputs(clipped.messages, ToolPolicies(), protected_from=7, originals=msgs)
    assert "2,590 chars / 300 lines" in str(res.messages[2].content)
    with pytest.raises(ValueError, match="aligned"):
        prune_old_outputs(msgs, ToolPolicies(), protected_from=7, originals=msgs[:-1])


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (ToolPolicy(mode=ToolMode.KEEP_VERBATIM), ()),
        (ToolPolicy(prunable=False), ()),
        (ToolPolicy(), (2, 4, 6)),
        # consumed: every output is followed by an AI message, window or not
        (ToolPolicy(mode=ToolMode.DROP_AFTER_CONSUMED), (2, 4, 6, 8, 10, 12)),
    ],
)
def test_policy_modes(policy: ToolPolicy, expected: tuple[int, ...]) -> None:
    res = prune_old_outputs(_history(), ToolPolicies({"bash": policy}), protected_from=7)
    assert res.changed == expected


def test_drop_after_consumed_keeps_an_unread_output() -> None:
    msgs = _history()[:-1]  # the last output has not been read by the model yet
    policies = ToolPolicies(default=ToolPolicy(mode=ToolMode.DROP_AFTER_CONSUMED))
    res = prune_old_outputs(msgs, policies, protected_from=len(msgs))
    assert res.changed == (2, 4, 6, 8, 10)


def test_short_outputs_are_not_replaced_by_longer_stubs() -> None:
    call = ai_tool_call("bash", {"command": "true"})
    msgs = [human(), call, tool_result(call, "ok"), ai()]
    assert prune_old_outputs(msgs, ToolPolicies(), protected_from=4).changed == ()


def test_protected_start_is_measured_in_tokens() -> None:
    counter = TokenCounter()
    msgs = _history()
    per_output = counter.count(msgs[2])
    start = protected_start(msgs, counter, per_output * 2 + 200)
    window = counter.count_messages(msgs[start:])
    assert window <= per_output * 2 + 200
    assert window + counter.count(msgs[start - 1]) > per_output * 2 + 200
    assert protected_start(msgs, counter, 10**9) == 0
    assert protected_start(msgs, counter, 0) == len(msgs) - 1  # last message always kept
    assert protected_start([], counter, 100) == 0


_LINE = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=60
)
_FIELD = st.tuples(
    st.from_regex(r"[a-z][a-z_]{2,12}", fullmatch=True),
    st.one_of(
        st.from_regex(r"[A-Z]{2,4}-\d{3,6}", fullmatch=True),
        st.from_regex(r"\d{1,3}(\.\d{1,3}){3}:\d{2,5}", fullmatch=True),
        st.from_regex(r"v\d\.\d{1,2}\.\d{1,3}(-rc\.\d)?", fullmatch=True),
        st.from_regex(r"[0-9a-f]{12,40}", fullmatch=True),
    ),
)


@given(
    st.lists(_LINE, max_size=20),
    st.lists(_FIELD, max_size=6),
    st.sampled_from(["", "ValueError: port {v} is taken", "error: cannot reach {v}"]),
    st.booleans(),
    st.integers(0, 30),
)
def test_a_stub_keeps_only_verbatim_pieces_of_what_it_pruned(
    noise: list[str], fields: list[tuple[str, str]], error: str, table: bool, words: int
) -> None:
    """What a stub keeps of an output (the error it printed, the values it shows) is
    pieces of that output as written: an error line whole or cut at a space with "…", a
    value never with a label, a "…" or a space the output did not have, tables and long
    lines included."""
    lines = [*noise, *(f"{k}: {v}" for k, v in fields)]
    if table and fields:
        lines += ["name  ip  zone", *(f"{k}  {v}  eu-west-1a" for k, v in fields[:3])]
    if fields:
        lines.append(" ".join(["the deploy went to"] * words + [fields[-1][1]]))
    if error and fields:
        lines.append(error.format(v=fields[0][1]))
    text = "\n".join(lines)
    failed, shows = kept(text, "bash: ./status.sh")
    assert not failed or failed.removesuffix(" …").removesuffix("…") in text, failed
    assert all(part in text for part in shows), (shows, text)
    assert len(shows) <= STUB_FACTS
    if error and fields:
        assert failed == error.format(v=fields[0][1])


def test_a_pruned_failure_and_its_values_stay_in_view() -> None:
    """Pruning runs without a summary: the stub is all that is in view of the output."""
    body = "collected 4 items\n" + OUTPUT + "E   AssertionError: computed 389.0mg/kg exceeds 300"
    facts = "build_id: BLD-44871\nrunner: build-7.internal:2222\n" + OUTPUT
    msgs: list[BaseMessage] = [human("fix it", id="h0")]
    for i, out in enumerate([body, facts]):
        call = ai_tool_call("bash", {"command": f"./run.sh {i}"}, id=f"a{i}")
        msgs += [call, tool_result(call, out, id=f"t{i}")]
    msgs.append(ai("done", id="end"))
    res = prune_old_outputs(msgs, ToolPolicies(), protected_from=len(msgs) - 1)
    failed, shown = str(res.messages[2].content), str(res.messages[4].content)
    assert "error: E   AssertionError: computed 389.0mg/kg exceeds 300;" in failed
    assert "BLD-44871" in shown and "build-7.internal:2222" in shown
    assert "\n" not in failed + shown
    assert marker_ref(failed) == "t0" and marker_ref(shown) == "t1"
