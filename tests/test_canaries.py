"""Facts planted early in a long real history survive many successive compactions."""

from __future__ import annotations

from corpus import CORPUS_DIR
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction.run import compact
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary, Section
from langgraph_compact.tokens import Budget, TokenCounter
from langgraph_compact.trajectories import load_trajectory

COUNTER = TokenCounter()
NOISE = "mini-swe-agent-dev_rerun-pylint-dev__astroid-1333.jsonl"


def _planted_history() -> list[BaseMessage]:
    noise = load_trajectory(CORPUS_DIR / NOISE)
    head, body = noise[:2], noise[2:]
    edit = body[0].model_copy(
        update={
            "tool_calls": [
                {
                    "id": "plant-call",
                    "name": "bash",
                    "args": {"command": "sed -i 's/a/b/' conf/app_settings.yaml"},
                }
            ],
            "id": "plant-ai",
        }
    )
    planted: list[BaseMessage] = [
        HumanMessage("Constraint: never modify files under migrations/.", id="p-constraint"),
        HumanMessage("The API rate limit is 120 requests per minute.", id="p-fact"),
        HumanMessage("My ticket is ZX-4471.", id="p-id"),
        HumanMessage("I prefer small commits over one big commit.", id="p-pref"),
        HumanMessage("Deploy settings live in conf/app_settings.yaml", id="p-path"),
        HumanMessage("The release deadline is March 3.", id="p-old"),
        edit,
        ToolMessage("", tool_call_id="plant-call", name="bash", id="plant-tool"),
    ]
    correction = HumanMessage(
        "Correction: the release deadline is now March 9, not March 3.", id="p-new"
    )
    return [*head, *planted, *body[1:60], correction, *body[60:]]


def _strip_call(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The noise's first AI message was replaced by the planted edit; drop its old result."""
    answered = {c["id"] for m in messages for c in getattr(m, "tool_calls", [])}
    return [m for m in messages if not isinstance(m, ToolMessage) or m.tool_call_id in answered]


def test_planted_items_survive_five_or_more_compactions() -> None:
    raw = _strip_call(_planted_history())
    budget = Budget(context_window=6_000, reserved_output=0, compaction_reserve=0, safety_margin=0)
    settings = CompactionSettings(budget, counter=COUNTER)
    summary: RunningSummary | None = None
    generations_after_plant = 0
    for end in range(3, len(raw) + 1):
        if (
            isinstance(raw[end - 1], ToolMessage)
            and end < len(raw)
            and isinstance(raw[end], ToolMessage)
        ):
            continue
        result = compact(raw[:end], summary, settings)
        if result.summary_changed and result.summary is not None:
            summary = result.summary
            if summary.covered_through > 10:
                generations_after_plant += 1
    assert summary is not None
    assert generations_after_plant >= 5
    text = summary.render()
    assert "never modify files under migrations/" in text
    assert "The API rate limit is 120 requests per minute" in text  # verbatim
    assert "ZX-4471" in text
    assert "prefer small commits" in text
    assert any("conf/app_settings.yaml" in item for item in summary.current(Section.CRITICAL))
    critical = summary.current(Section.CRITICAL)
    assert "the release deadline is now March 9" in critical
    assert not any("March 3" in item for item in critical)
