"""A change said in the passive names the new value: "the port was changed to 8443".

"was" before a value says it no longer holds ("8443 (was 8080)", "it was Monday"); "was"
before a verb and a preposition says what the value became, unless another value of its
shape follows ("was set to 30s, now 60s"). Read the first way, the new
value was elided as stale and the old one stayed. Here each form is merged after an
earlier statement of the old value, with values drawn in several shapes: the summary
shows the new value verbatim, and the old one only where the form says it is current.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_moved_values import _merged

from langgraph_compact.compaction.stale import stale_values
from langgraph_compact.compaction.subject import statement

_lower = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=7)
_digits = st.integers(10, 99_999).map(str)
SHAPES = {
    "port": _digits,
    "time": st.builds(lambda h, m: f"{h:02d}:{m:02d} UTC", st.integers(0, 23), st.integers(0, 59)),
    "host:port": st.builds(lambda h, n, p: f"{h}-{n}.internal:{p}", _lower, _digits, _digits),
    "branch": st.builds(lambda a, b: f"release/{a}.{b}", st.integers(1, 9), st.integers(0, 20)),
}
FIRST = "The {subject} is {old}."
CHANGED = (  # the new value is what the passive names
    "Actually the {subject} was changed to {new}.",
    "Correction: the {subject} was moved to {new} this morning.",
    "Correction: the {subject} was rolled back to {new}.",
    "Correction: the {subject} was changed from {old} to {new}.",
    "Correction: the {subject} was set to {new}, not {old}.",
    "Correction: the {subject} has been changed to {new}.",
    "Update: the {subject} got bumped up to {new}.",
    "Correction: the {subject} had been reassigned to {new}.",
    "Actually the {subject}'s been moved to {new}.",
)
LATER = (  # the passive names the old value: another of its shape follows
    "Correction: the {subject} was set to {old}, now {new}.",
    "Actually the {subject} was pointing to {old}, now {new}.",
    "Correction: the {subject} was set to {old}, but we changed it to {new}.",
    "Correction: the {subject} was set to {old} by mistake; it should be {new}.",
    "Correction: the {subject} was supposed to be {old} but it is {new}.",
    "Correction: the {subject} was {old}, it is {new} now.",
    "Correction: the {subject} has been set to {old}, now {new}.",
    "Correction: the {subject} got set to {old} by mistake; it should be {new}.",
)
SUBJECTS = ("API port", "staging window", "primary host", "release branch")


def _pair(shape: str) -> st.SearchStrategy[tuple[str, str]]:
    """Two values of ``shape``, neither inside the other."""
    return st.tuples(SHAPES[shape], SHAPES[shape]).filter(
        lambda v: v[0] not in v[1] and v[1] not in v[0]
    )


@pytest.mark.parametrize("form", CHANGED + LATER)
@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_new_value_is_shown_and_the_old_one_is_not(
    form: str, shape: str, data: st.DataObject
) -> None:
    old, new = data.draw(_pair(shape))
    subject = data.draw(st.sampled_from(SUBJECTS))
    shown = _merged(
        FIRST.format(subject=subject, old=old), form.format(subject=subject, old=old, new=new)
    )
    assert new in shown, shown
    assert old not in shown, shown


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_what_a_passive_change_names_is_never_marked_stale(shape: str, data: st.DataObject) -> None:
    old, new = data.draw(_pair(shape))
    for form in CHANGED:
        sentence = form.format(subject="API port", old=old, new=new)
        assert new not in stale_values(sentence), sentence
    for form in LATER:
        sentence = form.format(subject="API port", old=old, new=new)
        assert old in stale_values(sentence) and new not in stale_values(sentence), sentence


@pytest.mark.parametrize(
    ("sentence", "stale"),
    [
        ("Correction: the port is 8443 (was 8080).", ["8080"]),
        ("Actually the meeting was Monday, it is Friday now.", ["Monday"]),
        ("Actually the port was changed to 8443.", []),
        ("Actually the port was changed from 8080 to 8443.", ["8080"]),
        ("Correction: it was set to 30s, now 60s.", ["30s"]),
    ],
)
def test_was_before_a_value_still_marks_it(sentence: str, stale: list[str]) -> None:
    assert stale_values(sentence) == stale


@pytest.mark.parametrize(
    "sentence",
    [
        "Correction: the API port was changed to 8443 and the metrics port is now 9100.",
        "Actually the timeout was increased to 60s; the retry delay is 5s now.",
        "Actually the budget was increased to $6,000, and spend is now $4,200.",
        # the same value said again holds now too
        "Correction: the build was set to 2.4.1 yesterday and it is 2.4.1 today.",
        # no correction's cue: "it is … now" of another qualifier corrects nothing
        "The limit was set to 100 for free users, it is 1000 for pro users now.",
    ],
)
def test_another_subjects_current_value_does_not_make_the_change_stale(sentence: str) -> None:
    assert stale_values(sentence) == []


def test_a_sentence_that_corrects_its_own_fact_keeps_what_is_current() -> None:
    """ "the port was 8080, it is 8443 now": 8080 is what the sentence corrects, so it is
    not a fact of its own to show without the rest."""
    shown = _merged("The API port is 8080.", "Correction: the port was 8080, it is 8443 now.")
    assert "8443 now" in shown and "8080" not in shown
    # keyed as the fact it corrects: a restatement in other words is replaced too
    shown = _merged("The timeout is 30 seconds.", "Correction: the timeout was 30s, it is 60s now.")
    assert "60s now" in shown and "30 seconds" not in shown, shown


@pytest.mark.parametrize(
    "sentence",
    [
        "Update: the culprit was commit a1b2c3d.",
        "Update: total spend was $12,430 for May.",
        "Correction: the DB was migrated to db-4.internal, now we just need to update DNS.",
        "Sorry, not sure: the server is web-3.internal.",
        "Actually the appointment was moved to 11:30 and should take until 12:15.",
        "Actually the API was moved to 10.0.0.5 and the worker pool to 10.0.0.9 to spread load.",
        "Correction: the replica was pointed to db-4:5432 while db-3:5432 is being repaired.",
        "Actually the connect timeout was set to 5s, the read timeout is 30s.",
    ],
)
def test_a_value_no_other_value_replaces_is_shown(sentence: str) -> None:
    """A status report, or a passive change with no value of its subject said to hold now
    after it: every value not marked stale is shown."""
    values = [v.strip(",.;") for v in sentence.split() if any(c.isdigit() for c in v)]
    stale = stale_values(sentence)
    shown = _merged(sentence)
    assert values and all(v in shown for v in values if v not in stale), shown


AUXILIARIES = ("was", "were", "has been", "had been", "got")


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=25, deadline=None)
@given(
    data=st.data(),
    aux=st.sampled_from(AUXILIARIES),
    verb=st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9).map(lambda w: w + "ed"),
    prep=st.sampled_from(("to", "into", "back to", "up to")),
)
def test_a_passive_change_in_any_verb_replaces_the_value_of_its_subject(
    shape: str, data: st.DataObject, aux: str, verb: str, prep: str
) -> None:
    """Whatever the participle ("the staging window got zorbed to 10:00 UTC"), the verb
    says that something changed, not what: the subject is the words around it, and the
    earlier value of that subject, said in other words, is replaced."""
    old, new = data.draw(_pair(shape))
    subject = data.draw(st.sampled_from(SUBJECTS[1:]))  # not "API": a value or a key word
    changed = f"The {subject} {aux} {verb} {prep} {new}."
    assert statement(changed).subject == statement(f"The {subject} is {new}.").subject
    shown = _merged(f"Use the {subject} {old} for now.", changed)
    assert new in shown and old not in shown, shown
