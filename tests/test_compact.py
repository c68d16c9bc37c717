"""compact()/acompact(): typed results, the shrink order, hung summarizers, bad inputs."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from typing import Any

import pytest
from factories import ai, ai_tool_call, human, system, tool_result
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_compact import (
    Budget,
    CompactionSettings,
    CompactionStats,
    ContextBudgetError,
    ExtractiveSummarizer,
    acompact,
    compact,
    plan_compaction,
)
from langgraph_compact.compaction import Section, SummaryDraft, SummaryRequest
from langgraph_compact.errors import MessageError, SettingsError
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
BUDGET = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)


def _history(turns: int = 40) -> list[BaseMessage]:
    msgs: list[BaseMessage] = [system(id="sys"), human("Fix the failing date parser.", id="h0")]
    for i in range(turns):
        call = ai_tool_call("bash", {"command": f"sed -n {i},+40p src/mod_{i}.py"}, id=f"a{i}")
        msgs += [call, tool_result(call, f"line {i}\n" * 200, id=f"t{i}")]
    return msgs


def _settings(**kw: Any) -> CompactionSettings:
    return CompactionSettings(BUDGET, counter=COUNTER, **kw)


def test_plan_and_stats_are_immutable_and_typed() -> None:
    raw = _history()
    plan = plan_compaction(raw, None, _settings())
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.cut = 0  # type: ignore[misc]
    result = compact(raw, None, _settings())
    assert isinstance(result.stats, CompactionStats)
    event = dataclasses.asdict(result.stats)
    assert event["tokens_after"] == COUNTER.count_messages(result.messages)
    assert (
        event["head_tokens"] + event["summary_tokens"] + event["tail_tokens"]
        == (event["tokens_after"])
    )
    assert set(event["stages"]) == {"clip", "dedupe", "prune"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.stats.tokens_after = 0  # type: ignore[misc]
    again = compact(raw, result.summary, _settings())
    assert plan.request is not None and again.stats.summarized is False


def test_a_dict_summary_is_accepted_like_the_node_does() -> None:
    raw = _history()
    first = compact(raw, None, _settings())
    assert first.summary is not None
    again = compact(raw, first.summary.model_dump(), _settings())
    assert not again.summary_changed and again.messages == first.messages


@pytest.mark.parametrize("bad", [{"role": "user", "content": "x"}, ("user", "x"), "x", None])
def test_non_messages_are_a_message_error_not_an_attribute_error(bad: object) -> None:
    raw: list[Any] = [system(id="s"), human(id="h"), bad]
    with pytest.raises(MessageError, match=r"messages\[2\] is a "):
        compact(raw, None, _settings())


@pytest.mark.parametrize(
    "bad", [{"keep_recent_tokens": -1}, {"loop_threshold": 1}, {"summarizer_timeout": 0}]
)
def test_bad_settings_are_a_settings_error(bad: dict[str, Any]) -> None:
    with pytest.raises(SettingsError):
        _settings(**bad)


def test_the_budget_is_met_by_shrinking_tail_then_head_then_summary() -> None:
    """A turn too large for the tail is clipped harder before anything else shrinks."""
    big = ai_tool_call("bash", {"command": "cat huge.log"}, id="big")
    raw = [*_history(20), big, tool_result(big, "x7 y8 z9\n" * 5_000, id="big-out")]
    result = compact(raw, None, _settings(output_share=None))
    assert COUNTER.count_messages(result.messages) <= BUDGET.usable
    assert result.stats.shrunk and result.stats.shrunk[0].startswith("tail")
    assert "ref=big-out" in result.messages[-1].content  # clipped, never dropped


def test_budget_error_names_every_part_when_nothing_more_can_shrink() -> None:
    prompt = SystemMessage("policy rule. " * 700, id="s")  # ~2,100 of 2,400 usable tokens
    tiny = Budget(context_window=2_400, reserved_output=0, compaction_reserve=0, safety_margin=0)
    rules = " ".join(f"Never restart the service shard-{i} in zone z{i}." for i in range(40))
    raw = [prompt, human("Never touch prod.", id="h"), HumanMessage(rules, id="pin")]
    raw += _history(6)[2:]
    with pytest.raises(ContextBudgetError) as info:
        compact(raw, None, CompactionSettings(tiny, counter=COUNTER))
    message = str(info.value)
    for part in ("system prompt", "first request", "summary", "tail", "context_window"):
        assert part in message


class HungThenFine:
    """The first ``hung`` calls never return (until released); later ones answer."""

    name = "hung-then-fine"

    def __init__(self, hung: int) -> None:
        self.hung = hung
        self.calls = 0
        self.release = threading.Event()
        self.arelease: asyncio.Event | None = None

    def summarize(self, request: SummaryRequest) -> SummaryDraft:
        self.calls += 1
        if self.calls <= self.hung:
            self.release.wait()
        return ExtractiveSummarizer().summarize(request)

    async def asummarize(self, request: SummaryRequest) -> SummaryDraft:
        self.calls += 1
        if self.calls <= self.hung:
            self.arelease = self.arelease or asyncio.Event()
            await self.arelease.wait()
        return ExtractiveSummarizer().summarize(request)


def test_six_hung_summarizer_calls_do_not_starve_the_seventh() -> None:
    summarizer = HungThenFine(hung=6)
    settings = _settings(summarizer=summarizer, summarizer_timeout=0.5)
    try:
        for _ in range(6):
            result = compact(_history(), None, settings)
            assert result.summary is not None and result.summary.summarizer == "extractive"
            assert "no answer within" in (result.stats.summarizer_error or "")
        # The seventh gets time enough to run on a loaded machine, but not enough to wait
        # for a hung call ahead of it: a shared pool would time it out.
        started = time.perf_counter()
        seventh = compact(_history(), None, dataclasses.replace(settings, summarizer_timeout=2.5))
        assert seventh.summary is not None and seventh.summary.summarizer == "hung-then-fine"
        assert time.perf_counter() - started < 3.0  # no queue behind the hung ones
        assert summarizer.calls == 7
    finally:
        summarizer.release.set()


async def test_six_hung_async_summarizer_calls_do_not_starve_the_seventh() -> None:
    summarizer = HungThenFine(hung=6)
    settings = _settings(summarizer=summarizer, summarizer_timeout=0.5)
    for _ in range(6):
        result = await acompact(_history(), None, settings)
        assert result.summary is not None and result.summary.summarizer == "extractive"
    seventh = await acompact(_history(), None, settings)
    assert seventh.summary is not None and seventh.summary.summarizer == "hung-then-fine"


def test_fallbacks_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        name = "broken"

        def summarize(self, request: SummaryRequest) -> SummaryDraft:
            raise RuntimeError("provider down")

        async def asummarize(self, request: SummaryRequest) -> SummaryDraft:
            raise RuntimeError("provider down")

    with caplog.at_level("WARNING", logger="langgraph_compact"):
        result = compact(_history(), None, _settings(summarizer=Broken()))
    assert "provider down" in caplog.text and result.summary is not None
    assert result.summary.path.startswith("fallback: RuntimeError: provider down")


def test_first_request_only_summary_is_labelled_truthfully() -> None:
    task = "Set up the service. " + "Context sentence. " * 3_000 + "Port is 7443. Done."
    result = compact(
        [system(id="s"), HumanMessage(task, id="h"), ai("ok", id="a")], None, _settings()
    )
    summary = result.summary
    assert summary is not None and summary.covers_head
    assert summary.covered_through == summary.head_end  # nothing but the head's middle
    assert "messages 3–2" not in summary.title()
    assert summary.title().startswith("[Summary of the part of message 2 left out above")


def test_the_summary_does_not_repeat_the_opening_the_clipped_request_shows() -> None:
    opening = "Migrate the billing exports to the new warehouse."
    filler = "Background paragraph. " * 1_500
    task = f"{opening}\n\n{filler}\n\nThe cutover port is 7443.\n\n{filler}"
    raw = [system(id="s"), HumanMessage(task, id="h"), *_history(30)[2:]]
    result = compact(raw, None, _settings())
    head = next(m for m in result.messages if m.id == "h")
    summary = result.summary
    assert summary is not None and summary.covers_head
    assert opening in str(head.content) and str(head.content) != task  # clipped, opening shown
    assert not summary.current(Section.GOAL)
    assert opening not in summary.render()
    assert "7443" not in str(head.content)
    assert "The cutover port is 7443" in summary.render()  # what the clip hid is carried


@pytest.mark.parametrize("over", range(1, 41))
def test_a_projection_a_few_tokens_over_evicts_unpinned_summary_items(over: int) -> None:
    """The summary's cap counts rendered text, the budget counts the message: being over by
    less than the message's overhead must still evict, not raise."""
    raw = [system("You are a careful agent.", id="s"), human("Never touch prod.", id="h")]
    for i in range(12):
        call = ai_tool_call("bash", {"command": f"cat conf_{i}.ini"}, id=f"a{i}")
        out = f"shard_{i}_port: {8100 + i}\nERROR shard-{i}: connection refused (code E{300 + i})"
        pad = "\npad" * 40 if i < 10 else ""  # the recent turns are too short to clip
        raw += [call, tool_result(call, out + pad, id=f"t{i}")]

    def settings(usable: int) -> CompactionSettings:
        budget = Budget(
            context_window=usable,
            reserved_output=0,
            compaction_reserve=0,
            safety_margin=0,
            trigger_fraction=0.2,
            target_fraction=0.1,
        )
        return CompactionSettings(
            budget,
            counter=COUNTER,
            keep_recent_tokens=60,
            summary_max_tokens=400,
            min_compaction_gain=0,
            output_share=None,
            head_max_tokens=200,
        )

    roomy = compact(raw, None, settings(3_000))
    size = COUNTER.count_messages(roomy.messages)
    tight = compact(raw, None, settings(size - over))
    assert COUNTER.count_messages(tight.messages) <= size - over
    assert "summary: unpinned items evicted" in tight.stats.shrunk
    assert tight.summary is not None and tight.summary.current(Section.GOAL)


@pytest.mark.parametrize("seed", range(3))
def test_a_correction_in_view_strikes_the_old_value_from_the_summary(seed: int) -> None:
    import random

    rng = random.Random(seed)
    name = "".join(rng.choice("abcdefgh") for _ in range(6))
    old, new = f"{rng.randint(1000, 4999)}", f"{rng.randint(5000, 9999)}"
    raw = _history(4)
    raw.insert(3, human(f"The {name} quota is {old}.", id="said"))
    raw += _history(36)[2:]
    first = compact(raw, None, _settings())
    assert first.summary is not None and old in first.summary.render()
    later = [
        *raw,
        human(f"Actually, the {name} quota is {new}, not {old}.", id="fix"),
        human("Keep going, and never edit vendor/.", id="rule"),
        human("That is 9 spaces, not 8.", id="short"),
    ]
    result = compact(later, first.summary, _settings())
    shown = result.summary
    assert shown is not None and old not in shown.render()
    assert result.stats.summary_changed and shown.generation == first.summary.generation
    kept = {i.text for items in first.summary.sections.values() for i in items if old not in i.text}
    assert kept == {i.text for items in shown.sections.values() for i in items}  # only that
    again = compact(later, shown, _settings())  # nothing left to strike: stable
    assert not again.stats.summary_changed and again.messages == result.messages
