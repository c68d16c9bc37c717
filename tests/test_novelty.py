"""What a speaker introduces outranks what they repeat: a value's first appearance.

An assistant sentence naming a value that no earlier message holds (its plan, its
choice) is raised to ``NOVEL_SALIENCE``; the same sentence repeating a value a tool
printed before keeps its base salience, whatever the words around the value.
"""

from __future__ import annotations

import pytest
from factories import ai, ai_tool_call, file_reads, human, system, tool_result
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage

from langgraph_compact import Budget, CompactionSettings, compact
from langgraph_compact.compaction.candidates import SALIENCE
from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.novelty import NOVEL_SALIENCE
from langgraph_compact.compaction.summarize import (
    SummaryRequest,
    extract_span,
)
from langgraph_compact.compaction.summary import Section
from langgraph_compact.compaction.text import function_words_only
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
# a word naming a thing: a pronoun ("them", "this") names nothing a setting is about
word = st.text("abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=9).filter(
    lambda w: not function_words_only(w)
)
port = st.integers(1025, 65000)
value = st.one_of(
    st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(0, 23), st.integers(0, 59)),
    st.builds(lambda w, n, p: f"{w}-{n}.internal:{p}", word, st.integers(2, 99), port),
    st.builds(lambda a, n: f"{a.upper()}-{n}", word, st.integers(100, 99999)),
)
frames = st.sampled_from(
    ["All set: the {w} happens at {v}, after the freeze.", "The {w} goes to {v} from now on.",
     "Noted for later: {v} is where the {w} lives."]
)  # fmt: skip


def _weight(span: list, text: str) -> float:
    head = [system(id="s"), human("Fix the importer.", id="h")]
    request = SummaryRequest(None, head, span, 2, 1_000, COUNTER.count_text)
    found = [i for _, i in extract_span(request) if i.origin == "ai" and i.text in text]
    assert found, text
    return max(i.salience for i in found)


@given(value, word, frames)
def test_an_assistant_sentence_introducing_a_value_outranks_one_repeating_it(
    v: str, w: str, frame: str
) -> None:
    text = frame.format(w=w, v=v)
    said = ai(f"Let me think.\n\n{text}", id="a")
    assert _weight([said], text) == NOVEL_SALIENCE["ai"]
    call = ai_tool_call("bash", {"command": f"cat {w}.conf"}, id="c")
    printed = tool_result(call, f"{w}_setting = {v}\nok", id="t")
    assert _weight([call, printed, said], text) < NOVEL_SALIENCE["ai"]


names = st.builds(lambda a, b, c: f"{a}.{b}.max_{c}", word, word, word)


@given(names, word)
def test_an_assistant_sentence_naming_a_dotted_name_is_kept(name: str, w: str) -> None:
    """A name joined by dots (a setting, a module, an image) is a value, though it holds no
    digit: the assistant sentence naming it is an item, not dropped as chatter."""
    text = f"The {w} knob that matters here is {name}; everything else is default."
    items = [i for _, i in extract_items(ai(f"Checked.\n\n{text}", id="a"), 3, {})]
    assert any(name in i.text for i in items), items


@given(st.one_of(value, names), word)
def test_a_user_naming_a_value_in_words_no_cue_knows_ranks_with_stated_facts(
    v: str, w: str
) -> None:
    text = f"Build the {w} images on top of {v} if possible; the team likes it."
    items = [i for _, i in extract_items(human(text, id="u"), 3, {})]
    assert items and max(i.salience for i in items) >= SALIENCE["human.fact"] - 0.1, items


plans = st.sampled_from(
    ["I'll set {v} in the {w} config.", "Let's pin the {w} to {v}.",
     "We will move the {w} onto {v}.", "Choosing {v} for the {w}."]
)  # fmt: skip
WINDOW = Budget(context_window=2_000, reserved_output=0, compaction_reserve=0, safety_margin=0)


def _decisions(span: list, text: str) -> list:
    head = [system(id="s"), human("Fix the importer.", id="h")]
    request = SummaryRequest(None, head, span, 2, 1_000, COUNTER.count_text)
    return [
        i for section, i in extract_span(request) if section is Section.DECISIONS and i.text in text
    ]


def _summary(*said: BaseMessage) -> str:
    raw = [system(id="s"), human("Prepare the release pipeline.", id="h"), *said, *file_reads(40)]
    summary = compact(raw, None, CompactionSettings(WINDOW, counter=COUNTER)).summary
    assert summary is not None
    return summary.render()


@given(value, word, plans)
def test_a_plan_introducing_its_value_is_a_decision(v: str, w: str, plan: str) -> None:
    """A plan with no stated reason is a step ("I'll run the tests") unless it introduces
    its value: then it is what the assistant chose, ranked and shown as a decision."""
    text = plan.format(w=w, v=v)
    said = ai(f"Compared both.\n\n{text}", id="a")
    found = _decisions([said], text)
    assert found and all(i.salience == SALIENCE["ai.decision"] for i in found), text
    call = ai_tool_call("bash", {"command": f"cat {w}.conf"}, id="c")
    printed = tool_result(call, f"{w}_setting = {v}\nok", id="t")
    assert not _decisions([call, printed, said], text)  # read back, not chosen
    passed = ai_tool_call("bash", {"command": f"deploy --to {v}"}, text=text, id="p")
    assert not _decisions([passed], text)  # its own call carries the value
    asked = plan.format(w=w, v=v).rstrip(".") + "?"
    assert not _decisions([ai(f"Compared both.\n\n{asked}", id="q")], asked)


def test_a_person_planning_is_not_made_a_decision_by_novelty() -> None:
    """Only the assistant's plans: what a person says they will do is read by its cues."""
    text = "I'll set KX-48213 in the billing config."
    assert not _decisions([human(text, id="u")], text)


def test_a_plan_naming_two_new_ids_is_one_decision() -> None:
    text = "Let's pin the mirror to KX-48213 and the cache to QZ-90311."
    shown = _summary(ai(f"Compared both.\n\n{text}", id="a"))
    decisions = shown.split("Key Decisions", 1)[1]
    assert shown.count(text) == 1 and text in decisions, shown


def _tool_says(line: str) -> list[BaseMessage]:
    call = ai_tool_call("bash", {"command": "cat runner.yml"}, id="c")
    return [call, tool_result(call, line, id="t")]


@pytest.mark.parametrize(
    ("stated", "plan", "true"),
    [
        ([human("The runner host is build-7:2222.", id="u")],
         "I'll add a second runner host build-9:2310 for the load test.", "build-7:2222"),
        ([human("The runner host is build-7:2222.", id="u")],
         "I will not use the runner host build-9:2310.", "build-7:2222"),
        (_tool_says("runner_host: build-7:2222"),
         "I'll add a second runner host build-9:2310 for the load test.", "build-7:2222"),
        ([human("Correction: the staging window is now 10:00 UTC, not 09:00 UTC.", id="u")],
         "Let's do a dry run of the staging window at 15:32 UTC first.", "10:00 UTC"),
    ],
)  # fmt: skip
def test_a_plan_replaces_no_value_a_person_or_a_tool_stated(
    stated: list[BaseMessage], plan: str, true: str
) -> None:
    """A plan says what the assistant will try, not what a subject's value now is: the
    value stated before it stays in the summary beside it."""
    shown = _summary(*stated, ai(plan, id="p"))
    assert true in shown and plan in shown, shown


def test_a_plan_naming_a_like_id_leaves_a_subjectless_correction_its_referent() -> None:
    """The user's id is the one value of its shape the user stated: a correction naming no
    subject still replaces it, though the assistant named another id of that shape."""
    said = [
        human("My order id is KX-48213.", id="u1"),
        ai("I'll file the refund under ticket QZ-90311 for the order.", id="p1"),
    ]
    raw = [system(id="s"), human("Prepare the refund.", id="h"), *said, *file_reads(40)]
    later = human("I gave you the wrong ID earlier. It's KX-48299.", id="u2")
    result = compact([*raw, later], None, CompactionSettings(WINDOW, counter=COUNTER))
    assert result.summary is not None
    shown = result.summary.render()
    assert "KX-48213" not in shown and "QZ-90311" in shown, shown
