"""A call run again replaces what its earlier output said (``compaction.rerun``).

A command run again names no subject and says nothing changed: it shows the state anew.
"The same call" is the tool's name and whole arguments, as the projection's dedupe reads
it; a command line of several steps also runs its last step again, one way only
(``git pull && ./print-version.sh`` runs ``./print-version.sh`` again, but what ``cat
prod.env && ./state.sh`` printed is no ``./state.sh`` output alone); another flag,
argument, script body or a step that changes where the last one runs (``cd prod && …``)
is another call and replaces nothing.
The facts read from the earlier output must not stand beside the new ones once the new
output is summarized too (merge). A run that failed replaces nothing, a fact another call
printed too stays, and the error an earlier run printed stays, as history. While the new
output is still in view, the summary shown does not change: a run again is no compaction
event, and the cached prefix stays as it was.
"""

from __future__ import annotations

import pytest
from factories import ai_tool_call, file_reads, human, system, tool_result
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage, ToolMessage

from langgraph_compact import Budget, CompactionResult, CompactionSettings, compact
from langgraph_compact.compaction.rerun import call_key, last_step, runs_again
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
BUDGETS = (2_000, 4_000, 8_000)
OUTPUTS = {
    # an output printing the value on a line of its own, with no key: old value, new value
    "metar": (
        "{v} 9999 FEW025 BKN040 12/04 Q1018\n(cached)",
        "EGLL 250220Z 13013G30KT",
        "LFPG 052020Z 26008G30KT",
    ),
    "version": ("{v}\n(built 3 days ago)", "v5.12.2-rc.5+build.4642", "v5.6.27-rc.8+build.6211"),
    "host": ("connected to {v} in 14 ms\nok", "db-7.internal:5432", "db-9.internal:6432"),
}
COMMAND = "wx show --station primary"
OTHER = {
    # a first command, a later one that is another call: another file, another step
    # before it, another flag, another argument, another script under the same first line
    "other file": ("cat ci/staging.env", "cat ci/prod.env"),
    "other step": ("./state.sh", "cd prod && ./state.sh"),
    "other env": ("./state.sh", "source prod.env; ./state.sh"),
    "other first step": ("cat ci/staging.env && echo ok", "cat ci/prod.env && echo ok"),
    "steps before": ("cat ci/prod.env && ./state.sh", "git pull && ./state.sh"),
    "other flag": ("uname -r", "uname -m"),
    "other argument": ("wx show --station=EGLL", "wx show --station=LFPG"),
    "other script": ("python - <<EOF\nprint(1)\nEOF", "python - <<EOF\nprint(2)\nEOF"),
}


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
        *file_reads(turns, 0),
    ]
    if in_view:
        return [*raw, *file_reads(turns, turns), *_run(again, output.format(v=new), "new")]
    return [*raw, *_run(again, output.format(v=new), "new"), *file_reads(turns, turns)]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("shape", list(OUTPUTS))
def test_a_call_run_again_replaces_what_it_printed(shape: str, budget: int) -> None:
    output, old, new = OUTPUTS[shape]
    result = _compacted(_history(COMMAND, COMMAND, output, old, new, budget, in_view=False), budget)
    shown = "\n".join(message_text(m) for m in result.messages)
    assert new in shown
    assert old not in shown, shown


@pytest.mark.parametrize("before", ["git pull && ", "make build; ", "sleep 5\n"])
@pytest.mark.parametrize("shape", list(OUTPUTS))
def test_a_call_run_again_after_other_steps_replaces_what_it_printed(
    shape: str, before: str
) -> None:
    """The steps before it change the state the command reports, not what it reports on."""
    output, old, new = OUTPUTS[shape]
    raw = _history(COMMAND, before + COMMAND, output, old, new, 4_000, in_view=False)
    shown = "\n".join(message_text(m) for m in _compacted(raw, 4_000).messages)
    assert new in shown
    assert old not in shown, shown


@pytest.mark.parametrize("shape", ["metar"])  # a keyed value is struck by its key
def test_a_run_again_in_view_leaves_the_summary_shown_as_it_was(shape: str) -> None:
    """No compaction event, no rewrite: the summary the previous call showed is shown
    again word for word when the same call runs again at the end."""
    output, old, new = OUTPUTS[shape]
    raw = _history(COMMAND, COMMAND, output, old, new, 8_000, in_view=True)
    before = _compacted(raw[:-2], 8_000)
    after = compact(raw, before.summary, CompactionSettings(_budget(8_000), counter=COUNTER))
    assert before.summary is not None and old in before.summary.render()
    assert after.messages[: len(before.messages)] == before.messages
    assert new in message_text(after.messages[-1])


@pytest.mark.parametrize("other", list(OTHER))
@pytest.mark.parametrize("shape", list(OUTPUTS))
def test_another_call_replaces_nothing(shape: str, other: str) -> None:
    output, old, new = OUTPUTS[shape]
    first, later = OTHER[other]
    result = _compacted(_history(first, later, output, old, new, 8_000, in_view=False), 8_000)
    assert result.summary is not None
    summary = result.summary.render()
    assert old in summary and new in summary, summary


def test_a_failed_run_replaces_nothing() -> None:
    """A run that failed says nothing of the state: what the last good run printed stays."""
    output, old, _ = OUTPUTS["host"]
    call = ai_tool_call("bash", {"command": COMMAND}, id="new-call")
    failed = ToolMessage(
        "Error: connection timed out", tool_call_id=call.tool_calls[0]["id"] or "", name="bash",
        id="new", status="error",
    )  # fmt: skip
    summary = _summary_between(_run(COMMAND, output.format(v=old), "old"), [call, failed])
    assert old in summary, summary


def _summary_between(before: list[BaseMessage], after: list[BaseMessage]) -> str:
    """The summary at 8,000 tokens of ``before``, reads, ``after``, more reads."""
    turns = 8_000 // 150
    raw = [
        system(id="s"),
        human("Keep the station report current.", id="h"),
        *before,
        *file_reads(turns, 0),
        *after,
        *file_reads(turns, turns),
    ]
    result = _compacted(raw, 8_000)
    assert result.summary is not None
    return result.summary.render()


def test_a_fact_another_call_printed_too_is_no_one_runs() -> None:
    """``STACK=orion-42`` printed by ``cat deploy.env`` and by ``./status.sh``: running
    ``./status.sh`` again without it does not take it, ``deploy.env`` still says it."""
    summary = _summary_between(
        [
            *_run("cat deploy.env", "STACK=orion-stack-42\nREGION=eu-west-3", "env"),
            *_run("./status.sh", "STACK=orion-stack-42 healthy", "old"),
        ],
        _run("./status.sh", "all healthy", "new"),
    )
    assert "orion-stack-42" in summary, summary


def test_an_error_stays_when_its_call_runs_again() -> None:
    """What failed is history: running the call again replaces its facts, not its error."""
    failed = (
        "Traceback (most recent call last):\nConnectionRefusedError: db-7.internal:5432 refused"
    )
    summary = _summary_between(
        _run("./tools/print-state.sh", failed, "old"),
        _run("./tools/print-state.sh", "primary: db-9.internal:6432", "new"),
    )
    assert "ConnectionRefusedError: db-7.internal:5432" in summary, summary
    assert "db-9.internal:6432" in summary


_ARGS = st.dictionaries(
    st.from_regex(r"[a-z]{1,8}", fullmatch=True),
    st.one_of(st.text(max_size=30), st.integers(), st.lists(st.text(max_size=8), max_size=3)),
    max_size=4,
)


@given(st.sampled_from(["bash", "read_file", "get_user"]), _ARGS, _ARGS)
def test_the_same_call_is_its_name_and_whole_arguments(name: str, a: dict, b: dict) -> None:
    """Two calls are one when their names and arguments are, whatever the key order; any
    other argument (a flag, a step, a script line) is another call."""
    same = call_key({"name": name, "args": a}) == call_key({"name": name, "args": b})
    assert same == (a == b)
    assert call_key({"name": name, "args": dict(reversed(list(a.items())))}) == call_key(
        {"name": name, "args": a}
    )
    assert call_key({"name": name, "args": a}) != call_key({"name": name + "x", "args": a})


_WORD = st.from_regex(r"[a-z][a-z0-9./-]{0,10}", fullmatch=True)
_STEP = st.lists(_WORD, min_size=1, max_size=4).map(" ".join)


@given(st.lists(_STEP, min_size=2, max_size=4), st.sampled_from([" && ", "; ", "\n"]))
def test_a_command_line_runs_its_last_step_unless_a_step_changes_where(
    steps: list[str], joint: str
) -> None:
    """``a && b`` reports what ``b`` does; after ``cd``, ``source`` or ``X=1`` it is
    another ``b``, and a quoted ``&&`` or a script is no step at all."""
    context = {"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "alias"}
    context |= {"env", "exec"}
    line = joint.join(steps)
    moved = any(s.split()[0] in context for s in steps[:-1])
    scripted = bool(set(line.split()) & {"for", "while", "until", "if", "case", "function"})
    assert last_step(line) == (line if moved or scripted else steps[-1])
    assert last_step(f"echo '{line}'") == f"echo '{line}'"
    assert last_step("cd deploy" + joint + line) == "cd deploy" + joint + line
    if moved or scripted:
        return
    assert last_step(line + "  # " + line) == steps[-1]  # a comment runs nothing
    key = call_key({"name": "bash", "args": {"command": line}})
    alone = call_key({"name": "bash", "args": {"command": steps[-1]}})
    assert alone in runs_again(key) and key not in runs_again(alone)
