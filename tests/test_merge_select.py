"""Merge and selection: one error template folds, a line is shown once, the cap is a knapsack."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_compact.compaction.calls import arg_items
from langgraph_compact.compaction.candidates import SALIENCE, present
from langgraph_compact.compaction.merge import merge_items
from langgraph_compact.compaction.parse import classify
from langgraph_compact.compaction.patterns import facts
from langgraph_compact.compaction.select import REPEAT_DECAY, select_items
from langgraph_compact.compaction.summary import Section, SummaryItem, render_sections
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
RNG = random.Random(11)


def _name(n: int = 7) -> str:
    return "".join(RNG.choice(string.ascii_lowercase) for _ in range(n))


def _error(text: str, seq: int) -> tuple[Section, SummaryItem]:
    item = SummaryItem(text=text, key=f"error:{text}", kind="error", seq=seq, salience=0.8)
    return Section.CRITICAL, item


TEMPLATES = [
    "ModuleNotFoundError: No module named '{}'",
    "KeyError: '{}'",
    'fatal: repository "{}" not found',
    "NameError: name `{}` is not defined",
]


@pytest.mark.parametrize("template", TEMPLATES)
def test_one_error_template_with_other_names_folds_into_one_item_naming_all(
    template: str,
) -> None:
    names = [_name() for _ in range(4)]
    merged = merge_items({}, [_error(template.format(n), i) for i, n in enumerate(names)])
    errors = merged[Section.CRITICAL]
    assert len(errors) == 1
    assert errors[0].text.startswith(template.format(names[-1]))  # the latest leads
    assert all(n in errors[0].text for n in names)  # every earlier name is still shown
    assert errors[0].seq == 3


def test_different_templates_and_long_variants_stay_apart() -> None:
    a = "ModuleNotFoundError: No module named 'numpy'"
    b = "PermissionError: [Errno 13] Permission denied: '/srv/data'"
    long_old = "KeyError: '" + "x" * 120 + "'"
    merged = merge_items(
        {}, [_error(a, 1), _error(b, 2), _error(long_old, 3), _error("KeyError: 'y'", 4)]
    )
    texts = [i.text for i in merged[Section.CRITICAL]]
    assert len(texts) == 4 and a in texts and b in texts


def test_a_line_is_shown_once_whatever_its_keys_and_sections() -> None:
    line = "The parser keeps `rho_s` and `rho_p` apart."
    sections = {
        Section.CRITICAL: [
            SummaryItem(text=line, key="id:rho_s", kind="identifier", salience=0.5),
            SummaryItem(text=line, key="id:rho_p", kind="identifier", salience=0.5),
        ],
        Section.NEXT_STEPS: [SummaryItem(text=line, key="next:x", kind="next", salience=0.4)],
    }
    chosen = select_items(sections, 400, COUNTER.count_text, title="t", now=1)
    shown = [i.text for items in chosen.sections.values() for i in items]
    assert shown == [line]


def test_when_one_fits_a_short_specific_line_beats_a_long_one_of_equal_score() -> None:
    short = SummaryItem(text="build_id: NBP-6975", key="id:NBP-6975", kind="identifier")
    long = SummaryItem(
        text="The run printed a lot of text about " + " ".join(_name() for _ in range(30)),
        key="note:long",
        kind="fact",
    )
    for a, b in ((short, long), (long, short)):
        sections = {Section.CRITICAL: [a, b], Section.DONE: []}
        cap = COUNTER.count_text("t") + COUNTER.count_text("## Critical Context") + 40
        chosen = select_items(sections, cap, COUNTER.count_text, title="t", now=0)
        shown = [i.text for items in chosen.sections.values() for i in items]
        assert shown == [short.text]


@pytest.mark.parametrize(
    "text",
    [
        "how much: charged on my card?",
        "WARNING: Running pip as the 'root' user can result in broken permissions and "
        "conflicting behaviour with the system package manager, possibly rendering it unusable",
        "requirement already satisfied: numpy>=1.21.2 in /opt/miniconda3/lib/python3.11/"
        "site-packages (from pvlib==0.10.2.dev5+g1234567)",
        "rho12_s = ((n1*costheta1 - n2*costheta2) / (n1 + n2))",
        "see http://example.com/docs/page?id=17160",
    ],
)
def test_questions_prose_log_remainders_and_expressions_are_not_facts(text: str) -> None:
    assert facts(text) == []


@pytest.mark.parametrize(
    "fact", ["pool_limit: 417", "region = eu-west-3", "The api version is 2.14.1.", "timeout: 35ms"]
)
def test_short_values_are_still_facts(fact: str) -> None:
    assert facts(fact)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Hmm, I don't remember the reservation ID off the top of my head.", False),
        ("I do not know which branch it is on.", False),
        ("Could you make sure to never push to main?", True),
        ("Don't push to the main branch.", True),
        ("I don't want you to touch the vendored code.", True),
        ("We must not change the public API.", True),
    ],
)
def test_what_a_user_says_of_themselves_is_not_a_rule(text: str, rule: bool) -> None:
    assert (classify(text) is not None) is rule


def test_a_stale_value_stated_again_after_its_correction_is_not_shown_as_current() -> None:
    old, new = f"{RNG.randint(1000, 4999)}", f"{RNG.randint(5000, 9999)}"
    key = f"fact:{_name(5)} deadline"
    correction = SummaryItem(
        text=f"{key[5:]}: {new}", key=key, kind="correction", pinned=True, stale=(old,)
    )
    merged = merge_items({Section.CRITICAL: [correction]}, [])
    echoed = [  # what a model copies from an older message, under any key
        (Section.CRITICAL, SummaryItem(text=f"{key[5:]}: {old}", key=key, kind="fact")),
        (Section.CRITICAL, SummaryItem(text=f"The deadline is {old}.", kind="note")),
    ]
    merged = merge_items(merged, echoed)
    texts = [i.text for i in merged[Section.CRITICAL]]
    assert texts == [correction.text]
    later = SummaryItem(  # a correction back to the old value is still taken
        text=f"{key[5:]}: {old}", key=key, kind="correction", pinned=True, stale=(new,)
    )
    assert [i.text for i in merge_items(merged, [(Section.CRITICAL, later)])[Section.CRITICAL]] == [
        later.text
    ]


def _select(items: list[tuple[Section, SummaryItem]], cap: int = 2_000) -> list[str]:
    sections: dict[Section, list[SummaryItem]] = {}
    for section, item in items:
        sections.setdefault(section, []).append(item)
    chosen = select_items(sections, cap, COUNTER.count_text, title="[Summary]", now=10)
    return [i.text for found in chosen.sections.values() for i in found]


def test_one_failure_printed_by_several_layers_is_shown_once() -> None:
    message = f"the {_name()} operator is prohibited in index expressions"
    layers = [f"sqlite3.OperationalError: {message}", f"ERROR executing SQL: {message}"]
    other = f"KeyError: '{_name()}'"
    texts = _select([_error(t, i) for i, t in enumerate([*layers, other])])
    assert sum(message in t for t in texts) == 1 and other in texts
    # a short message is not a repeat of a longer one that merely contains it
    short = [_error("KeyError: 'id'", 1), _error("KeyError: 'id_token'", 2)]
    assert len(_select(short)) == 2


def test_a_line_another_of_its_kind_contains_goes_but_a_blocked_step_stays() -> None:
    error = f"npm ERR! code E{_name().upper()}"
    blocked = SummaryItem(text=f"bash: npm ci → {error}", kind="blocked", seq=3, salience=0.5)
    again = SummaryItem(text=f"{error} again", kind="error", seq=4, salience=0.4)
    path = SummaryItem(text="src/app.py", kind="path", seq=5, salience=0.3)
    named = SummaryItem(text="The bug is in src/app.py.", kind="identifier", seq=5, salience=0.45)
    texts = _select(
        [
            _error(error, 2),
            (Section.BLOCKED, blocked),
            (Section.CRITICAL, again),
            (Section.FILES_READ, path),
            (Section.CRITICAL, named),
        ]
    )
    assert error in texts and blocked.text in texts  # state a later success clears
    assert again.text not in texts  # the more salient, shorter line says it
    assert path.text in texts and named.text in texts  # kinds stay apart


def test_chatter_is_not_forced_in_as_a_sections_first_item() -> None:
    chatter = SummaryItem(
        text="But wait, I need to check something else.", kind="next", salience=0.45
    )
    facts = [
        (
            Section.CRITICAL,
            SummaryItem(text=f"{_name()}_port: {8000 + i}", kind="fact", salience=0.7),
        )
        for i in range(40)
    ]
    texts = _select([*facts, (Section.NEXT_STEPS, chatter)], cap=150)
    assert chatter.text not in texts and len(texts) >= 5


def test_names_are_not_repeats_of_longer_names_nor_numbers_of_longer_numbers() -> None:
    paths = ["package.json", "web/package.json", "src/app/models.py", "tests/src/app/models.py"]
    items = [
        (Section.FILES_MODIFIED, SummaryItem(text=p, kind="path", seq=n, salience=0.55))
        for n, p in enumerate(paths)
    ]
    facts = ["request timeout: 30", "request timeout: 300 ms"]
    items += [
        (Section.CRITICAL, SummaryItem(text=f, kind="fact", seq=9, salience=0.7)) for f in facts
    ]
    texts = _select(items)
    assert all(p in texts for p in paths) and all(f in texts for f in facts)


def test_of_two_equal_layers_of_one_failure_exactly_one_is_kept() -> None:
    message = f"could not connect to server at {_name()}.internal:5432"
    layers = [f"sqlalchemy.exc.OperationalError: {message}", f"psycopg.OperationalError: {message}"]
    other = f"ERROR: migration {_name()} aborted"
    texts = _select([_error(t, 3) for t in layers] + [_error(other, 3)])
    assert sum(message in t for t in texts) == 1 and other in texts


@pytest.mark.parametrize("seed", range(5))
def test_a_short_stale_value_strikes_only_its_own_fact(seed: int) -> None:
    """ "9 spaces, not 8" replaces what was said of the spaces; it does not strike every
    line with an 8 in it. A stale value of three characters or more still does."""
    rng = random.Random(seed)
    short = str(rng.randint(0, 99))
    name = _name()
    bystanders = [
        f"src/{name}.c:{rng.randint(100, 999)}:{short}: error: use of undeclared identifier",
        f"{name}_retries: {short}",
        f"FAILED tests/test_{name}.py::test_case_{short} - AssertionError",
    ]
    sections = {Section.CRITICAL: [_error(t, n)[1] for n, t in enumerate(bystanders)]}
    key = f"fact:{name} spaces"
    correction = SummaryItem(
        text=f"{name} spaces: {short}1", key=key, kind="correction", stale=(short,), seq=9
    )
    merged = merge_items(sections, [(Section.CRITICAL, correction)])
    assert [i.text for i in merged[Section.CRITICAL]] == [*bystanders, correction.text]
    old = f"{rng.randint(1000, 4999)}"
    stating = SummaryItem(text=f"{name} budget was {old} last week", kind="note", seq=3)
    struck = merge_items(
        {Section.CRITICAL: [stating]},
        [(Section.CRITICAL, correction.model_copy(update={"stale": (old,), "key": "fact:b"}))],
    )
    assert stating.text not in [i.text for i in struck[Section.CRITICAL]]


def test_a_line_two_sections_hold_is_kept_where_it_ranks_higher() -> None:
    """A model's note repeating a path (weak, under Critical Context) must not displace
    the path item itself (under Files Read), whichever section comes first."""
    path = f"{_name(5)}/{_name(6)}/{_name()}_41.py"
    note = SummaryItem(text=path, kind="note", seq=9, salience=0.3)
    item = SummaryItem(text=path, key=f"file:{path}", kind="path", seq=2, salience=0.65)
    for order in ([(Section.CRITICAL, note), (Section.FILES_READ, item)],
                  [(Section.FILES_READ, item), (Section.CRITICAL, note)]):  # fmt: skip
        sections: dict[Section, list[SummaryItem]] = {}
        for section, i in order:
            sections.setdefault(section, []).append(i)
        chosen = select_items(sections, 2_000, COUNTER.count_text, title="[Summary]", now=10)
        assert chosen.sections.get(Section.FILES_READ) == (item,)
        assert Section.CRITICAL not in chosen.sections


def test_a_call_that_succeeds_after_failing_demotes_only_its_own_errors() -> None:
    signature = f"bash: pytest tests/test_{_name()}.py"
    mine = SummaryItem(
        text=f"AssertionError: {_name()} != {_name()}", key="error:a", kind="error",
        sources=("t1",), seq=1, salience=0.8,
    )  # fmt: skip
    other = SummaryItem(
        text=f"KeyError: '{_name()}'", key="error:b", kind="error", sources=("t9",), seq=2,
        salience=0.8,
    )  # fmt: skip
    blocked = SummaryItem(
        text=f"{signature} → {mine.text}", key=f"call:{signature}", kind="blocked",
        sources=("t1",), seq=1, salience=0.5,
    )  # fmt: skip
    sections = {Section.CRITICAL: [mine, other], Section.BLOCKED: [blocked]}
    done = SummaryItem(
        text=signature, key=f"call:{signature}", kind="done", sources=("t2",), seq=3,
        salience=0.15,
    )  # fmt: skip
    merged = merge_items(sections, [(Section.DONE, done)])
    errors = {i.key: i.salience for i in merged[Section.CRITICAL]}
    assert errors == {"error:a": 0.45, "error:b": 0.8}  # kept, demoted
    assert Section.BLOCKED not in merged
    cycle = [  # another error fails and passes: the first one is not demoted again
        (Section.BLOCKED, blocked.model_copy(update={"sources": ("t1", "t5"), "seq": 5})),
        (Section.DONE, done.model_copy(update={"sources": ("t6",), "seq": 6})),
    ]
    assert {i.key: i.salience for i in merge_items(merged, cycle)[Section.CRITICAL]} == errors
    again = mine.model_copy(update={"sources": ("t4",), "seq": 4})  # printed once more
    merged = merge_items(merged, [(Section.CRITICAL, again)])
    assert {i.key: i.salience for i in merged[Section.CRITICAL]}["error:a"] == 0.8


def test_a_repeated_line_falls_back_to_its_other_copy_when_its_section_is_full() -> None:
    paths = [f"src/m{n}_{_name(4)}.py" for n in range(8)]
    items = [
        (
            Section.FILES_READ,
            SummaryItem(text=p, key=f"file:{p}", kind="path", seq=n, salience=0.65),
        )
        for n, p in enumerate(paths)
    ]
    items.append((Section.CRITICAL, SummaryItem(text=paths[0], kind="note", seq=9, salience=0.3)))
    sections: dict[Section, list[SummaryItem]] = {}
    for section, item in items:
        sections.setdefault(section, []).append(item)
    chosen = select_items(sections, 300, COUNTER.count_text, title="[Summary]", now=10)
    texts = [i.text for found in chosen.sections.values() for i in found]
    assert texts.count(paths[0]) == 1  # shown, once, wherever it still fits


def test_a_command_that_ran_is_no_sections_guaranteed_first_line() -> None:
    ran = SummaryItem(text=f"bash: python {_name()}_check.py", kind="done", salience=0.15)
    said = []
    for i in range(40):
        host = f"{_name()}-{i}.internal:{9000 + i}"
        said.append((Section.CRITICAL, SummaryItem(text=f"The relay is {host}", salience=0.55)))
    texts = _select([*said, (Section.DONE, ran)], cap=150)
    assert ran.text not in texts and len(texts) >= 4
    texts = _select([(Section.DONE, ran)], cap=150)  # with room to spare it is listed
    assert texts == [ran.text]


def test_of_two_lines_as_salient_and_as_long_the_one_naming_a_value_is_kept() -> None:
    for _ in range(20):
        w = _name(6)
        host = f"{w}-{RNG.randint(10, 99)}.internal:{RNG.randint(1025, 65000)}"
        named = SummaryItem(text=f"The {w} step reads {host}", kind="note", salience=0.5)
        vague = SummaryItem(text=f"The {w} step looked", kind="note", salience=0.5)
        while COUNTER.count_text(vague.text) < COUNTER.count_text(named.text):
            vague = vague.model_copy(update={"text": vague.text + " fine"})
        alone = render_sections("[Summary]", {Section.CRITICAL: (named,)})
        for pair in ([vague, named], [named, vague]):
            chosen = _select([(Section.CRITICAL, i) for i in pair], COUNTER.count_text(alone) + 4)
            assert chosen == [named.text]


def _step_and_note(line: str) -> tuple[SummaryItem, SummaryItem]:
    """A turn's first sentence (In Progress, as ``steps`` rates it) and the same sentence
    as the weaker note extraction also makes of it."""
    step = SummaryItem(text=line, key="progress:text", kind="progress", seq=5, salience=0.6)
    return step, SummaryItem(text=line, kind="note", seq=5, salience=0.4)


@settings(max_examples=40, deadline=None)
@given(
    facts=st.integers(0, 60),
    cap=st.sampled_from([150, 300, 600, 1_200]),
    in_progress_first=st.booleans(),
)
def test_a_line_in_progress_and_elsewhere_is_kept_where_the_next_turn_leaves_it(
    facts: int, cap: int, in_progress_first: bool
) -> None:
    """The next assistant turn replaces In Progress: a plan its first sentence stated,
    also a note, is shown whenever its In Progress copy alone would be, and stored as
    the note, so the next compaction still has it."""
    line = f"Plan fixed: the cutover happens at {RNG.randint(10, 23)}:{RNG.randint(10, 59)}."
    step, note = _step_and_note(line)
    others = [
        SummaryItem(text=f"{_name()}: {_name()}-{n}.internal", kind="fact", seq=n, salience=0.75)
        for n in range(facts)
    ]
    both = {Section.IN_PROGRESS: [step], Section.CRITICAL: [*others, note]}
    if not in_progress_first:
        both = dict(reversed(both.items()))
    alone = {Section.IN_PROGRESS: [step], Section.CRITICAL: others}
    chosen = select_items(both, cap, COUNTER.count_text, title="t", now=60).sections
    without = select_items(alone, cap, COUNTER.count_text, title="t", now=60).sections
    shown = [(s, i.text) for s, items in chosen.items() for i in items if i.text == line]
    assert len(shown) == (line in [i.text for i in without.get(Section.IN_PROGRESS, ())])
    assert all(s is Section.CRITICAL for s, _ in shown)
    later = SummaryItem(
        text=f"Running the {_name()} tests now.", key="progress:text", kind="progress", seq=7,
        salience=0.6,
    )  # fmt: skip
    merged = merge_items(chosen, [(Section.IN_PROGRESS, later)])
    assert [i.text for items in merged.values() for i in items].count(line) == len(shown)


@pytest.mark.parametrize(
    ("section", "historical"), [(Section.NEXT_STEPS, False), (Section.GOAL, True)]
)
def test_a_line_in_progress_is_not_shown_as_a_copy_the_next_turn_replaces_too(
    section: Section, historical: bool
) -> None:
    """Next Steps are replaced by the next turn as well, and an earlier task's copy would
    label the current step historical: the line stays In Progress."""
    line = f"Run the migration tests on db-{RNG.randint(2, 99)} again."
    step, _ = _step_and_note(line)
    copy = SummaryItem(text=line, kind="next", seq=2, salience=0.4, historical=historical)
    sections = {Section.IN_PROGRESS: [step], section: [copy]}
    chosen = select_items(sections, 600, COUNTER.count_text, title="t", now=6).sections
    assert chosen[Section.IN_PROGRESS] == (step,)
    assert section not in chosen


def test_a_line_in_progress_stays_there_when_its_lasting_copy_has_no_room() -> None:
    """The lasting copy is taken only where it fits: with its section's limit spent (four
    Done lines at a cap of 600), the line is shown In Progress, as without the copy."""
    line = f"Deploying the fix to {_name()} again now."
    step = SummaryItem(text=line, key="progress:text", kind="progress", seq=9, salience=0.45)
    copy = SummaryItem(text=line, kind="done", seq=9, salience=0.3)
    done = [
        SummaryItem(text=f"bash: make {_name()}", key=f"call:{n}", kind="done", seq=n, salience=0.5)
        for n in range(8)
    ]
    sections = {Section.IN_PROGRESS: [step], Section.DONE: [*done, copy]}
    chosen = select_items(sections, 600, COUNTER.count_text, title="t", now=10).sections
    assert len(chosen[Section.DONE]) == 4 and copy not in chosen[Section.DONE]  # full
    assert chosen[Section.IN_PROGRESS] == (step,)


def _passed(calls: list[tuple[int, str, dict[str, str]]]) -> list[SummaryItem]:
    """The values ``(seq, tool, args)`` calls pass, as extraction reads them."""
    return [
        item
        for n, (seq, name, args) in enumerate(calls)
        for _, item in present(arg_items({"name": name, "args": args, "id": f"c{n}"}, f"a{n}", seq))
    ]


def _beside_a_fact(values: list[SummaryItem], lines: int) -> list[str]:
    """What a cap holding a tool's fact and ``lines`` more lines shows of ``values`` and
    the fact; the fact's salience is between a passed value's, halved once, and whole."""
    salience = SALIENCE["args.value"] * (1 + REPEAT_DECAY) / 2
    fact = SummaryItem(text="target locked: J0526-1039 (airmass 1.21)", kind="fact",
                       salience=salience)  # fmt: skip
    line = max(COUNTER.count_text(f"- {v.text}") for v in values) + 1
    cap = COUNTER.count_text(render_sections("[Summary]", {Section.CRITICAL: (fact,)}))
    return _select([(Section.CRITICAL, i) for i in (fact, *values)], cap + lines * line + 2)


@settings(max_examples=60, deadline=None)
@given(
    days=st.lists(st.integers(1, 28), min_size=3, max_size=9, unique=True).map(sorted),
    room=st.integers(2, 4),
    other_tool=st.booleans(),
)
def test_of_the_values_a_tool_was_passed_in_turn_the_latest_come_before_a_fact(
    days: list[int], room: int, other_tool: bool
) -> None:
    """A tool called again and again with one setting changed (a search per date) leaves a
    log of values; the latest is state, each earlier one is worth half as much, so a fact
    as salient as the latest is kept before them. Another tool's setting of the same name
    is a value of its own."""
    calls = [
        (n + 1, "search_direct_flight", {"date": f"2024-05-{d:02d}"}) for n, d in enumerate(days)
    ]
    if other_tool:
        calls.insert(0, (0, "book_flight", {"date": "2024-06-30"}))
    shown = _beside_a_fact(_passed(calls), room + other_tool)
    dates = [t.removeprefix("search_direct_flight date: ") for t in shown if "search_" in t]
    assert "target locked: J0526-1039 (airmass 1.21)" in shown
    assert dates and dates == [f"2024-05-{d:02d}" for d in days][-len(dates) :]
    assert other_tool is any(t.startswith("book_flight date: ") for t in shown)


@settings(max_examples=30, deadline=None)
@given(ids=st.lists(st.from_regex(r"[A-Z0-9]{6}", fullmatch=True), min_size=3, max_size=5,
                    unique=True))  # fmt: skip
def test_ids_looked_up_in_turn_are_each_a_thing_not_a_log(ids: list[str]) -> None:
    values = _passed(
        [(n, "get_reservation_details", {"reservation_id": r}) for n, r in enumerate(ids)]
    )
    shown = _beside_a_fact(values, len(values) - 1)  # room for every value, not the fact too
    assert all(v.text in shown for v in values)


def test_names_mined_from_command_lines_and_parallel_calls_are_no_log() -> None:
    """Ids a command line names are words of a command; values passed in one message are
    of one moment: neither makes an earlier value worth less."""
    commands = [
        "kubectl logs pod-7f9c2d -n prod",
        "git show 3f9a2c1 --stat",
        "docker inspect w-5b8d",
    ]
    mined = _passed([(n, "bash", {"command": c}) for n, c in enumerate(commands)])
    parallel = _passed(
        [(5, "search_direct_flight", {"date": d}) for d in ("2024-05-20", "2024-05-21")]
    )
    assert len(mined) == 3 and len(parallel) == 2
    for values in (mined, parallel):
        shown = _beside_a_fact(values, len(values) - 1)  # room for every value, not the fact
        assert all(v.text in shown for v in values)
