"""Stage 4, loop signal: three identical consecutive tool calls are a doom loop."""

from __future__ import annotations

from typing import Any

from factories import ai_tool_call, ai_tool_calls, human, tool_result
from langchain_core.messages import BaseMessage

from langgraph_compact.compaction.loops import detect_loops, find_loops


def _calls(*specs: tuple[str, dict[str, Any]]) -> list[BaseMessage]:
    out: list[BaseMessage] = [human()]
    for name, args in specs:
        call = ai_tool_call(name, args)
        out += [call, tool_result(call, "same error")]
    return out


PYTEST: tuple[str, dict[str, Any]] = ("bash", {"command": "pytest -x"})
LS: tuple[str, dict[str, Any]] = ("bash", {"command": "ls"})


def test_three_identical_calls_are_flagged_with_signature() -> None:
    msgs = _calls(LS, PYTEST, PYTEST, PYTEST)
    signal = detect_loops(msgs)
    assert signal is not None
    assert signal.count == 3
    assert signal.signature == 'bash({"command":"pytest -x"})'
    assert len(signal.call_ids) == 3 and len(signal.message_ids) == 3
    assert "3 times in a row" in signal.note


def test_two_are_not_a_loop() -> None:
    assert detect_loops(_calls(LS, PYTEST, PYTEST)) is None


def test_an_interrupted_run_is_not_a_loop() -> None:
    assert detect_loops(_calls(PYTEST, PYTEST, LS, PYTEST)) is None


def test_a_past_loop_is_history_not_a_signal() -> None:
    msgs = _calls(PYTEST, PYTEST, PYTEST, LS)
    assert detect_loops(msgs) is None
    assert [r.count for r in find_loops(msgs)] == [3]


def test_human_turn_breaks_a_run() -> None:
    msgs = _calls(PYTEST, PYTEST)
    msgs.append(human("try again"))
    msgs += _calls(PYTEST)[1:]
    assert detect_loops(msgs) is None
    msgs.append(human("stop"))
    assert detect_loops(msgs) is None


def test_parallel_identical_calls_count() -> None:
    many = ai_tool_calls([PYTEST, PYTEST, PYTEST])
    signal = detect_loops([human(), many])
    assert signal is not None and signal.count == 3
    assert signal.message_ids == (many.id,)


def test_arg_order_does_not_matter_and_threshold_is_configurable() -> None:
    msgs = _calls(("f", {"a": 1, "b": 2}), ("f", {"b": 2, "a": 1}))
    signal = detect_loops(msgs, threshold=2)
    assert signal is not None and signal.count == 2


def test_no_calls_no_signal() -> None:
    assert detect_loops([human()]) is None
    assert find_loops([]) == []
