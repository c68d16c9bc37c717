"""``ChatModelSummarizer``: the same sections, written by any LangChain chat model.

The model gets the previous summary and the delta span, and answers with one JSON
object keyed by section name. What the deterministic extractor finds in the delta
(constraints, file paths, identifiers, error strings) is the list of required items:
the answer is checked against it, the model is asked once more with the missing list,
and whatever is still missing is merged in deterministically. Any failure raises
``SummaryError``, on which the node falls back to ``ExtractiveSummarizer``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from langgraph_compact.compaction.clip import clip_text
from langgraph_compact.compaction.summarize import (
    ExtractiveSummarizer,
    SummaryRequest,
    finish_summary,
    merge_items,
)
from langgraph_compact.compaction.summary import RunningSummary, Section, SummaryItem
from langgraph_compact.errors import SummaryError
from langgraph_compact.messages import message_text

__all__ = ["SUMMARY_PROMPT", "ChatModelSummarizer"]

SUMMARY_PROMPT = """You maintain the working memory of a long-running agent.
Update the previous summary with the new messages below. Answer with ONE JSON object
whose keys are exactly these section names and whose values are lists of short strings:
{sections}.
Rules: keep every constraint and user preference; later values of a fact replace
earlier ones (do not keep the old value as current); keep file paths, identifiers,
numbers and error strings verbatim; mark items of an abandoned task with the prefix
"(historical)". No prose outside the JSON."""

_REQUIRED = (Section.CONSTRAINTS, Section.FILES_MODIFIED, Section.FILES_READ, Section.CRITICAL)
_SPAN_MESSAGE_CHARS = 2_000


@dataclass(frozen=True)
class ChatModelSummarizer:
    """Summaries written by ``model``; extraction guarantees the required items.

    Args:
        model: any LangChain chat model (a cheaper model than the agent's is typical).
        name: recorded as the summary's ``summarizer``.
        retry: ask once more, listing the missing required items.
    """

    model: BaseChatModel
    name: str = "chat-model"
    retry: bool = True

    def summarize(self, request: SummaryRequest) -> RunningSummary:
        """One model call (two when required items are missing) and a deterministic merge."""
        prompt = _prompt(request)
        answer = self.model.invoke(prompt)
        sections, missing = _check(answer, request)
        if missing and self.retry:
            answer = self.model.invoke([*prompt, answer, _missing_note(missing)])
            sections, missing = _check(answer, request)
        return _finish(request, sections, missing, self.name)

    async def asummarize(self, request: SummaryRequest) -> RunningSummary:
        """Async twin of ``summarize``; only the model calls differ."""
        prompt = _prompt(request)
        answer = await self.model.ainvoke(prompt)
        sections, missing = _check(answer, request)
        if missing and self.retry:
            answer = await self.model.ainvoke([*prompt, answer, _missing_note(missing)])
            sections, missing = _check(answer, request)
        return _finish(request, sections, missing, self.name)


def _prompt(request: SummaryRequest) -> list[BaseMessage]:
    names = ", ".join(f'"{s.value}"' for s in Section)
    previous = request.previous.render() if request.previous else "(none yet)"
    lines = [f"Previous summary:\n{previous}", "New messages:"]
    for offset, m in enumerate(request.span):
        text = clip_text(message_text(m), _SPAN_MESSAGE_CHARS, m.id or "")
        calls = "".join(
            f"\n  -> {c['name']}({json.dumps(c['args'], default=str)[:300]})"
            for c in getattr(m, "tool_calls", [])
        )
        lines.append(f"[{request.span_start + offset}] {m.type}: {text}{calls}")
    return [SystemMessage(SUMMARY_PROMPT.format(sections=names)), HumanMessage("\n".join(lines))]


def _required(request: SummaryRequest) -> list[tuple[Section, SummaryItem]]:
    items = ExtractiveSummarizer().summarize(request)
    return [(s, i) for s in _REQUIRED for i in items.items(s) if not i.historical]


def _parse(answer: BaseMessage) -> dict[Section, list[str]]:
    text = message_text(answer)
    match = re.search(r"\{.*\}", text, re.DOTALL)
    try:
        data = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError as exc:
        raise SummaryError(f"summarizer answer is not valid JSON: {exc}") from exc
    if not isinstance(data, Mapping):
        raise SummaryError(f"summarizer answer has no JSON object: {text[:200]!r}")
    by_name = {s.value: s for s in Section}
    out: dict[Section, list[str]] = {}
    for key, values in data.items():
        if key in by_name and isinstance(values, list):
            out[by_name[key]] = [str(v) for v in values if str(v).strip()]
    if not out:
        raise SummaryError("summarizer answer names none of the summary sections")
    return out


def _check(
    answer: BaseMessage, request: SummaryRequest
) -> tuple[dict[Section, list[str]], list[tuple[Section, SummaryItem]]]:
    sections = _parse(answer)
    written = "\n".join(t for texts in sections.values() for t in texts).lower()
    missing = [(s, i) for s, i in _required(request) if _essence(i).lower() not in written]
    return sections, missing


def _essence(item: SummaryItem) -> str:
    """The part of a required item that must appear verbatim: a value, id, path or text."""
    key = item.key or ""
    if key.startswith(("id:", "file:")):
        return key.split(":", 1)[1]
    if key.startswith("fact:"):
        return item.text.split(": ", 1)[-1]
    return item.text[:60]


def _missing_note(missing: Sequence[tuple[Section, SummaryItem]]) -> HumanMessage:
    listed = "\n".join(f"- {s.value}: {i.text}" for s, i in missing)
    return HumanMessage(f"These required items are missing; add them and answer again:\n{listed}")


def _finish(
    request: SummaryRequest,
    sections: Mapping[Section, list[str]],
    missing: Sequence[tuple[Section, SummaryItem]],
    name: str,
) -> RunningSummary:
    seq = request.covered_through - 1
    written: list[tuple[Section, SummaryItem]] = []
    for section, texts in sections.items():
        for text in texts:
            historical = text.startswith("(historical)")
            item = SummaryItem(
                text=text.removeprefix("(historical)").strip(),
                seq=seq,
                priority=2,
                pinned=section is Section.CONSTRAINTS,
                historical=historical,
            )
            written.append((section, item))
    merged = merge_items({}, [*written, *missing])
    return finish_summary(request, merged, name)
