"""Supersession by subject: a later value for the same subject replaces the earlier one.

Every form a correction takes ("not X", "instead of X", "X is abandoned", "moved from X
to Y", "no longer X", a plain restatement, "the X moved, it's Y now" in one word of the
subject, a turn whose second sentence states the value its first one drops, "Y not X"
and "Y (was X)" with no cue word, a tool printing the new value, a tool output that is
the new value alone answering a command that names the subject, a short table with the
subject's column) is tried for subjects with different value
shapes, at three budgets: the summary shows the current value and never the stale one. A
correction naming no subject at all ("The one I gave you before is stale. It's Y.", "That
one is outdated. Use Y.")
replaces the one earlier value of its new value's shape, and nothing when there are two
or when it does not point back at what was said ("I received the wrong item, Y"). A value that is
only mentioned again, or a like value of another subject, supersedes nothing.
"""

from __future__ import annotations

import pytest
from factories import ai_tool_call, file_reads, human, system, tool_result
from langchain_core.messages import BaseMessage

from langgraph_compact import Budget, CompactionResult, CompactionSettings, compact
from langgraph_compact.compaction.shapes import value_tokens
from langgraph_compact.compaction.subject import statement
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
SUBJECTS = {
    # subject, key as a tool prints it, old value, new value
    "window": ("staging window", "staging_window", "09:00 UTC", "15:32 UTC"),
    "host": ("runner host", "runner_host", "build-7:2222", "build-9:2310"),
    "path": ("config file", "config_file", "C:\\ci\\old\\cfg.toml", "C:\\ci\\new\\cfg.toml"),
    "name": ("handler name", "handler_name", "parseLegacyConfig", "loadRuntimeSettings"),
}
FORMS = {
    "not": "Correction: the {s} is now {new}, not {old}.",
    "instead": "Use {new} instead of {old} as the {s}.",
    "abandoned": "The {old} {s} is abandoned; the {s} is {new}.",
    "moved": "The {s} moved from {old} to {new}.",
    "no longer": "The {s} is no longer {old}; it is {new}.",
    "restated": "The {s} is {new}.",
    "update": "Update: the {w} moved, it's {new} now.",  # one word of the subject
    "contrast": "oops, {new} not {old}, I mixed them up.",  # no cue word, no subject
    "paren": "It has been bumped to {new} (was {old}) after the advisory.",
    "two sentences": "Forget {old}. Going forward it's {new}.",  # one turn, two sentences
    "tool": None,  # the new value printed by a tool
    "answer": None,  # ``cat staging_window`` printing the new value alone
    "table": None,  # a short table with the subject's column
}
BUDGETS = (2_000, 4_000, 8_000)


def _stated(subject: str, budget: int) -> list[BaseMessage]:
    """The task, the subject's old value, and enough output that it is summarized."""
    name, _, old, _ = SUBJECTS[subject]
    return [
        system(id="s"),
        human("Prepare the release pipeline.", id="h"),
        human(f"The {name} is {old}.", id="old"),
        *file_reads(budget // 150, 0),
    ]


def _compacted(raw: list[BaseMessage], budget: int) -> CompactionResult:
    window = Budget(context_window=budget, reserved_output=0, compaction_reserve=0, safety_margin=0)
    result = compact(raw, None, CompactionSettings(window, counter=COUNTER))
    assert result.summary is not None
    assert COUNTER.count_messages(result.messages) <= window.usable
    return result


def _history(subject: str, form: str, budget: int) -> tuple[list[BaseMessage], str, str]:
    name, key, old, new = SUBJECTS[subject]
    turns = budget // 150  # enough output that the first statement is summarized
    raw = _stated(subject, budget)
    template = FORMS[form]
    if form == "answer":
        raw += _answer(key, new)
    elif form == "table":
        call = ai_tool_call("bash", {"command": "cictl export --csv"}, id="csv-call")
        raw += [call, tool_result(call, f"env,{key},owner\nci,{new},ops", id="new")]
    elif template is None:
        call = ai_tool_call("bash", {"command": "cat deploy.yaml"}, id="cfg-call")
        raw += [call, tool_result(call, f"release: 4\n{key}: {new}\nowner: ops", id="new")]
    else:
        said = template.format(s=name, w=name.split()[-1], old=old, new=new)
        raw.append(human(said, id="new"))
    raw += file_reads(turns, turns)
    return raw, old, new


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_a_correction_replaces_what_it_corrects(subject: str, form: str, budget: int) -> None:
    raw, old, new = _history(subject, form, budget)
    result = _compacted(raw, budget)
    assert result.summary is not None
    shown = "\n".join(message_text(m) for m in result.messages)
    assert new in shown
    summary = result.summary.render()
    assert old not in summary, summary
    kept_raw = [m for m in result.messages if m.id == "old"]
    assert kept_raw == []  # the stale statement itself went into the summary


SUBJECTLESS = {
    # a correction that names no subject: it corrects the one earlier value of its shape
    "stale": "The one I gave you before is stale. Since the migration it's {new}.",
    "wrong earlier": "I gave you the wrong value earlier. The right one is {new}, it turns out.",
    "typo": "typo in what I wrote, {new} is right",
    "that": "That one is outdated. Use {new}.",
}
SHAPED = ("window", "host", "path")  # a name in words has no shape to be found by


@pytest.mark.parametrize("in_view", [False, True])
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("form", list(SUBJECTLESS))
@pytest.mark.parametrize("subject", SHAPED)
def test_a_correction_naming_no_subject_replaces_the_one_value_of_its_shape(
    subject: str, form: str, budget: int, in_view: bool
) -> None:
    """Summarized with it, or still in view after the summary: the old value is gone."""
    _, _, old, new = SUBJECTS[subject]
    turns = budget // 150
    said = human(SUBJECTLESS[form].format(new=new), id="new")
    more = file_reads(turns, turns)  # what pushes the statement into the summary
    raw = [*_stated(subject, budget), *([*more, said] if in_view else [said, *more])]
    result = _compacted(raw, budget)
    assert result.summary is not None
    assert new in "\n".join(message_text(m) for m in result.messages)
    assert old not in result.summary.render(), result.summary.render()
    assert (said in result.messages) is in_view


@pytest.mark.parametrize("budget", BUDGETS)
def test_a_correction_naming_no_subject_between_two_like_values_replaces_neither(
    budget: int,
) -> None:
    """Two earlier values of its shape: which one it meant is not known, so both stay."""
    turns = budget // 150
    raw: list[BaseMessage] = [
        system(id="s"),
        human("Prepare the release pipeline.", id="h"),
        human("The staging window is 09:00 UTC.", id="a"),
        human("The freeze window is 11:00 UTC.", id="b"),
        *file_reads(turns, 0),
        human("The one I gave you before is stale. It's 15:32 UTC.", id="new"),
        *file_reads(turns, turns),
    ]
    summary = _compacted(raw, budget).summary
    assert summary is not None
    assert "09:00 UTC" in summary.render() and "11:00 UTC" in summary.render()


NOT_REPAIRS = (
    "Also keep {new} in mind.",
    "I received the wrong item, see {new}.",  # wrong about a thing, not about what was said
    "Is {new} wrong as well?",  # a question
    "That said, ignore the lint noise and start from {new}.",  # "that" is not what it is
)


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("later", NOT_REPAIRS)
@pytest.mark.parametrize("subject", SHAPED)
def test_a_like_value_not_said_to_correct_anything_replaces_nothing(
    subject: str, later: str, budget: int
) -> None:
    """Nothing says what was said before was wrong: a second value, not a correction."""
    _, _, old, new = SUBJECTS[subject]
    turns = budget // 150
    said = human(later.format(new=new), id="new")
    raw = [*_stated(subject, budget), said, *file_reads(turns, turns)]
    summary = _compacted(raw, budget).summary
    assert summary is not None
    assert old in summary.render(), summary.render()


def _answer(file: str, value: str) -> list[BaseMessage]:
    """A call reading ``file`` whose output is ``value`` alone, in a runner's markup."""
    call = ai_tool_call("bash", {"command": f"cat ./ci/{file}"}, id="answer-call")
    body = f"<returncode>0</returncode>\n<output>\n{value}\n</output>"
    return [call, tool_result(call, body, id="new")]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_an_answer_in_view_strikes_the_summarized_value(subject: str, budget: int) -> None:
    """The output comes after the summary, verbatim: the summary in view must not show
    the old value as current meanwhile."""
    _, key, old, new = SUBJECTS[subject]
    raw = [*_stated(subject, budget), *file_reads(budget // 150, budget // 150), *_answer(key, new)]
    result = _compacted(raw, budget)
    shown = "\n".join(message_text(m) for m in result.messages)
    assert new in shown
    assert old not in shown, shown


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_an_answer_about_another_subject_supersedes_nothing(subject: str, budget: int) -> None:
    """A like value answering a command that names other words (``cat release_window``
    after "the staging window is …") is another subject's value."""
    _, key, old, new = SUBJECTS[subject]
    other = _answer("release_" + key.split("_")[-1], new)
    result = _compacted(
        [*_stated(subject, budget), *other, *file_reads(budget // 150, budget // 150)], budget
    )
    assert result.summary is not None
    assert old in result.summary.render(), result.summary.render()


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_a_value_mentioned_again_is_not_superseded(subject: str, budget: int) -> None:
    name, _, old, _ = SUBJECTS[subject]
    turns = budget // 150
    raw: list[BaseMessage] = [
        system(id="s"),
        human("Prepare the release pipeline.", id="h"),
        human(f"The {name} is {old}.", id="old"),
        *file_reads(turns, 0),
        human(f"Remember: {old} is what the {name} uses.", id="again"),
        human("The weekly sync is on 2026-03-09.", id="other"),  # another subject
        *file_reads(turns, turns),
    ]
    window = Budget(context_window=budget, reserved_output=0, compaction_reserve=0, safety_margin=0)
    result = compact(raw, None, CompactionSettings(window, counter=COUNTER))
    assert result.summary is not None
    summary = result.summary.render()
    assert old in summary, summary
    assert "2026-03-09" in summary


def _pair(name: str, args: dict[str, str], output: str) -> list[BaseMessage]:
    call = ai_tool_call(name, args, id=f"{name}-call")
    return [call, tool_result(call, output, id="new")]


LOOKALIKES = {
    # what was said, a later message with a like value that corrects nothing of it
    "provenance": (
        "The release branch is main-19.",
        [human("Rebased feature-22 (from main-19) and pushed it.", id="new")],
    ),
    "bare version": (
        "The Python version is 3.11.4.",
        _pair("bash", {"command": "cat VERSION"}, "2.4.1"),
    ),
    "count and file": (
        "The app listens on port 8080.",
        _pair("bash", {"command": "wc -l app_port.py"}, "42 app_port.py"),
    ),
}


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("later", list(LOOKALIKES))
def test_a_like_value_that_corrects_nothing_supersedes_nothing(later: str, budget: int) -> None:
    """Lookalikes of the cue-less forms above: where something came from, a bare version
    printed by a command naming one word of the subject, a count beside a file name."""
    said, messages = LOOKALIKES[later]
    summary = _summary_after(said, messages, budget)
    assert said.split()[-1].rstrip(".") in summary, summary


def _summary_after(said: str, later: list[BaseMessage], budget: int) -> str:
    """The summary of ``said``, then ``later``, each followed by output enough to be
    summarized at ``budget``."""
    turns = budget // 150
    raw: list[BaseMessage] = [
        system(id="s"),
        human("Prepare the release pipeline.", id="h"),
        human(said, id="old"),
        *file_reads(turns, 0),
        *later,
        *file_reads(turns, turns),
    ]
    summary = _compacted(raw, budget).summary
    assert summary is not None
    return summary.render()


TWO_THINGS = {  # keys told apart by a short word, a number, an owner, an acronym
    "short word": (
        "The staging db host is db-1.internal.",
        "The staging cache host is cache-7.internal.",
    ),
    "number": ("Room 12 is booked for 14:00.", "Room 14 is booked for 16:00."),
    "owner": ("Alice's flight is LH 1234 at 09:10.", "Bob's flight is LH 1236 at 11:40."),
    "acronym": ("The EU region is eu-west-1.", "The US region is us-east-1."),
}


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("pair", sorted(TWO_THINGS))
def test_the_summary_keeps_the_values_of_two_things(pair: str, budget: int) -> None:
    first, second = TWO_THINGS[pair]
    summary = _summary_after(first, [human(second, id="second")], budget)
    for text in (first, second):
        assert statement(text).main[0] in summary, summary


def _relays() -> tuple[list[str], list[BaseMessage]]:
    """Sixty statements of one host each, under sixty subjects: more than a cap holds."""
    hosts = [f"node-{n}.internal:{5000 + n}" for n in range(60)]
    names = [f"{chr(97 + n // 26)}{chr(97 + n % 26)}lo" for n in range(60)]  # one subject each
    said = [
        human(f"The {name} relay runs on {host}.", id=f"v{n}")
        for n, (name, host) in enumerate(zip(names, hosts, strict=True))
    ]
    return hosts, [
        system(id="s"),
        human("Prepare the release pipeline.", id="h"),
        *said,
        *file_reads(12),
    ]


def test_a_summary_remembers_the_values_of_the_statements_it_gave_up() -> None:
    """More statements than the cap holds: each one the summary covers but does not show
    has its values in ``evicted``, and the next summary keeps them."""
    hosts, raw = _relays()
    first = _compacted(raw, 2_000).summary
    assert first is not None
    shown = first.render()
    gone = [h for h in hosts if h not in shown]
    assert gone and len(gone) < len(hosts)
    for host in gone:
        assert value_tokens([host]) <= set(first.evicted), host
    window = Budget(context_window=2_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    more = [*raw, *file_reads(12, 12)]
    second = compact(more, first, CompactionSettings(window, counter=COUNTER)).summary
    assert second is not None and second.generation == first.generation + 1
    assert set(first.evicted) <= set(second.evicted)


def test_a_summary_shrunk_to_meet_the_budget_remembers_what_it_gave_up() -> None:
    """``refit_summary`` (the assembly's last resort) drops unpinned statements too: their
    values join ``evicted`` like the cap's, so a later correction naming no subject still
    sees that the choice is unknown."""
    from langgraph_compact.compaction.select import refit_summary

    hosts, raw = _relays()
    first = _compacted(raw, 2_000).summary
    assert first is not None
    smaller = refit_summary(first, first.token_count // 2, COUNTER.count_text)
    dropped = [h for h in hosts if h in first.render() and h not in smaller.render()]
    assert dropped
    for host in dropped:
        assert value_tokens([host]) <= set(smaller.evicted), host
    assert set(first.evicted) <= set(smaller.evicted)


def test_a_line_shown_around_one_value_gives_up_the_others() -> None:
    """At a small cap a long line is shown around its value (``focused``): the values
    cut out of it are given up like an evicted line's, and those it still shows are not."""
    from langgraph_compact.compaction import extract_items
    from langgraph_compact.compaction.shorten import focused
    from langgraph_compact.compaction.strike import evicted_values

    said = human(
        "The primary database runs on db-1.internal:5432, and after the failover drill we "
        "ran last Tuesday with the platform team the replica moved to db-2.internal:5433 "
        "in the other zone.",
        id="u1",
    )
    ((section, item),) = extract_items(said, 3, {})
    shown = focused(item, 80)
    assert "db-1.internal:5432" in shown.text and "db-2.internal:5433" not in shown.text
    gone = set(evicted_values((), {section: [item]}, {section: [shown]}))
    assert value_tokens(["db-2.internal:5433"]) <= gone
    assert not value_tokens(["db-1.internal:5432"]) & gone


@pytest.mark.parametrize("budget", BUDGETS)
def test_a_value_said_in_view_before_a_correction_is_not_what_it_corrects(budget: int) -> None:
    """The correction's like value was stated in view before it: a second order, so the
    summarized one is not replaced."""
    turns = budget // 150
    raw: list[BaseMessage] = [
        system(id="s"),
        human("Help me with my orders.", id="h"),
        human("My order #W7654321 should arrive on Friday.", id="old"),
        *file_reads(turns, 0),
        *file_reads(turns, turns),
        human("I also have order #W1234567 pending.", id="other"),
        human("I typed the wrong zip earlier, it's 94110, for order #W1234567.", id="new"),
    ]
    result = _compacted(raw, budget)
    assert result.summary is not None and "#W7654321" in result.summary.render()


def test_a_value_given_up_once_but_still_held_is_not_another_value() -> None:
    """Two statements of one id, the longer given up to fit: the id it held is still
    shown, so a correction naming no subject replaces it (the ledger's copy of that same
    value makes nothing ambiguous)."""
    from langgraph_compact.compaction.select import refit_summary
    from langgraph_compact.compaction.strike import strike_corrected

    said = [
        human("My order id is KX-48213.", id="u1"),
        human(
            "Order KX-48213 arrived with a cracked screen and the box was wet and torn on "
            "two sides.",
            id="u2",
        ),
    ]
    raw = [system(id="s"), human("Prepare the refund.", id="h"), *said, *file_reads(40)]
    full = _compacted(raw, 2_000).summary
    assert full is not None
    small = refit_summary(full, full.token_count // 2, COUNTER.count_text)
    assert "kx-48213" in small.evicted and "KX-48213" in small.render()
    later = [human("I gave you the wrong ID earlier. It's KX-48299.", id="u9")]
    struck = strike_corrected(small, later, COUNTER.count_text)
    assert struck is not None and "KX-48213" not in struck.render(), small.render()
