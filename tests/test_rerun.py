"""A call run again replaces what its earlier output said (``compaction.rerun``).

A command run again names no subject and says nothing changed: it shows the state anew.
The facts read from the earlier output must not stand beside the new ones once the new
output is summarized too (merge); a different call (another file, another directory)
replaces nothing, and neither does a run again of what failed (the error stays, as
history). While the new output is still in view, the summary shown does not change: a
run again is no compaction event, and the cached prefix stays as it was.
"""

from __future__ import annotations

import pytest
from factories import ai_tool_call, human, system, tool_result
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage

from langgraph_compact import Budget, CompactionResult, CompactionSettings, compact
from langgraph_compact.compaction.rerun import looks_again
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
BUDGETS = (2_000, 4_000, 8_000)
OUTPUTS = {
    # an output printing the value among other lines, old value, new value
    "metar": (
        "{v} 9999 FEW025 BKN040 12/04 Q1018\n(cached)",
        "EGLL 250220Z 13013G30KT",
        "LFPG 052020Z 26008G30KT",
    ),
    "version": (
        "build: {v}\nengine: 5.3.2 (custom)",
        "v5.12.2-rc.5+build.4642",
        "v5.6.27-rc.8+build.6211",
    ),
    "host": ("primary: {v}\nreplicas: 2\nlag_ms: 14", "db-7.internal:5432", "db-9.internal:6432"),
    "pod": ("NAME  READY  STATUS\n{v}  1/1  Running", "api-7c9f6d-x2k4p", "api-5b8e1a-q9r3z"),
}
AGAIN = {
    # the first command, the command run again
    "same": ("wx show --station primary", "wx show --station primary"),
    "flag": ("wx show --station primary", "wx show --station primary --no-cache"),
    "chained": ("./tools/print-state.sh --short", "git pull && ./tools/print-state.sh --short"),
}


def _filler(n: int, start: int) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for i in range(start, start + n):
        call = ai_tool_call("bash", {"command": f"cat src/mod_{i}.py"}, id=f"a{i}")
        body = "\n".join(f"    value_{i}_{k} = compute({k})" for k in range(60))
        out += [call, tool_result(call, body, id=f"t{i}")]
    return out


def _run(command: str, output: str, id: str) -> list[BaseMessage]:
    call = ai_tool_call("bash", {"command": command}, id=f"{id}-call")
    return [call, tool_result(call, output, id=id)]


def _budget(tokens: int) -> Budget:
    return Budget(context_window=tokens, reserved_output=0, compaction_reserve=0, safety_margin=0)


def _compacted(raw: list[BaseMessage], budget: int) -> CompactionResult:
    window = _budget(budget)
    result = compact(raw, None, CompactionSettings(window, counter=COUNTER))
    assert result.summary is not None
    assert COUNTER.count_messages(result.messages) <= window.usable
    return result


def _history(first: str, again: str, output: str, old: str, new: str, budget: int, *,
             in_view: bool) -> list[BaseMessage]:  # fmt: skip
    """The old output summarized; the new one summarized too, or last and in view."""
    turns = budget // 150
    raw = [
        system(id="s"),
        human("Keep the station report current.", id="h"),
        *_run(first, output.format(v=old), "old"),
        *_filler(turns, 0),
    ]
    if in_view:
        return [*raw, *_filler(turns, turns), *_run(again, output.format(v=new), "new")]
    return [*raw, *_run(again, output.format(v=new), "new"), *_filler(turns, turns)]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("again", list(AGAIN))
@pytest.mark.parametrize("shape", list(OUTPUTS))
def test_a_call_run_again_replaces_what_it_printed(shape: str, again: str, budget: int) -> None:
    output, old, new = OUTPUTS[shape]
    first, later = AGAIN[again]
    result = _compacted(_history(first, later, output, old, new, budget, in_view=False), budget)
    shown = "\n".join(message_text(m) for m in result.messages)
    assert new in shown
    assert old not in shown, shown


@pytest.mark.parametrize("shape", ["metar"])  # a keyed value is struck by its key
def test_a_run_again_in_view_leaves_the_summary_shown_as_it_was(shape: str) -> None:
    """No compaction event, no rewrite: the summary the previous call showed is shown
    again word for word when the same call runs again at the end."""
    output, old, new = OUTPUTS[shape]
    first, later = AGAIN["same"]
    raw = _history(first, later, output, old, new, 8_000, in_view=True)
    before = _compacted(raw[:-2], 8_000)
    after = compact(raw, before.summary, CompactionSettings(_budget(8_000), counter=COUNTER))
    assert before.summary is not None and old in before.summary.render()
    assert after.messages[: len(before.messages)] == before.messages
    assert new in message_text(after.messages[-1])


OTHER = {
    # a first command, a later one that looks at something else
    "other file": ("cat ci/staging.env", "cat ci/prod.env"),
    "other directory": ("cd staging && ./state.sh", "cd prod && ./state.sh"),
    "other argument": ("wx show --station=EGLL", "wx show --station=LFPG"),
}


@pytest.mark.parametrize("other", list(OTHER))
@pytest.mark.parametrize("shape", ["metar"])  # no key, which would supersede by itself
def test_another_call_replaces_nothing(shape: str, other: str) -> None:
    output, old, new = OUTPUTS[shape]
    first, later = OTHER[other]
    result = _compacted(_history(first, later, output, old, new, 8_000, in_view=False), 8_000)
    assert result.summary is not None
    summary = result.summary.render()
    assert old in summary and new in summary, summary


def test_an_error_stays_when_its_call_runs_again() -> None:
    """What failed is history: running the call again replaces its facts, not its error."""
    failed = (
        "Traceback (most recent call last):\nConnectionRefusedError: db-7.internal:5432 refused"
    )
    turns = 8_000 // 150
    raw = [
        system(id="s"),
        human("Keep the station report current.", id="h"),
        *_run("./tools/print-state.sh", failed, "old"),
        *_filler(turns, 0),
        *_run("./tools/print-state.sh", "primary: db-9.internal:6432", "new"),
        *_filler(turns, turns),
    ]
    result = _compacted(raw, 8_000)
    assert result.summary is not None
    summary = result.summary.render()
    assert "ConnectionRefusedError: db-7.internal:5432" in summary, summary
    assert "db-9.internal:6432" in summary


_WORD = st.from_regex(r"[a-z][a-z0-9_./]{0,8}", fullmatch=True)
_FLAGS = st.lists(st.from_regex(r"--?[a-z][a-z-]{0,6}", fullmatch=True), max_size=3)


@given(_WORD, st.lists(_WORD, min_size=1, max_size=4), _FLAGS, _FLAGS, st.lists(_WORD, max_size=3))
def test_flags_and_earlier_steps_do_not_make_another_call(
    program: str, args: list[str], flags: list[str], more: list[str], step: list[str]
) -> None:
    """Bare flags say how a command prints and an earlier step (``git pull &&``) what ran
    before: the same program and arguments look again. Other arguments do not."""
    first = f"bash: {' '.join([program, *flags, *args])}"
    before = f"{' '.join(['git', *step])} && " if step else ""
    again = f"bash: {before}{' '.join([program, *args, *more])}"
    assert looks_again(first, again)
    assert not looks_again(first, f"bash: {program} {' '.join(args)} {program}x")
    assert not looks_again(first, f"python: {program} {' '.join(args)}")
