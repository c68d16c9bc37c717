"""A correction in any language, and a code corrected by one of the same format.

A person who writes "便名を間違えました。正しくは KL6189 です。", "I was wrong: it's KL6189"
or a turn opening with "Korrektur:" takes back what they said as surely as one who writes
"I gave you the wrong flight". Such a turn replaces the one earlier value written in the
format of its new value (letters and digits place for place: ``LH8807`` and ``KL6189``),
summarized with it or still in view. Nothing is replaced when two earlier values have
that format, when the new value has another format or is no code (a size, a year), or when
the turn takes nothing back: a warning ("别弄错了"), a denial, a question, an action done by
mistake, a fix's label ("修正:"), a correction's label in the middle of a pasted notice.
"""

from __future__ import annotations

import pytest
from factories import file_reads, human, system
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage

from langgraph_compact import Budget, CompactionSettings, RunningSummary, compact
from langgraph_compact.compaction.turns import amends
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
RETRACTIONS = (
    "すみません、便名を間違えました。正しくは {new} です。",
    "Korrektur: die richtige Nummer ist {new}.",
    "Sorry, I was wrong: it's {new}.",
    "Ich habe mich vertan, es ist {new}.",
    "Je me suis trompé : c'est {new}.",
    "Me equivoqué, es {new}.",
    "Mi sono sbagliato, è {new}.",
    "Me enganei, é {new}.",
    "Ik heb me vergist, het is {new}.",
    "Я ошибся, правильный номер {new}.",
    "我刚才说错了，应该是 {new}。",
    "정정합니다. {new} 입니다.",
    "Correction: it's {new}.",
)
ELSEWHERE = (  # a like value, and words about mistakes that take nothing back
    "Der Rückflug ist {new}.",
    "復路は {new} です。",
    "Return is {new}.",
    "别弄错了，回程航班是 {new}。",  # a warning: "don't get it wrong"
    "間違えないように：復路は {new} です。",
    "我没说错。回程是 {new}。",  # a denial
    "間違えていません。復路は {new} です。",
    "私が間違えましたか。復路は {new} です。",  # a question
    "間違えて {new} をキャンセルしてしまいました。",  # an action done by mistake
    "修正: 復路は {new} です。",  # a fix's label
    "Ich korrigiere gerade den Test für {new}.",  # "I am fixing"
    "No me equivoqué, el vuelo de vuelta es {new}.",
    "It is not my mistake, the return is {new}.",
    "FYI from the airline newsletter. Correction: flight {new} now boards at gate 7.",
)


@st.composite
def _codes(draw: st.DrawFn) -> tuple[str, str]:
    """Two different codes of one format: letters and digits, place for place."""
    n, k = draw(st.integers(2, 3)), draw(st.integers(3, 5))  # five characters at least
    code = st.builds(
        str.__add__,
        st.text("ABCDEFGHJKLMNPRSTUVWXYZ", min_size=n, max_size=n),
        st.text("0123456789", min_size=k, max_size=k),
    )
    old = draw(code)
    return old, draw(code.filter(lambda v: v != old))


def _summary(raw: list[BaseMessage], budget: int) -> tuple[RunningSummary, str]:
    window = Budget(context_window=budget, reserved_output=0, compaction_reserve=0, safety_margin=0)
    result = compact(raw, None, CompactionSettings(window, counter=COUNTER))
    assert result.summary is not None
    assert COUNTER.count_messages(result.messages) <= window.usable
    return result.summary, "\n".join(message_text(m) for m in result.messages)


def _history(old: str, said: str, budget: int, in_view: bool) -> list[BaseMessage]:
    turns = budget // 150
    stated = [
        system(id="s"),
        human("Book the trip for the team offsite.", id="h"),
        human(f"Outbound is {old}.", id="old"),
        *file_reads(turns, 0),
    ]
    later = human(said, id="new")
    more = file_reads(turns, turns)
    return [*stated, *([*more, later] if in_view else [later, *more])]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    codes=_codes(),
    form=st.sampled_from(RETRACTIONS),
    budget=st.sampled_from([2_000, 4_000]),
    in_view=st.booleans(),
)
def test_a_retraction_in_any_language_replaces_the_one_code_of_its_format(
    codes: tuple[str, str], form: str, budget: int, in_view: bool
) -> None:
    old, new = codes
    summary, shown = _summary(_history(old, form.format(new=new), budget, in_view), budget)
    assert new in shown
    assert old not in summary.render(), summary.render()


@pytest.mark.parametrize("form", ELSEWHERE)
def test_a_like_code_that_takes_nothing_back_replaces_nothing(form: str) -> None:
    summary, _ = _summary(_history("LH8807", form.format(new="KL6189"), 2_000, False), 2_000)
    assert "LH8807" in summary.render(), summary.render()


@pytest.mark.parametrize("form", RETRACTIONS[:4])
def test_a_retraction_between_two_codes_of_its_format_replaces_neither(form: str) -> None:
    turns = 2_000 // 150
    raw = [
        system(id="s"),
        human("Book the trip for the team offsite.", id="h"),
        human("Outbound is LH8807.", id="a"),
        human("Return is LX1342.", id="b"),
        *file_reads(turns, 0),
        human(form.format(new="KL6189"), id="new"),
        *file_reads(turns, turns),
    ]
    rendered = _summary(raw, 2_000)[0].render()
    assert "LH8807" in rendered and "LX1342" in rendered, rendered


@pytest.mark.parametrize(
    ("old", "new"),
    [("LH8807", "KL618"), ("512MB", "200GB"), ("2024年", "2025年"), ("int64", "int32")],
)
@pytest.mark.parametrize("form", RETRACTIONS[:4])
def test_a_value_of_another_format_or_no_code_is_not_what_a_retraction_replaces(
    form: str, old: str, new: str
) -> None:
    """A code of another length, or a size, a year or a type that only looks like one."""
    summary, _ = _summary(_history(old, form.format(new=new), 2_000, False), 2_000)
    assert old in summary.render(), summary.render()


@pytest.mark.parametrize("word", ["correction factor", "correctional", "Korrekturfaktor"])
def test_a_word_about_corrections_takes_nothing_back(word: str) -> None:
    """Even where a label would count, at the opening of a turn."""
    assert not amends(f"The {word} is 3.", opens=True)
    assert not amends(f"{word}: 3", opens=True)
    assert not amends("Korrektur: ist das richtig?", opens=True)  # a question asks
    assert amends("Korrektur: es ist C-201/19.", opens=True)
    assert not amends("Korrektur: es ist C-201/19.")  # a label inside a turn
