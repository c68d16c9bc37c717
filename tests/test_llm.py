"""ChatModelSummarizer: every answer shape is kept, previous items survive, pins come from
what the user said, required items are retried once and merged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from factories import ai_tool_call, human, system, tool_result
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableLambda
from pydantic import Field

from langgraph_compact import Budget, ChatModelSummarizer, CompactionSettings, acompact, compact
from langgraph_compact.compaction import RunningSummary, Section, SummaryItem
from langgraph_compact.compaction.llm import SummarySections
from langgraph_compact.compaction.summarize import SummaryRequest
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
BUDGET = Budget(context_window=3_000, reserved_output=0, compaction_reserve=0, safety_margin=0)


class ScriptedModel(GenericFakeChatModel):
    """Answers the given texts in order; records every prompt."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


class StructuredModel(ScriptedModel):
    """A model that supports structured output (what tool-calling chat models do)."""

    answers: list[SummarySections] = Field(default_factory=list)

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        assert schema is SummarySections
        answers = iter(self.answers)

        def answer(prompt: Any) -> SummarySections:
            self.prompts.append(list(prompt))
            return next(answers)

        return RunnableLambda(answer)


NOTES = (
    "Notes: the parser chokes on CRLF line endings; the CRLF handling lives in lexer_v2"
    " and is broken; the lexer state machine is in lexer.py. Port is 8443, build id is"
    " BX-7781. The failing input is sample_77.txt."
    " Keys: alpha_1 is 11, beta_2 is 22, gamma_3 is 33, delta_4 is 44."
)


def _history(turns: int = 30) -> list[BaseMessage]:
    msgs: list[BaseMessage] = [
        system(id="s"),
        human("Fix the parser. Never edit vendor/.", id="h"),
        human("I prefer tabs over spaces.", id="p"),
    ]
    for i in range(turns):
        if i == 1:  # what the scripted answers state, so grounding finds it
            msgs.append(human(NOTES, id="notes"))
        call = ai_tool_call("bash", {"command": f"cat src/p{i}.py"}, id=f"a{i}")
        msgs += [call, tool_result(call, "code\n" * 400, id=f"t{i}")]
    return msgs


def _run(
    model: Any, raw: list[BaseMessage] | None = None, summary: Any = None, *, retry: bool = False
) -> Any:
    summarizer = ChatModelSummarizer(model, retry=retry)
    settings = CompactionSettings(BUDGET, counter=COUNTER, summarizer=summarizer)
    return compact(raw or _history(), summary, settings)


def _answers(*texts: str) -> ScriptedModel:
    return ScriptedModel(messages=iter([AIMessage(t) for t in texts]), prompts=[])


def test_json_answer_is_kept_and_a_misfiled_preference_stays_pinned() -> None:
    answer = (
        '{"Goal": ["Fix the parser"], "Critical Context": ["User prefers tabs over spaces.",'
        ' "The parser chokes on CRLF line endings"], "Files Read": ["src/p1.py"]}'
    )
    result = _run(_answers(answer, answer))
    summary = result.summary
    assert summary is not None and summary.summarizer == "chat-model"
    assert summary.path.startswith("json")
    assert "The parser chokes on CRLF line endings" in summary.current(Section.CRITICAL)
    pinned = [i for i in summary.items(Section.CONSTRAINTS) if i.pinned]
    assert any("tabs over spaces" in i.text for i in pinned)  # pinned, under Constraints
    assert not any("tabs" in t for t in summary.current(Section.CRITICAL))  # not twice


def test_markdown_answer_is_read_by_its_headings() -> None:
    answer = (
        "## Goal\n- Fix the parser\n\n**Key Decisions**\n- Rewrite the tokenizer because the"
        " regex backtracks\n\n## Next Steps\n1. Run the parser tests on sample_77.txt"
    )
    summary = _run(_answers(answer, answer)).summary
    assert summary.path.startswith("markdown")
    assert any("tokenizer" in t for t in summary.current(Section.DECISIONS))
    assert any("sample_77.txt" in t for t in summary.current(Section.NEXT_STEPS))


def test_prose_answer_is_kept_as_text_not_discarded() -> None:
    answer = "The agent read thirty modules. The CRLF handling lives in lexer_v2 and is broken."
    summary = _run(_answers(answer, answer)).summary
    assert summary.path.startswith("prose")
    assert any("lexer_v2" in t for t in summary.current(Section.CRITICAL))


def test_truncated_json_keeps_its_complete_strings() -> None:
    answer = '{"Critical Context": ["Port is 8443", "Build id is BX-7781", "Cut off in the mid'
    summary = _run(_answers(answer, answer)).summary
    assert summary.path.startswith("json")
    text = summary.render()
    assert "8443" in text and "BX-7781" in text
    assert "Cut off in the mid" not in text


@pytest.mark.parametrize("garbage", ["", "\x00\x01 ###", "{not json at all", "I cannot do that."])
def test_garbage_keeps_the_required_items_and_the_previous_summary(garbage: str) -> None:
    raw = _history()
    summary = _run(_answers(garbage, garbage), raw).summary
    assert summary is not None and summary.summarizer == "chat-model"
    assert "merged" in summary.path  # the extractor's required items were merged in
    assert any("tabs over spaces" in i.text for i in summary.items(Section.CONSTRAINTS) if i.pinned)
    last = max(i for i, m in enumerate(raw[: summary.covered_through + 1]) if m.type == "tool")
    read = raw[last - 1].tool_calls[0]["args"]["command"].removeprefix("cat ")
    assert read in summary.current(Section.FILES_READ)


def test_items_the_model_omits_from_the_previous_summary_survive() -> None:
    raw = _history(100)
    four = (
        '{"Critical Context": ["alpha_1 is 11", "beta_2 is 22", "gamma_3 is 33", "delta_4 is 44"]}'
    )
    first = _run(_answers(four, four), raw[:90]).summary
    assert first is not None
    for value in ("11", "22", "33", "44"):
        assert value in first.render()
    # Valid JSON that keeps only half of what the previous summary had.
    half = '{"Critical Context": ["alpha_1 is 11", "beta_2 is 22"]}'
    summary = _run(_answers(half, half), raw, first).summary
    assert summary is not None and summary.generation == first.generation + 1
    text = summary.render()
    for value in ("11", "22", "33", "44"):
        assert value in text


def test_structured_output_is_used_when_the_model_supports_it() -> None:
    answer = SummarySections.model_validate(
        {"Goal": ["Fix the parser"], "Critical Context": ["Lexer state machine is in lexer.py"]}
    )
    model = StructuredModel(messages=iter([]), prompts=[], answers=[answer, answer])
    summary = _run(model).summary
    assert summary.path.startswith("structured")
    assert any("state machine" in t for t in summary.current(Section.CRITICAL))


def test_missing_required_items_are_merged_without_a_second_call() -> None:
    model = _answers('{"Goal": ["Fix the parser"]}', '{"Goal": ["Fix the parser"]}')
    summary = _run(model).summary
    assert len(model.prompts) == 1
    assert summary.path.startswith("json+merged")
    assert "src/p24.py" in summary.current(Section.FILES_READ)


def test_missing_required_items_cause_one_retry_listing_them_when_asked() -> None:
    model = _answers('{"Goal": ["Fix the parser"]}', '{"Goal": ["Fix the parser"]}')
    summary = _run(model, retry=True).summary
    assert len(model.prompts) == 2  # one retry, no more
    assert "missing" in model.prompts[1][-1].content and "src/p" in model.prompts[1][-1].content
    assert summary.path.startswith("json+retry+merged")
    assert "src/p24.py" in summary.current(Section.FILES_READ)


def test_a_complete_answer_needs_no_retry() -> None:
    raw = [system(id="s"), human("Audit it.", id="h")]
    for i in range(12):
        call = ai_tool_call("bash", {"command": "ls"}, id=f"a{i}")
        raw += [call, tool_result(call, "x\n" * 2_000, id=f"t{i}")]
    model = _answers('{"Done": ["listed the directory"]}')
    summary = _run(model, raw).summary
    assert summary is not None and len(model.prompts) == 1
    assert summary.path == "json"


async def test_async_matches_sync() -> None:
    answer = '{"Critical Context": ["The parser chokes on CRLF line endings"]}'
    raw = _history()
    settings = CompactionSettings(
        BUDGET, counter=COUNTER, summarizer=ChatModelSummarizer(_answers(answer, answer))
    )
    a = await acompact(raw, None, settings)
    b = _run(_answers(answer, answer), raw)
    assert isinstance(a.summary, RunningSummary)
    assert a.summary.sections == b.summary.sections and a.summary.path == b.summary.path


class EchoingModel(GenericFakeChatModel):
    """Answers JSON made of the prompt's own lines, list markers and headings included:
    what a model does that copies the summary it was shown."""

    messages: Any = None

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        from langchain_core.outputs import ChatGeneration, ChatResult

        from langgraph_compact.messages import message_text

        lines = [ln for m in messages[1:] for ln in message_text(m).splitlines() if ln.strip()]
        text = json.dumps({"Critical Context": lines[:60]})
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text))])


def test_lines_a_model_copies_from_the_summary_do_not_pile_up_list_markers() -> None:
    raw = _history(0)
    for i in range(60):
        call = ai_tool_call("bash", {"command": f"./probe --shard {i}"}, id=f"a{i}")
        lines = "\n".join(f"shard_{i}_key_{k}: {1000 + 37 * k}" for k in range(40))
        raw += [call, tool_result(call, lines, id=f"t{i}")]
    settings = CompactionSettings(
        BUDGET, counter=COUNTER, summarizer=ChatModelSummarizer(EchoingModel())
    )
    summary = None
    for end in range(20, len(raw) + 1, 4):  # one compaction after another, each a delta
        result = compact(raw[:end], summary, settings)
        summary = result.summary or summary
    assert summary is not None and summary.generation >= 2
    texts = [i.text for items in summary.sections.values() for i in items]
    assert texts
    assert not [t for t in texts if t.startswith(("- ", "* ", "#", "[Summary of", "(none"))], texts


def _next_request(raw: list[BaseMessage], previous: RunningSummary) -> SummaryRequest:
    """The request extending ``previous`` by the next ten messages of ``raw``."""
    return SummaryRequest(
        previous=previous,
        head=raw[:3],
        span=raw[previous.covered_through : previous.covered_through + 10],
        span_start=previous.covered_through,
        max_tokens=600,
        count_text=COUNTER.count_text,
    )


def test_a_model_restating_the_previous_summary_adds_no_weaker_copy() -> None:
    """Models copy the previous summary into their answer. Each copied line is the old
    item, not a new weak note: under Critical Context at the model's salience it would
    displace the path, decision or fact it repeats."""
    raw = _history(60)
    first = _run(_answers("{}", "{}"), raw[:90]).summary
    assert first is not None
    copied = [i.text for items in first.sections.values() for i in items]
    assert any(t.startswith("src/p") for t in copied)
    echo = json.dumps({"Critical Context": copied})
    draft = ChatModelSummarizer(_answers(echo, echo)).summarize(_next_request(raw, first))
    held = [(s, i.text) for s, items in draft.sections.items() for i in items]
    for section, items in first.sections.items():
        for i in items:
            assert [s for s, t in held if t == i.text] == [section], i.text


def test_a_model_line_that_mentions_a_previous_value_is_new() -> None:
    raw = _history(60)
    made = _run(_answers("{}", "{}"), raw[:90]).summary
    assert made is not None
    retries = SummaryItem(text="retries: 3", key="fact:retries", kind="fact", salience=0.7)
    first = made.model_copy(update={"sections": {**made.sections, Section.CRITICAL: (retries,)}})
    request = _next_request(raw, first)
    read = next(m for m in request.span if m.type == "ai").tool_calls[0]["args"]["command"]
    lines = {  # each mentions a value the request holds (grounded), none copies a line
        "In Progress": [f"Editing {read.removeprefix('cat ')} to fix the redirect loop"],
        "Critical Context": ["Split the auth code into 3 modules", "Release waits for retries: 3"],
    }
    answer = json.dumps(lines)
    draft = ChatModelSummarizer(_answers(answer, answer)).summarize(request)
    held = [i.text for items in draft.sections.values() for i in items]
    for texts in lines.values():
        for text in texts:
            assert text in held


def test_a_value_the_model_invented_is_flagged_not_stored() -> None:
    answer = '{"Critical Context": ["Port is 8443", "The cache lives at redis-9.internal:6380"]}'
    summary = _run(_answers(answer, answer)).summary
    assert summary is not None
    text = summary.render()
    assert "8443" in text  # stated in the notes
    assert "redis-9.internal:6380" not in text  # stated nowhere
    assert any("redis-9.internal:6380" in line for line in summary.flagged)


class CallCopyingModel(GenericFakeChatModel):
    """Answers with the prompt's tool-call lines, as a model quoting what the agent ran."""

    messages: Any = None

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        from langchain_core.outputs import ChatGeneration, ChatResult

        from langgraph_compact.messages import message_text

        lines = [ln.strip() for ln in message_text(messages[-1]).splitlines()]
        text = json.dumps({"Done": [ln for ln in lines if ln.startswith("-> ")]})
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text))])


_COMMAND = st.text(alphabet=st.sampled_from(list("ab9 -./\"'\\:=\n")), min_size=1, max_size=60)


@settings(max_examples=40, deadline=None)
@given(commands=st.lists(_COMMAND, min_size=1, max_size=4), two_args=st.booleans())
def test_a_call_the_model_quotes_from_its_prompt_is_grounded(
    commands: list[str], two_args: bool
) -> None:
    """The prompt shows each call's arguments as the text values are quoted from (a lone
    string as it is, else canonical JSON), so a model quoting the call it was shown is not
    flagged for quotes, backslashes or newlines that JSON would have escaped."""
    raw = _history(30)
    for n, command in enumerate(commands):  # early enough to be summarized
        args = {"command": command, "timeout": 30} if two_args else {"command": command}
        call = ai_tool_call("bash", args, id=f"c{n}")
        raw[4:4] = [call, tool_result(call, "ok", id=f"r{n}")]
    settings_ = CompactionSettings(
        BUDGET, counter=COUNTER, summarizer=ChatModelSummarizer(CallCopyingModel())
    )
    summary = compact(raw, None, settings_).summary
    assert summary is not None
    assert not [line for line in summary.flagged if "-> bash" in line], summary.flagged
