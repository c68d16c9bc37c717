"""A correction in any words: which value is old is read from what was said before.

The correction sentences here use phrasings no stale-value pattern knows ("swap X for
Y", "forget X, use Y", "X has been renamed to Y"): with a word saying that something
changed, the value the sentence shares with an earlier statement, beside a new value of
the same shape, is the stale one. Without such a word, or with a value of another shape,
nothing is replaced. Values are drawn at random in several shapes. (A capitalized word
that opens a sentence is not read as a name: it may be any word. The forms here put a
word before it.)
"""

from __future__ import annotations

import itertools
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction.extract import extract_items
from langgraph_compact.compaction.merge import merge_items
from langgraph_compact.compaction.moves import moved_values
from langgraph_compact.compaction.sentences import unasserted
from langgraph_compact.compaction.shapes import value_tokens
from langgraph_compact.compaction.stale import stale_values
from langgraph_compact.compaction.subject import statement, superseded_values
from langgraph_compact.compaction.summary import Section, SummaryItem

_lower = st.text(string.ascii_lowercase, min_size=3, max_size=7)
_digits = st.integers(10, 99_999).map(str)
SHAPES = {
    "time": st.builds(lambda h, m: f"{h:02d}:{m:02d} UTC", st.integers(0, 23), st.integers(0, 59)),
    "host:port": st.builds(lambda h, n, p: f"{h}-{n}.internal:{p}", _lower, _digits, _digits),
    "branch": st.builds(lambda a, b: f"release/{a}.{b}", st.integers(1, 9), st.integers(0, 20)),
    "name": st.builds(lambda w: w.capitalize() + "son", _lower),
}
FIRSTS = ("The billing owner is {old}.", "Deploy to {old} for the staging run.")
FORMS = (
    "Swap {old} for {new}.",
    "Forget {old}, use {new}.",
    "Scratch {old}, it is {new}.",
    "The old {old} has been renamed to {new}.",
    "Disregard {old}, the billing owner is {new}.",
    "Now {new} supersedes {old}.",
    "{old} was wrong, it is {new}.",
)


def _merged(*texts: str) -> str:
    found = []
    for n, text in enumerate(texts):
        found += extract_items(HumanMessage(text, id=f"h{n}"), 1 + 4 * n, {})
    return "\n".join(i.text for items in merge_items({}, found).values() for i in items)


def _pair(shape: str) -> st.SearchStrategy[tuple[str, str]]:
    values = SHAPES[shape]
    return st.tuples(values, values).filter(lambda p: p[0] != p[1] and p[0] not in p[1])


@pytest.mark.parametrize("held", [True, False])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_a_correction_in_any_words_replaces_the_value_said_before(
    form: str, shape: str, held: bool, data: st.DataObject
) -> None:
    """Held, or given up by an earlier summary with only its value tokens remembered
    (``evicted``): the correction knows which value is old, and does not show it."""
    old, new = data.draw(_pair(shape))
    if held:
        shown = _merged(
            data.draw(st.sampled_from(FIRSTS)).format(old=old), form.format(old=old, new=new)
        )
        assert new in shown
        assert old not in shown, shown
        return
    later = extract_items(HumanMessage(form.format(old=old, new=new), id="h9"), 9, {})
    merged = merge_items({}, later, evicted=frozenset(value_tokens([old])))
    shown = "\n".join(i.text for items in merged.values() for i in items)
    assert new in shown
    assert old not in shown, shown
    if any(old in i.text for _, i in later):  # shown with it until merged: it is remembered
        corrected = [i for items in merged.values() for i in items if new in i.text]
        assert all(value_tokens(i.stale) & value_tokens([old]) for i in corrected)
    if not any(i.stale for _, i in later):  # what the form's own words do not mark stale
        kept = merge_items({}, later, evicted=frozenset({"09:00", "utc", "v1.2.3"}))  # others'
        assert not any(old in i.stale for items in kept.values() for i in items)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_naming_two_values_without_a_change_replaces_nothing(
    shape: str, data: st.DataObject
) -> None:
    old, new = data.draw(_pair(shape))
    shown = _merged(f"The billing owner is {old}.", f"Both {old} and {new} review the release.")
    assert old in shown and new in shown
    given_up = frozenset(value_tokens([old]))
    later = extract_items(HumanMessage(f"Both {old} and {new} review it.", id="h9"), 9, {})
    merged = merge_items({}, later, evicted=given_up)
    assert any(old in i.text for items in merged.values() for i in items)


UNASSERTED = (
    "Is the billing owner {new}?",
    "Could the billing owner be {new} instead?",
    "What if the billing owner were {new}?",
    "If we moved the billing to {new} we would save a day.",
    "Option B would be to make {new} the billing owner instead of {old}, because it is faster.",
    "We could switch from {old} to {new} next quarter.",
)


def _speakers(first: str, later: str) -> list[tuple[str, list[tuple[object, SummaryItem]]]]:
    """``later`` said by a person and by the assistant, each after ``first``."""
    out = []
    for role in (HumanMessage, AIMessage):
        found = extract_items(HumanMessage(first, id="h0"), 1, {})
        found += extract_items(role(later, id="h1"), 5, {})
        out.append((role.__name__, found))
    return out


@pytest.mark.parametrize("form", UNASSERTED)
@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_question_or_what_might_be_replaces_nothing(
    form: str, shape: str, data: st.DataObject
) -> None:
    """What someone asks or weighs is said, not stated: the value stated before stays,
    and nothing of it is shown as a decision or a correction."""
    old, new = data.draw(_pair(shape))
    first, later = f"The billing owner is {old}.", form.format(old=old, new=new)
    for who, found in _speakers(first, later):
        merged = merge_items({}, found)
        shown = "\n".join(i.text for items in merged.values() for i in items)
        assert old in shown, (who, shown)
        assert Section.DECISIONS not in merged, (who, merged)
        assert not any(i.stale or i.kind == "correction" for _, i in found), (who, found)


@pytest.mark.parametrize(
    "stated",
    [
        "I could not reach db-1.internal:5432, so use db-2.internal:5432 instead.",
        "Correction: it would be 09:00 UTC, not 14:00 UTC.",
        "Brennan might be out, so the owner is Okafor now.",
        "You might have missed it: the port is 9090 now.",
        "That might be confusing, but the timeout is 45s now, not 30s.",
        "We decided that we would use Postgres 16 because MERGE is needed.",
        "Could not find config at /etc/app/config.yaml; the config is at /opt/app/config.yaml.",
    ],
)
def test_a_possibility_in_another_clause_or_a_failure_still_states(stated: str) -> None:
    # "could not" says what failed; a labelled correction or a decision made is stated;
    # a possibility in a clause of its own leaves the value's clause stated
    assert not unasserted(stated)


def test_a_condition_alone_still_states_its_main_clause() -> None:
    # only a possibility (would, could, might) or a question makes a sentence unasserted
    shown = _merged(
        "The build log is at /var/log/build-1.log.",
        "If the build fails, the build log is at /var/log/build-2.log.",
    )
    assert "/var/log/build-2.log" in shown and "/var/log/build-1.log" not in shown, shown


def test_a_change_word_with_a_value_of_another_shape_replaces_nothing() -> None:
    old = statement("Deploy to db-3.internal:5432 for the staging run.")
    assert moved_values(statement("Move db-3.internal:5432 traffic at 09:40 UTC."), old) == ()
    assert moved_values(statement("Move db-3.internal:5432 to db-9.internal:6543."), old) == (
        "db-3.internal:5432",
    )


@pytest.mark.parametrize(
    ("sentence", "stale"),
    [
        ("14:05 UTC was wrong, it is 09:40 UTC.", ["14:05 UTC"]),
        ("db-3.internal:5432 is deprecated, use db-9.internal:6543.", ["db-3.internal:5432"]),
        ("Note: db-3.internal:5432 is deprecated.", ["db-3.internal:5432"]),
    ],
)
def test_what_is_wrong_is_the_value_before_it_whole(sentence: str, stale: list[str]) -> None:
    # a colon inside a value ends no clause; "was wrong" is not "(was X)"
    assert stale_values(sentence) == stale


@pytest.mark.parametrize("subject", ["Nothing", "It", "None of it", "Everything", "This"])
@pytest.mark.parametrize("role", [HumanMessage, AIMessage])
def test_a_pronoun_said_to_be_wrong_is_no_stale_value(
    subject: str, role: type[HumanMessage] | type[AIMessage]
) -> None:
    # "Nothing is wrong with it" corrects nothing: shown without its subject, the line
    # would say the opposite ("is wrong with it")
    sentence = f"{subject} is wrong with the db-1.internal:5432 setup, keep the 8443 port."
    assert stale_values(sentence) == []
    for _, item in extract_items(role(sentence, id="m"), 3, {}):
        assert not item.stale and not item.text.startswith("is wrong"), item.text


def _tool_turn(output: str, n: int) -> list[tuple[AIMessage | ToolMessage, int]]:
    call = {"name": "bash", "args": {"command": "env"}, "id": f"c{n}"}
    return [
        (AIMessage("", tool_calls=[call], id=f"a{n}"), n),
        (ToolMessage(output, tool_call_id=f"c{n}", id=f"t{n}"), n + 1),
    ]


def test_a_setting_a_tool_prints_again_replaces_the_one_stated_under_its_name() -> None:
    said = extract_items(HumanMessage("Set QUEUE_HOST=db-50.internal in the env.", id="h"), 1, {})
    same, other = "QUEUE_HOST=relay-13.internal\nloaded", "CACHE_HOST=relay-13.internal\nloaded"
    for output, replaced in ((same, True), (other, False)):
        found = list(said)
        for message, seq in _tool_turn(output, 5):
            found += extract_items(message, seq, {"c5": {"name": "bash", "args": {}, "id": "c5"}})
        shown = "\n".join(i.text for items in merge_items({}, found).values() for i in items)
        assert "relay-13.internal" in shown
        assert ("db-50.internal" not in shown) is replaced, shown


def test_an_answers_specific_value_is_kept_and_a_vague_key_value_is_not() -> None:
    calls = {"c1": {"name": "bash", "args": {"command": "x"}, "id": "c1"}}
    answer = ToolMessage("region = EU-WEST-3;\ndone", tool_call_id="c1", id="t1")
    vague = ToolMessage("Expected: Should work", tool_call_id="c1", id="t2")
    assert any("EU-WEST-3" in i.text for _, i in extract_items(answer, 2, calls))
    assert not [i for _, i in extract_items(vague, 3, calls) if i.kind == "fact"]


def test_an_argument_naming_a_key_as_a_whole_is_an_identifier() -> None:
    call = {"name": "cache_get", "args": {"key": "cache:users"}, "id": "c1"}
    items = extract_items(AIMessage("", tool_calls=[call], id="a"), 2, {})
    assert [i.text for _, i in items if i.kind == "identifier"] == ["cache_get key: cache:users"]


@pytest.mark.parametrize(
    ("before", "after", "kept"),
    [
        # two rules naming one host: both hold
        (
            "Do not restart db-1.internal during business hours.",
            "Do not update db-1.internal or db-2.internal without approval.",
            "db-1.internal during business hours",
        ),
        # a change word beside a list of values ties none of them
        (
            "The primary db host is db-1.internal.",
            "Please update the configs on db-1.internal and db-2.internal.",
            "The primary db host is db-1.internal",
        ),
        # across a ";" nothing is tied: the replica the user kept stays
        (
            "The replica host is db-1.internal.",
            "Update: the primary host is db-2.internal; the replica host stays db-1.internal.",
            "db-1.internal",
        ),
        # a value restated with a qualifier is the same value
        (
            "Point the cache host at redis-1.internal please.",
            "The cache host is redis-1.internal for prod.",
            "redis-1.internal",
        ),
        # a key that says what kind of value is not a subject by itself
        ("Harlow employee ID: 44123", "Brennan employee ID: 55219", "44123"),
    ],
)
def test_what_is_not_a_correction_keeps_the_earlier_value(
    before: str, after: str, kept: str
) -> None:
    assert kept in _merged(before, after)


@pytest.mark.parametrize(
    "taken_back",
    [
        "Scratch what I said about the gateway. We go through {new} now.",
        "Forget what I told you about the gateway. It's {new}.",
        "Disregard what I wrote earlier. We connect via {new}.",
    ],
)
def test_taking_back_what_was_said_with_the_value_in_the_next_sentence_replaces_it(
    taken_back: str,
) -> None:
    old, new = "10.20.30.40:1194", "10.20.31.7:443"
    shown = _merged(f"The VPN gateway is {old}.", taken_back.format(new=new))
    assert new in shown and old not in shown, shown


def test_a_person_naming_a_value_in_few_words_is_kept() -> None:
    shown = _merged("Prepare the rollout.", "We go through 10.20.31.7:443 now.")
    assert "We go through 10.20.31.7:443 now." in shown, shown


NAMES = ["Øyvind Hægstad", "Zoë Kowalczyk-Nuñez", "Αλέξης Παππάς", "Мария Иванова", "김민준",
         "高橋 健太", "Oscar Lind"]  # fmt: skip


@pytest.mark.parametrize(("old", "new"), list(itertools.permutations(NAMES, 2)))
def test_a_name_in_any_script_is_a_value_stated_and_corrected(old: str, new: str) -> None:
    assert old in _merged(f"The incident commander is {old}.")
    shown = _merged(
        f"The incident commander is {old}.",
        f"The incident commander is no longer {old}; it is {new}.",
    )
    assert new in shown and old not in shown, shown


def test_a_value_said_before_for_another_subject_is_not_the_new_one() -> None:
    shown = _merged(
        "The approver is Brennan.",
        "The billing owner is Harlow.",
        "Please swap Harlow for Brennan as billing owner.",
    )
    assert "The approver is Brennan" in shown


def test_a_correction_with_no_value_left_still_strikes_what_it_names() -> None:
    shown = _merged("Write the logs to logs-old-2.", "logs-old-2 is deprecated.")
    assert "logs-old-2" not in shown


def test_an_unrelated_leading_value_is_not_taken_with_the_stale_one() -> None:
    assert stale_values("As of v2 /api/v1/orders is deprecated.") == ["/api/v1/orders"]


def test_an_option_argument_and_a_code_answer_are_not_identifiers() -> None:
    call = {"name": "str_replace_editor", "args": {"command": "str_replace"}, "id": "c1"}
    items = extract_items(AIMessage("", tool_calls=[call], id="a"), 2, {})
    assert not [i for _, i in items if i.kind == "identifier"]
    calls = {"c1": {"name": "bash", "args": {"command": "cat a.py"}, "id": "c1"}}
    code = ToolMessage("import os.path\nfrom app.models import User", tool_call_id="c1", id="t")
    assert not [i for _, i in extract_items(code, 3, calls) if i.kind == "identifier"]


_KEY = st.builds(lambda a, b: f"{a}_{b}".upper(), _lower, _lower)
_WORDS = st.lists(_lower, min_size=1, max_size=4).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(lead=_WORDS, key=_KEY, value=SHAPES["host:port"], rest=_WORDS)
def test_an_assignment_inside_a_sentence_states_its_value_and_names_its_setting(
    lead: str, key: str, value: str, rest: str
) -> None:
    found = statement(f"The {lead} {key}={value} {rest}.")
    assert found.main == (value,) and key.casefold() in found.names


@settings(max_examples=25, deadline=None)
@given(key=_lower, old=SHAPES["time"], new=SHAPES["time"])
def test_a_tool_printing_the_same_key_again_replaces_its_earlier_value(
    key: str, old: str, new: str
) -> None:
    if old == new:
        return
    found = []
    for n, value in enumerate((old, new)):
        line = f"$ grep {key} limits.yaml\n    {key}: {value}"
        for message, seq in _tool_turn(line, 1 + 4 * n):
            call = {"name": "bash", "args": {}, "id": f"c{1 + 4 * n}"}
            found += extract_items(message, seq, {f"c{1 + 4 * n}": call})
    shown = "\n".join(i.text for items in merge_items({}, found).values() for i in items)
    assert new in shown and old not in shown, shown


def test_settings_under_different_names_do_not_replace_each_other() -> None:
    first, second = statement("setting_3 = 1003"), statement("setting_4 = 1004")
    assert superseded_values(second, first) == ()  # the same words, but two names


def test_a_new_value_that_begins_like_the_old_one_still_replaces_it() -> None:
    shown = _merged(
        "Deploy to release/1.10 for the staging run.",
        "Disregard release/1.10, the billing owner is release/1.1.",
    )
    assert "release/1.1" in shown and "release/1.10" not in shown, shown


def test_a_bare_value_beside_saying_the_last_one_was_wrong_is_the_correction() -> None:
    """ "It's Y." says too little to be kept on its own; beside "I had it wrong" it is the
    correction, and the one earlier value of its shape goes."""
    shown = _merged("The staging window is 09:00 UTC.", "I wrote the time wrong. It's 15:32 UTC.")
    assert "15:32 UTC" in shown
    assert "09:00 UTC" not in shown, shown
    assert "It's 15:32 UTC." not in _merged("The staging window is 09:00 UTC.", "It's 15:32 UTC.")


def test_a_correction_finds_no_statement_by_the_shape_of_a_hyphenated_word() -> None:
    """ "pre-trip" beside a correction is a word, not a value: "non-negotiable" is not what
    it corrects."""
    first = "One thing is non-negotiable: the dose ceiling stays at 411.5mg/day."
    later = "Correction to what I said before: the box is PLJU013961-3, not the pre-trip one."
    assert "411.5mg/day" in _merged(first, later)


def test_a_value_said_before_is_not_taken_for_the_old_one_when_named_second() -> None:
    """09:00 UTC was said before and evicted, but "from 08:00 UTC to 09:00 UTC" moves to
    it: said before is not proof of old, so nothing of it is elided and it stays true."""
    later = [
        *extract_items(
            HumanMessage("Change the staging window from 08:00 UTC to 09:00 UTC.", id="h8"), 8, {}
        ),
        *extract_items(HumanMessage("The freeze window is 09:00 UTC.", id="h9"), 9, {}),
    ]
    merged = merge_items({}, later, evicted=frozenset({"09:00", "utc"}))
    shown = "\n".join(i.text for items in merged.values() for i in items)
    assert "to 09:00 UTC" in shown and "The freeze window is 09:00 UTC" in shown, shown


def test_a_subjectless_correction_with_a_like_value_evicted_replaces_nothing() -> None:
    """One like value held and another given up: which one it meant is not known."""
    first = extract_items(HumanMessage("The staging window is 09:00 UTC.", id="h1"), 1, {})
    held = merge_items({}, first)
    later = extract_items(
        HumanMessage("I gave you the wrong time earlier. It's 15:32 UTC.", id="h9"), 9, {}
    )
    merged = merge_items(held, later, evicted=frozenset({"11:00", "utc"}))
    assert any("09:00 UTC" in i.text for items in merged.values() for i in items)


@pytest.mark.parametrize("text", ["", "   ", "```py\nx = 1\n```", "---"])
def test_a_turn_with_no_sentence_has_no_items_and_raises_nothing(text: str) -> None:
    assert extract_items(HumanMessage(text, id="e"), 3, {}) == []


@pytest.mark.parametrize(
    "later",
    [
        "I received the wrong item earlier, order #W1234567.",  # when, not what was said
        "Before, you used the wrong flag. Also start order #W1234567 for tests.",
    ],
)
def test_wrong_about_an_event_corrects_no_statement(later: str) -> None:
    shown = _merged("My order #W7654321 should arrive on Friday.", later)
    assert "#W7654321" in shown, shown


def test_a_correction_between_two_values_of_one_statement_replaces_neither() -> None:
    shown = _merged(
        "My orders are #W7654321 and #W2222222.",
        "I gave you the wrong order number earlier. It's #W1234567.",
    )
    assert "#W7654321" in shown and "#W2222222" in shown, shown


RULES = (
    "{old} must never be written to during the freeze.",
    "Never write during the freeze to {old}",
    "During the freeze only write to {old} from the runner.",
    "{old}, and every replica of it, must never be written to during the freeze.",
    "During the freeze never write to {old}; read from the runner.",
)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("shape", ["branch", "host:port", "name"])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_a_rule_shown_without_its_stale_value_shows_where_it_was(
    shape: str, rule: str, data: st.DataObject
) -> None:
    """A rule keeps its words once its value is corrected, and ``…`` stands where the
    value was, at the start or end of the line too: what is left must not read as the
    whole rule. Every other character is the rule's own, but for the clause separator
    that followed the value."""
    old, new = data.draw(_pair(shape))
    said = rule.format(old=old)
    merged = _merged(said, f"Correction: {old} is retired, it is now {new}.").splitlines()
    shown = next(line for line in merged if "freeze" in line)
    before, _, after = (part.strip() for part in said.partition(old))
    after = re.sub(r"^[,;]\s*", "", after)
    assert shown == " ".join(p for p in (before, "…", after) if p), (said, shown)
