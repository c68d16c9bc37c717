"""Faithful summaries: every value a summary shows is a verbatim span of what it summarizes.

Hypothesis writes histories whose sentences, tool outputs and call arguments carry the
values a rewrite would damage (times, host:port pairs, URLs, ISO dates, hex ids, JSON,
Windows and POSIX paths, non-ASCII words). Whatever the extractive summarizer or a chat
model answers, no section may show a value no message wrote: extracted items quote their
source by offsets, and a model's item that restates a value otherwise is flagged.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from factories import ai, ai_tool_call, human, system, tool_result
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage

from langgraph_compact import Budget, ChatModelSummarizer, CompactionSettings, compact
from langgraph_compact.compaction import RunningSummary
from langgraph_compact.compaction.quote import (
    args_text,
    message_sources,
    quote_problems,
    unquoted_values,
)
from langgraph_compact.messages import message_text
from langgraph_compact.tokens import TokenCounter

COUNTER = TokenCounter()
BUDGET = Budget(context_window=1_500, reserved_output=0, compaction_reserve=0, safety_margin=0)

word = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
num = st.integers(0, 99_999)
VALUES: dict[str, st.SearchStrategy[str]] = {
    "time": st.builds(lambda h, m: f"{h:02d}:{m:02d} UTC", st.integers(0, 23), st.integers(0, 59)),
    "host": st.builds(lambda w, n, p: f"{w}-{n}.internal:{p}", word, st.integers(1, 9), num),
    "url": st.builds(lambda w, p, n: f"https://{w}.example.org/{p}/{n}?q={n}", word, word, num),
    "date": st.dates().map(lambda d: d.isoformat()),
    "hex": st.text("0123456789abcdef", min_size=8, max_size=16),
    "json": st.dictionaries(word, num, min_size=1, max_size=2).map(json.dumps),
    "windows": st.builds(lambda a, b: f"C:\\Users\\{a}\\{b}.toml", word, word),
    "posix": st.builds(lambda a, b, n: f"/srv/{a}/{b}.py:{n}:8", word, word, num),
    "unicode": st.sampled_from(["Zürich", "café", "東京", "Łódź", "naïve", "Ünïcode"]),
    "version": st.builds(lambda a, b: f"{a}.{b}.0-rc.1", st.integers(0, 9), st.integers(0, 20)),
}
value = st.one_of(*VALUES.values())
FRAMES = [
    "The {w} is {v}.",
    "Connect to {v} for the {w}.",
    "Never touch {v} again.",
    "{w}: {v}",
    "I prefer {v} over the {w}.",
    "Actually, the {w} is now {v}, not {v2}.",
    "We use {v} because the {w} needs it.",
    "Error: {w} failed at {v}",
]
filler = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=0, max_size=30
)


@st.composite
def sentence(draw: st.DrawFn) -> str:
    frame = draw(st.sampled_from(FRAMES))
    text = frame.format(w=draw(word), v=draw(value), v2=draw(value))
    return f"{draw(filler)} {text}".strip() if draw(st.booleans()) else text


@st.composite
def history(draw: st.DrawFn) -> list[BaseMessage]:
    """A system prompt, a request, then turns of calls, outputs, user and assistant text."""
    said = " ".join(draw(st.lists(sentence(), min_size=1, max_size=3)))
    msgs: list[BaseMessage] = [system(id="s"), human(said, id="h")]
    for i in range(draw(st.integers(12, 18))):
        call = ai_tool_call("bash", {"command": f"cat {draw(value)} part{i}"}, id=f"a{i}")
        lines = draw(st.lists(sentence(), min_size=1, max_size=4))
        bulk = "\n".join(f"log {n} of part {i}" for n in range(100))  # forces a summary
        msgs += [call, tool_result(call, "\n".join([*lines, bulk]), id=f"t{i}")]
        if draw(st.booleans()):
            msgs.append(human(draw(sentence()), id=f"u{i}"))
        if draw(st.booleans()):
            msgs.append(ai(draw(sentence()), id=f"x{i}"))
    return msgs


def _texts(raw: list[BaseMessage]) -> list[str]:
    """Every text a value may be quoted from: contents, call arguments and tool names."""
    out = [message_text(m) for m in raw]
    for m in raw:
        if isinstance(m, AIMessage):
            for call in m.tool_calls:
                out += [args_text(call), str(call["name"]), *map(str, call["args"])]
    return out


def _assert_faithful(summary: RunningSummary, raw: list[BaseMessage]) -> None:
    sources, texts = message_sources(raw), _texts(raw)
    for section, items in summary.sections.items():
        for item in items:
            assert quote_problems(item.text, item.spans, sources) == [], (section, item.text)
            assert unquoted_values(item.text, texts) == [], (section, item.text)
    for line in summary.render().splitlines()[1:]:  # the title names message numbers
        if not line.startswith("#"):  # headings are the format's own words
            assert unquoted_values(line.removeprefix("- "), texts) == [], line


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(history())
def test_extractive_summaries_show_only_verbatim_values(raw: list[BaseMessage]) -> None:
    result = compact(raw, None, CompactionSettings(BUDGET, counter=COUNTER))
    assume(result.summary is not None)  # clipping alone made it fit
    assert result.summary is not None
    _assert_faithful(result.summary, raw)


_HOST = re.compile(r"\b([a-z]+)-(\d)\.internal:(\d+)")


@SETTINGS
@given(history(), st.data())
def test_model_answers_show_only_verbatim_values(raw: list[BaseMessage], data: Any) -> None:
    texts = [message_text(m) for m in raw[1:] if m.type in ("human", "tool")]
    copied = [ln for t in texts for ln in t.splitlines() if not ln.startswith("log ")]
    quoted = data.draw(st.lists(st.sampled_from(copied), min_size=1, max_size=4))
    invented = [f"The {data.draw(word)} is {v}" for v in data.draw(st.lists(value, max_size=3))]
    # what a tokenizer does to a host: "db-3.internal:5432" -> "db 3.internal: 5432"
    hosts = {m.group() for t in texts for m in _HOST.finditer(t)}
    respaced = ["The runner is at " + _HOST.sub(r"\1 \2.internal: \3", h) for h in hosts]
    answer = json.dumps({"Critical Context": [*quoted, *invented, *respaced], "Goal": quoted[:1]})
    model = GenericFakeChatModel(messages=itertools.repeat(AIMessage(answer)))
    settings_ = CompactionSettings(BUDGET, counter=COUNTER, summarizer=ChatModelSummarizer(model))
    summary = compact(raw, None, settings_).summary
    assume(summary is not None)  # clipping alone made it fit
    assert summary is not None and summary.path.startswith("json"), summary.path
    _assert_faithful(summary, raw)
    pool, shown = _texts(raw), summary.render()
    unsupported = [text for text in invented if unquoted_values(text, pool)]
    for text in unsupported:  # a value no message wrote: never shown, and reported
        assert text not in shown, text
    assert bool(summary.flagged) >= bool(unsupported)
    for text in respaced:  # every piece is in a message, but not as a value of its own
        assert text not in shown and any(text in line for line in summary.flagged), text
