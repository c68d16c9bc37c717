"""What a speaker introduces outranks what they repeat: a value's first appearance.

An assistant sentence naming a value that no earlier message holds (its plan, its
choice) is raised to ``NOVEL_SALIENCE``; the same sentence repeating a value a tool
printed before keeps its base salience, whatever the words around the value.
"""

from __future__ import annotations

from factories import ai, ai_tool_call, file_reads, human, system, tool_result
from hypothesis import given
from hypothesis import strategies as st

from langgraph_compact.compaction.candidates import SALIENCE
from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.novelty import NOVEL_SALIENCE
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    SummaryRequest,
    extract_span,
)
from langgraph_compact.compaction.summary import Section
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
word = st.text("abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=9)
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


def _decisions(span: list, text: str) -> list:
    head = [system(id="s"), human("Fix the importer.", id="h")]
    request = SummaryRequest(None, head, span, 2, 1_000, COUNTER.count_text)
    return [
        (section, i)
        for section, i in extract_span(request)
        if i.kind == "decision" and i.text in text
    ]


@given(value, word, plans)
def test_a_plan_introducing_its_value_is_a_decision(v: str, w: str, plan: str) -> None:
    """A plan with no stated reason is a step ("I'll run the tests") unless it introduces
    its value: then it is what the assistant chose, ranked and shown as a decision."""
    text = plan.format(w=w, v=v)
    said = ai(f"Compared both.\n\n{text}", id="a")
    found = _decisions([said], text)
    assert found, text
    assert all(s is Section.DECISIONS and i.salience == SALIENCE["ai.decision"] for s, i in found)
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
    head = [system(id="s"), human("Fix the importer.", id="h")]
    span = [ai(f"Compared both.\n\n{text}", id="a"), *file_reads(2)]
    request = SummaryRequest(None, head, span, 2, 1_000, COUNTER.count_text)
    draft = ExtractiveSummarizer().summarize(request)
    decisions = [i for i in draft.sections.get(Section.DECISIONS, ()) if i.text == text]
    assert len(decisions) == 1, draft.sections
