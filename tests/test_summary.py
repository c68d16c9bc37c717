"""RunningSummary: sections, rendering, lineage and serialization round-trips."""

from __future__ import annotations

import json

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from langgraph_compact.compaction.summary import (
    RunningSummary,
    Section,
    SummaryItem,
    is_summary_message,
)


def _summary() -> RunningSummary:
    return RunningSummary(
        head_end=2,
        covered_through=40,
        last_covered_id="m-39",
        span_digest="abc",
        generation=3,
        parent_generation=2,
        sections={
            Section.GOAL: (
                SummaryItem(text="old goal", key="old:goal", historical=True),
                SummaryItem(text="Fix the date parser", key="goal", sources=("m-1",)),
            ),
            Section.CONSTRAINTS: (SummaryItem(text="Never touch migrations/", pinned=True),),
            Section.DONE: (SummaryItem(text="bash: pytest -x", sources=("m-12",)),),
            Section.FILES_MODIFIED: (SummaryItem(text="src/parse.py", sources=("m-20",)),),
            Section.CRITICAL: (SummaryItem(text="ticket: ZX-4471", sources=("m-5", "m-9")),),
        },
    )


def test_render_has_one_marked_header_and_sections_in_anchor_order() -> None:
    text = _summary().render()
    assert text.startswith("[Summary of messages 3–40 (generation 3)")
    assert "recall(ref or query)" in text.splitlines()[0]
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Goal",
        "## Constraints & Preferences",
        "## Progress",
        "## Critical Context",
        "## Relevant Files",
    ]
    assert "### Done" in text and "### Files Modified" in text


def test_historical_items_are_labelled_and_not_current() -> None:
    summary = _summary()
    assert summary.current(Section.GOAL) == ["Fix the date parser"]
    assert "- (historical, earlier task) old goal" in summary.render()


def test_to_message_is_recognisable_summary() -> None:
    message = _summary().to_message()
    assert is_summary_message(message)
    assert message.id == "summary-gen-3"
    assert message.additional_kwargs["langgraph_compact_summary"]["covered_through"] == 40


def test_lineage_maps_items_to_source_ids() -> None:
    assert _summary().source_ids()["ticket: ZX-4471"] == ["m-5", "m-9"]


def test_round_trips_through_json_and_jsonplus() -> None:
    summary = _summary()
    assert RunningSummary.model_validate_json(summary.to_json()) == summary
    assert json.loads(summary.to_json())["sections"]["Goal"][1]["text"] == "Fix the date parser"
    serde = JsonPlusSerializer()
    restored = serde.loads_typed(serde.dumps_typed(summary))
    assert isinstance(restored, RunningSummary)
    assert restored == summary


def test_without_sources_drops_derived_items_and_invalidates_coverage() -> None:
    summary = _summary().without_sources({"m-9"})
    assert summary.current(Section.CRITICAL) == []
    assert summary.current(Section.GOAL) == ["Fix the date parser"]
    assert summary.span_digest == "" and summary.rebuilt_reason == "redacted"
