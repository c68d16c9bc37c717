"""``ChatModelSummarizer``: the same sections, written by any LangChain chat model.

The model gets the previous summary and the delta span. With a model that supports
``with_structured_output`` it answers in the sections schema; otherwise it may answer
JSON, markdown sections or prose — every shape is read (``parse_answer``), and what
cannot be parsed is kept as text rather than discarded. The model's items are merged
*into the previous summary* item by item (a previous item survives unless the model
supersedes it) and classified by the same rules as extraction, wherever the model filed
them. What the deterministic extractor finds in the delta (constraints, paths,
identifiers, errors, facts) is the list of required items: the answer is checked
against it (and, with ``retry``, the model is asked once more with the missing list).
The extractor's candidates are then merged with the model's items — the extractor's
carry the keys, pins and lineage, the model adds what it wrote beyond them — so a model
that forgets, or files a user's preference under the wrong heading, cannot lose or unpin
it. The draft's ``path`` records which way was taken and why. A model's item that states
a value no message holds is flagged, not shown (``ground``, applied to every
summarizer's draft).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field

from langgraph_compact.compaction.candidates import Candidate
from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.ground import ground_items, request_pool
from langgraph_compact.compaction.parse import items_from_sections, parse_answer
from langgraph_compact.compaction.quote import args_text, values
from langgraph_compact.compaction.summarize import (
    SummaryDraft,
    SummaryRequest,
    extend,
    extract_span,
)
from langgraph_compact.compaction.summary import Section, SummaryItem
from langgraph_compact.messages import message_text

__all__ = ["SUMMARY_PROMPT", "ChatModelSummarizer", "SummarySections"]

SUMMARY_PROMPT = """You maintain the working memory of a long-running agent.
Update the previous summary with the new messages below. Answer with the sections
{sections}, each a list of short items.
Rules: keep every constraint, safety rule and user preference; later values of a fact
replace earlier ones (never keep the old value as current); keep file paths,
identifiers, numbers, versions and error messages verbatim; mark items of an abandoned
task with the prefix "(historical)". Stay under about {max_tokens} tokens."""

_REQUIRED_KINDS = frozenset(
    {"constraint", "preference", "safety", "correction", "path", "identifier", "error", "fact"}
)
_SPAN_MESSAGE_CHARS = 2_000


class SummarySections(BaseModel):
    """The structured-output schema: one list of short items per section."""

    model_config = ConfigDict(populate_by_name=True)

    goal: list[str] = Field(default_factory=list, alias="Goal")
    constraints: list[str] = Field(default_factory=list, alias="Constraints & Preferences")
    done: list[str] = Field(default_factory=list, alias="Done")
    in_progress: list[str] = Field(default_factory=list, alias="In Progress")
    blocked: list[str] = Field(default_factory=list, alias="Blocked")
    decisions: list[str] = Field(default_factory=list, alias="Key Decisions")
    critical: list[str] = Field(default_factory=list, alias="Critical Context")
    files_read: list[str] = Field(default_factory=list, alias="Files Read")
    files_modified: list[str] = Field(default_factory=list, alias="Files Modified")
    next_steps: list[str] = Field(default_factory=list, alias="Next Steps")

    def by_section(self) -> dict[Section, list[str]]:
        """The lists keyed by ``Section``."""
        fields = type(self).model_fields
        return {Section(fields[name].alias or name): v for name, v in self if v}


@dataclass(frozen=True)
class ChatModelSummarizer:
    """Summaries written by ``model``; extraction guarantees the required items.

    Args:
        model: any LangChain chat model (a cheaper model than the agent's is typical).
        name: recorded as the summary's ``summarizer``.
        retry: ask once more, listing the missing required items. Off by default: the
            extractor's candidates are merged in either way (verbatim, with their spans),
            so a second call adds only the model's own wording of them, at the price of
            a second prompt as long as the first.
        structured: use ``model.with_structured_output(SummarySections)`` when the model
            supports it (``None``: try, and fall back to text when it does not).
    """

    model: BaseChatModel
    name: str = "chat-model"
    retry: bool = False
    structured: bool | None = None

    def _structured(self) -> Any:
        if self.structured is False:
            return None
        try:
            return self.model.with_structured_output(SummarySections)
        except (NotImplementedError, AttributeError, TypeError, ValueError):
            if self.structured:
                raise
            return None

    def summarize(self, request: SummaryRequest) -> SummaryDraft:
        """One model call (two with ``retry`` and required items missing) and a
        deterministic merge."""
        prompt, required = _prompt(request), _required(request)
        runner = self._structured()
        answer = runner.invoke(prompt) if runner is not None else self.model.invoke(prompt)
        read = _read(answer, request)
        if read.missing(required) and self.retry:
            again = [*prompt, _as_message(answer), _missing_note(read.missing(required))]
            read = read.plus(
                _read(runner.invoke(again) if runner else self.model.invoke(again), request)
            )
        return read.draft(request, required)

    async def asummarize(self, request: SummaryRequest) -> SummaryDraft:
        """Async twin of ``summarize``; only the model calls differ."""
        prompt, required = _prompt(request), _required(request)
        runner = self._structured()
        answer = await (
            runner.ainvoke(prompt) if runner is not None else self.model.ainvoke(prompt)
        )
        read = _read(answer, request)
        if read.missing(required) and self.retry:
            again = [*prompt, _as_message(answer), _missing_note(read.missing(required))]
            second = await (runner.ainvoke(again) if runner else self.model.ainvoke(again))
            read = read.plus(_read(second, request))
        return read.draft(request, required)


@dataclass(frozen=True)
class _Read:
    """One or two model answers, parsed and classified."""

    items: tuple[Candidate, ...]
    written: str
    path: str

    def missing(self, required: Sequence[Candidate]) -> list[Candidate]:
        return [(s, i) for s, i in required if _essence(i.text, i.key).lower() not in self.written]

    def plus(self, other: _Read) -> _Read:
        return _Read(
            self.items + other.items, self.written + "\n" + other.written, f"{self.path}+retry"
        )

    def draft(self, request: SummaryRequest, required: Sequence[Candidate]) -> SummaryDraft:
        candidates = extract_span(request)
        previous = request.previous.sections if request.previous else {}
        # What the model wrote beyond the extractor's candidates and the previous summary:
        # a restatement of a candidate, or a copy of a previous line, would enter as a
        # fresh, weaker item saying the same. A line that only mentions a previous value
        # ("Editing src/app.py to fix the loop") is new.
        said = [(s, *_said(c)) for s, c in candidates]
        held = [_words(i.text) for items in previous.values() for i in items]
        grounded, flagged = ground_items(self.items, request_pool(request))
        own = [(s, i) for s, i in grounded if not _restates(s, i, said) and not _copies(i, held)]
        late = [(s, i) for s, i in own if s in _LATEST]
        early = [(s, i) for s, i in own if s not in _LATEST]
        sections = extend(previous, [*candidates, *early], request, late=late)
        missing = self.missing(required)
        path = self.path + (f"+merged {len(missing)}" if missing else "")
        notes = (f"{len(missing)} required item(s) the model left out, merged",) if missing else ()
        return SummaryDraft(sections, path, notes, tuple(flagged))


def _read(answer: Any, request: SummaryRequest) -> _Read:
    seq = request.covered_through - 1
    if isinstance(answer, SummarySections):
        sections, path = answer.by_section(), "structured"
    elif isinstance(answer, dict) and "parsed" in answer:  # include_raw style
        return _read(answer["parsed"] or answer.get("raw"), request)
    else:
        text = message_text(answer) if isinstance(answer, BaseMessage) else str(answer or "")
        sections, path = parse_answer(text)
    sections = {s: [_PROMPT_LINE.sub("", t) for t in texts] for s, texts in sections.items()}
    written = "\n".join(t for texts in sections.values() for t in texts).lower()
    # The model's own items never pin and never set the goal: pins and goals come from
    # what the user said (the extractor's candidates), whatever heading the model used.
    items = tuple(
        (s, i.model_copy(update={"pinned": False, "salience": _OWN_SALIENCE}))
        for s, i in items_from_sections(sections, "", seq)
        if s is not Section.GOAL
    )
    return _Read(items, written, path)


_OWN_SALIENCE = 0.3
"""What the model adds beyond the extractor's candidates fills the room those leave: an
extracted candidate (with its source, key and kind) is never crowded out by a paraphrase."""
_PROMPT_LINE = re.compile(r"^\[\d+\] (?:human|ai|tool|system|first request): ")
"""A line of our own prompt echoed back by the model: its index and role prefix."""


def _as_message(answer: Any) -> BaseMessage:
    if isinstance(answer, BaseMessage):
        return answer
    if isinstance(answer, BaseModel):
        return HumanMessage(answer.model_dump_json(by_alias=True))
    return HumanMessage(str(answer))


def _prompt(request: SummaryRequest) -> list[BaseMessage]:
    names = ", ".join(f'"{s.value}"' for s in Section)
    previous = request.previous.render() if request.previous else "(none yet)"
    lines = [f"Previous summary:\n{previous}", "New messages:"]
    if request.previous is None and request.head_clipped:
        first = request.head[-1]
        text = clip_text(message_text(first), 6_000, first.id or "")
        lines.append(f"[{request.head_end - 1}] first request: {text}")
    for offset, m in enumerate(request.span):
        text = clip_text(message_text(m), _SPAN_MESSAGE_CHARS, m.id or "")
        calls = "".join(
            f"\n  -> {c['name']}: {args_text(c)[:300]}" for c in getattr(m, "tool_calls", [])
        )
        lines.append(f"[{request.span_start + offset}] {m.type}: {text}{calls}")
    system = SUMMARY_PROMPT.format(sections=names, max_tokens=request.max_tokens)
    return [SystemMessage(system), HumanMessage("\n".join(lines))]


def _required(request: SummaryRequest) -> list[Candidate]:
    return [(s, i) for s, i in extract_span(request) if i.kind in _REQUIRED_KINDS]


_LATEST = frozenset({Section.IN_PROGRESS, Section.NEXT_STEPS})
"""Sections that describe only the latest turn: replaced, not accumulated."""


def _words(text: str) -> set[str]:
    found = re.findall(r"[A-Za-z0-9][\w./-]{2,}", text)
    return {w.lower().rstrip(".,;:!?").removesuffix("s") for w in found}


def _said(candidate: SummaryItem) -> tuple[re.Pattern[str] | None, frozenset[str]]:
    """What a model's item must contain to restate ``candidate``: its essence as whole
    words (three characters at least: a value "3" is in too many lines), or most of its
    words (computed once per candidate, checked against every item)."""
    words = frozenset(_words(candidate.text) - _FILLER)
    essence = _essence(candidate.text, candidate.key).lower()
    found = re.compile(rf"(?<![\w.]){re.escape(essence)}(?!\w)") if len(essence) >= 3 else None
    return found, words


_FILLER = frozenset(_words("the user prefer"))


def _restates(
    section: Section,
    written: SummaryItem,
    said: Sequence[tuple[Section, re.Pattern[str] | None, frozenset[str]]],
) -> bool:
    """The model's item says what an extracted candidate says (a restatement).

    The candidate's essence appears in it verbatim in the same section, or most of the
    candidate's words (three or more) do in any section: "User prefers tabs over spaces" restates "I
    prefer tabs over spaces"; a next step that names a file a fact names is new.
    """
    text, words = written.text.lower(), _words(written.text)
    return any(
        (essence is not None and s == section and essence.search(text) is not None)
        or (len(need) >= 3 and len(need & words) >= 0.75 * len(need))
        for s, essence, need in said
    )


def _copies(written: SummaryItem, held: Sequence[set[str]]) -> bool:
    """The model's item says what a previous line says: most of each one's words are the
    other's (``held``: each previous line's words, read once)."""
    a = _words(written.text)
    return bool(a) and any(
        b and (common := len(a & b)) >= 0.75 * len(a) and common >= 0.75 * len(b) for b in held
    )


def _essence(text: str, key: str | None) -> str:
    """The part of a required item that must appear verbatim: a value, id, path or text."""
    key = key or ""
    if key.startswith(("id:", "file:")):
        return key.split(":", 1)[1]
    if key.startswith("fact:"):
        stated = values(text)
        return max(stated, key=len) if stated else text[:60]
    return text[:60]


def _missing_note(missing: Sequence[Candidate]) -> HumanMessage:
    listed = "\n".join(f"- {s.value}: {i.text}" for s, i in missing)
    return HumanMessage(f"These required items are missing; add them and answer again:\n{listed}")
