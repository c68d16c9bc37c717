"""What the reports show: marks on raw messages, the stats adapter, the chart's scale."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

import pytest

from langgraph_compact.cli.inspector import _scale, chart_data
from langgraph_compact.cli.views import CallPoint, compaction_stats, coverage_range, mark_messages
from langgraph_compact.compaction import CompactionSettings, RunningSummary, compact
from langgraph_compact.messages import message_text
from langgraph_compact.replay import budget_of
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import load_trajectory, sample_path


@pytest.mark.parametrize(
    ("messages", "tokens", "expected"),
    [
        (120, 12_000, {"head", "summarized", "pruned", "verbatim"}),
        # all 40 in the recent window: dedupe waits for a compaction event there
        (40, 32_000, {"clipped", "verbatim"}),
    ],
)
def test_marks_follow_what_the_projection_did(messages: int, tokens: int, expected: set) -> None:
    raw = load_trajectory(sample_path("mini-swe-agent-test-django__django-11099"))[:messages]
    result = compact(raw, None, CompactionSettings(budget_of(tokens), counter=TokenCounter()))
    rows = mark_messages(raw, result.messages, result.summary)
    assert expected <= {r.mark for r in rows}
    shown = {m.id: message_text(m) for m in result.messages}
    summary = result.summary
    for r in rows:
        if r.mark in ("clipped", "pruned", "deduped"):
            assert r.ref == r.message_id and f"ref={r.ref}" in shown[r.message_id]
        if r.mark == "summarized":
            assert summary is not None
            assert summary.head_end <= r.index < summary.covered_through
        if r.mark == "verbatim":
            assert shown[r.message_id] == message_text(raw[r.index])
    # tool results share the group of the AI message that called them
    for a, b in pairwise(rows):
        if b.role == "tool":
            assert b.group == a.group


def test_without_a_projection_only_coverage_is_marked() -> None:
    raw = load_trajectory(sample_path("swe-agent-demo-ctf-crypto-eps"))
    rows = mark_messages(raw, None, None)
    assert {r.mark for r in rows} == {""}
    later = mark_messages(raw, raw[:10], None)
    assert {r.mark for r in later[10:]} == {"later"}


def test_stats_adapter_reads_dicts_and_dataclasses() -> None:
    legacy = {
        "raw_messages": 40,
        "fold": {"tokens_before": 900, "tokens_after": 600},
        "summarized": True,
        "summarizer": "extractive",
        "summary_generation": 2,
        "covered_through": 30,
        "tokens_after": 700,
    }
    assert compaction_stats(legacy)["stages"] == {"fold": 300}

    @dataclass(frozen=True)
    class Stats:
        raw_messages: int = 40
        tokens_after: int = 700
        summarized: bool = False
        stages: dict[str, int] = field(default_factory=lambda: {"clip": 5, "prune": 7})

    read = compaction_stats(Stats())
    assert read["stages"] == {"clip": 5, "prune": 7} and read["summarized"] is False
    assert read["tokens_after"] == 700 and read["summary_generation"] is None


def test_chart_scale_and_points() -> None:
    assert _scale(6_300) == (8_000.0, [0.0, 2_000.0, 4_000.0, 6_000.0, 8_000.0])
    assert _scale(65_000)[0] == 80_000.0
    calls = [CallPoint(1_000 * i, 500 * i, i == 3) for i in range(1, 6)]
    chart = chart_data(calls, 4_000)
    assert len(chart.raw.split()) == len(chart.sent.split()) == 5
    assert [call for _, call in chart.events] == [3]
    assert chart.budget_y is not None and chart.pad < chart.budget_y < chart.height - chart.pad


def test_html_escapes_every_message_and_needs_no_network() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from langgraph_compact.cli.inspector import render_html
    from langgraph_compact.cli.views import ThreadView

    hostile = '<script>alert("x")</script><img src="http://example.com/t.png">'
    raw = [HumanMessage(hostile, id="h-1"), AIMessage("fine", id="a-1")]
    view = ThreadView(
        title=hostile,
        thread_id="t",
        source="s",
        budget=None,
        calls=[],
        summary=None,
        messages=mark_messages(raw, None, None),
        redactions=[{"message_id": hostile, "reason": "r", "actor": "a", "redacted_at": "w"}],
    )
    page = render_html(view)
    assert '<script>alert("x")' not in page and "<img" not in page
    assert "&lt;script&gt;alert(" in page
    assert page.count("<script>") == 1  # the page's own search script, inline
    assert 'src="' not in page and 'href="' not in page  # nothing loads from anywhere


def test_no_coverage_label_is_an_empty_or_backward_range() -> None:
    for head in range(0, 5):
        for through in range(head, head + 4):
            for covers_head in (False, True):
                if through == head and not covers_head:
                    continue  # no summary covers nothing
                summary = RunningSummary(
                    head_end=head, covered_through=through, covers_head=covers_head
                )
                for label in (coverage_range(summary.model_dump()), summary.title()):
                    for a, b in re.findall(r"(\d+)–(\d+)", label):
                        assert int(a) <= int(b), label
                assert coverage_range(summary.model_dump()) != ""
