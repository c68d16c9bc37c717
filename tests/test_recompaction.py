"""Re-compaction: the whole previous context comes back as one message, round after round.

A rotated session's hand-off, a pasted brief or a compactor of compactors hands the
next run one large first message. Each round here renders the projection to one message
and feeds it back as the next round's only request, at an output budget of 20% of the
original transcript (and of 30%): what every kind of canary said must survive every
round, with no stale value and no ``ContextBudgetError``. A hand-off that fits under the
trigger comes back whole; a longer one is clipped and what the clip left out summarized.
A summary rendered and read back gives back its items.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from corpus import CORPUS_DIR
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_compact import Budget, CompactionSettings, TokenCounter, compact
from langgraph_compact.compaction import RunningSummary, Section
from langgraph_compact.compaction.quote import Source
from langgraph_compact.compaction.readback import parse_rendered_summary
from langgraph_compact.trajectories import load_trajectory

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from canaries import KINDS, plant
from recompaction_bench import GENERATORS
from recompaction_bench import render as _render

COUNTER = TokenCounter()
ROUNDS = 6


@pytest.mark.parametrize("share", [0.2, 0.3])
@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("mini-swe-agent-test-django__django-11099.jsonl", 1),
        ("mini-swe-agent-dev_rerun-marshmallow-code__marshmallow-1343.jsonl", 2),
        ("tau-bench-airline-gpt-4o-task002-trial1.jsonl", 3),
    ],
)
def test_what_the_context_carried_survives_every_round(name: str, seed: int, share: float) -> None:
    transcript, canaries = plant(load_trajectory(CORPUS_DIR / name), seed, KINDS)
    tokens = COUNTER.count_messages(transcript)
    budget = Budget(
        context_window=max(2_000, int(tokens * share)),
        reserved_output=0,
        compaction_reserve=0,
        safety_margin=0,
    )
    settings = CompactionSettings(budget, counter=COUNTER)
    system = [m for m in transcript[:1] if isinstance(m, SystemMessage)]
    messages: list[BaseMessage] = transcript
    summary: RunningSummary | None = None
    for round_no in range(1, ROUNDS + 1):
        result = compact(messages, None, settings)  # a new session: no stored summary
        assert COUNTER.count_messages(result.messages) <= budget.usable
        text = _render(result.messages)
        for c in canaries:
            assert c.probe.lower() in text.lower(), (round_no, c.kind, c.text)
        summary = result.summary
        if summary is not None:
            rendered = summary.render().lower()
            for c in canaries:
                if c.stale:
                    assert c.stale.lower() not in rendered, (round_no, c.text)
        if round_no > 1:
            handoff = messages[-1]
            if COUNTER.count_messages(messages) <= budget.trigger_tokens:
                assert result.messages[-1] is handoff  # what fits comes back whole
            else:  # clipped, and what the clip left out is summarized, labelled as such
                assert summary is not None and summary.covers_head
                assert "left out above" in summary.title()  # never "covers 3–2"
        messages = [*system, HumanMessage(text, id=f"handoff-{round_no}")]


def test_a_rendered_summary_reads_back_as_the_same_items() -> None:
    transcript, _ = plant(
        load_trajectory(CORPUS_DIR / "tau-bench-airline-gpt-4o-task002-trial1.jsonl"), 4
    )
    budget = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    summary = compact(transcript, None, CompactionSettings(budget, counter=COUNTER)).summary
    assert summary is not None
    text = summary.render()
    parsed = parse_rendered_summary(Source("handoff", text), 1)
    assert parsed is not None
    items, where = parsed
    assert where == [(0, len(text))]
    back: dict[Section, list[tuple[str, bool]]] = {}
    for section, item in items:
        back.setdefault(section, []).append((item.text, item.historical))
    shown = {  # in render order: an earlier task's items after the current ones
        s: sorted(((i.text, i.historical) for i in summary.items(s)), key=lambda ti: ti[1])
        for s in summary.sections
        if summary.items(s)
    }
    assert any(h for pairs in shown.values() for _, h in pairs)  # an earlier task is read too
    assert back == shown


@pytest.mark.parametrize("share", [0.2, 0.3])
@pytest.mark.parametrize("generator", ["canaries", "held-out"])
@pytest.mark.parametrize(
    "name",
    [
        "swe-agent-demo-ctf-crypto-katy.jsonl",
        "tau-bench-airline-gpt-4o-task002-trial1.jsonl",
        "mini-swe-agent-dev-pvlib__pvlib-python-1707.jsonl",
    ],
)
def test_what_one_round_shows_the_next_round_keeps(name: str, generator: str, share: float) -> None:
    """Re-compacting a compacted context loses nothing more: the probes the first round
    shows are shown by every later round (a clip never cuts through the summary it
    carries, and the summary is read back whole), whatever generator planted them."""
    transcript, canaries = GENERATORS[generator](load_trajectory(CORPUS_DIR / name), 5)
    tokens = COUNTER.count_messages(transcript)
    window = max(2_000, int(tokens * share))
    budget = Budget(context_window=window, reserved_output=0, compaction_reserve=0, safety_margin=0)
    settings = CompactionSettings(budget, counter=COUNTER)
    system = [m for m in transcript[:1] if isinstance(m, SystemMessage)]
    messages: list[BaseMessage] = transcript
    shown: set[str] | None = None
    for round_no in range(1, ROUNDS + 1):
        result = compact(messages, None, settings)
        assert COUNTER.count_messages(result.messages) <= budget.usable
        text = _render(result.messages).lower()
        now = {c.probe for c in canaries if c.probe.lower() in text}
        assert shown is None or now >= shown, (round_no, shown - now)
        shown = now if shown is None else shown
        assert len(shown) >= len(canaries) // 2  # the first round shows most of them
        messages = [*system, HumanMessage(_render(result.messages), id=f"handoff-{round_no}")]
