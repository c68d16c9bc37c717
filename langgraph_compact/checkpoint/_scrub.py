"""What a redacted message becomes, and how stored values lose their copies of it.

A redacted message keeps its id, type, name, tool-call ids and tool names (so the
thread stays a valid tool protocol) and loses everything that can carry its content:
the content itself, tool-call and invalid-tool-call arguments, ``additional_kwargs``
(providers keep a raw copy of the tool calls there), ``response_metadata`` (logprobs,
refusals) and a tool message's ``artifact``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from pydantic import BaseModel

from langgraph_compact.compaction.summary import RunningSummary, SummaryItem
from langgraph_compact.messages import message_digest, message_text

__all__ = ["SCRUBBED", "SCRUB_MIN_CHARS", "Scrubber", "message_strings", "tombstone_message"]

_PUNCT = string.punctuation + "“”‘’«»"

SCRUB_MIN_CHARS = 6
"""Words at least this long from a redacted message are scrubbed from stored summaries."""
SCRUBBED = "[redacted]"


def tombstone_message(message: BaseMessage, text: str) -> BaseMessage:
    """``message`` with ``text`` as content and every other carrier of content emptied."""
    update: dict[str, Any] = {"content": text, "additional_kwargs": {}, "response_metadata": {}}
    if isinstance(message, AIMessage):
        update["tool_calls"] = [{**tc, "args": {}} for tc in message.tool_calls]
        update["invalid_tool_calls"] = [
            {**tc, "args": None, "error": None} for tc in message.invalid_tool_calls
        ]
    if isinstance(message, ToolMessage):
        update["artifact"] = None
    return message.model_copy(update=update)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def message_strings(message: BaseMessage) -> list[str]:
    """Every text a redaction removes from ``message`` (for scrubbing summaries)."""
    out = [message_text(message)]
    if isinstance(message, AIMessage):
        out += [s for tc in message.tool_calls for s in _strings(tc["args"])]
        out += [s for tc in message.invalid_tool_calls for s in _strings(tc.get("args"))]
    out += list(_strings(message.additional_kwargs))
    if isinstance(message, ToolMessage) and message.artifact is not None:
        out += list(_strings(message.artifact))
    return [s for s in out if s]


@dataclass
class Scrubber:
    """Rewrites a stored value: copies of redacted messages become tombstones, and
    ``RunningSummary`` values lose what they drew from them. Nothing else changes.

    A summary can carry a redacted message's content without being that message. Its
    items drawn from the redacted ids (or of unknown lineage) are dropped with
    ``RunningSummary.without_sources``, which also marks it stale so the compaction node
    rebuilds it; in the remaining items every word of the redacted text of
    ``SCRUB_MIN_CHARS`` or more characters becomes ``[redacted]`` (short words are left
    alone so the text stays readable). Other user values (strings, notes, models) are
    never rewritten: the package cannot know they derive from the message.
    """

    ids: frozenset[str]
    digests: frozenset[str]
    """Contents of the redacted messages: id-less copies of them are tombstoned too."""
    tombstone: str
    words: re.Pattern[str] | None
    needles: tuple[bytes, ...]
    hits: set[str] = field(default_factory=set)
    """The ids whose copies were tombstoned inside values."""

    @classmethod
    def build(
        cls, ids: Sequence[str], digests: Sequence[bytes], tombstone: str, texts: Sequence[str]
    ) -> Scrubber:
        words = {w.strip(_PUNCT) for t in texts for w in t.split()}
        long = sorted((w for w in words if len(w) >= SCRUB_MIN_CHARS), key=len, reverse=True)
        pattern = re.compile("|".join(map(re.escape, long))) if long else None
        needles = {i.encode() for i in ids} | {w.encode() for w in long} | {b"RunningSummary"}
        needles |= {t[:64].encode("utf-8", "surrogatepass") for t in texts if t}
        return cls(
            frozenset(ids), frozenset(d.hex() for d in digests), tombstone, pattern, tuple(needles)
        )

    def may_hold(self, raw: bytes) -> bool:
        """Whether serialized bytes (of a plain serializer) can hold anything to scrub."""
        return any(n in raw for n in self.needles)

    def __call__(self, value: Any) -> tuple[Any, bool]:
        """``value`` rewritten, and whether anything changed."""
        if isinstance(value, BaseMessage):
            if value.id in self.ids:
                self.hits.add(value.id)
                return tombstone_message(value, self.tombstone), True
            if not value.id and message_digest(value) in self.digests:
                # e.g. the graph input in __start__, written before add_messages set ids
                return tombstone_message(value, self.tombstone), True
            return value, False
        if isinstance(value, RunningSummary):
            return self._summary(value)
        if isinstance(value, (list, tuple)):
            items = [self(v) for v in value]
            if any(changed for _, changed in items):
                return type(value)(v for v, _ in items), True
            return value, False
        if isinstance(value, dict):
            pairs = {k: self(v) for k, v in value.items()}
            if any(changed for _, changed in pairs.values()):
                return {k: v for k, (v, _) in pairs.items()}, True
            return value, False
        if isinstance(value, BaseModel):
            fields = {name: self(getattr(value, name)) for name in type(value).model_fields}
            update = {name: v for name, (v, changed) in fields.items() if changed}
            if update:
                return value.model_copy(update=update), True
        return value, False

    def _words(self, item: SummaryItem) -> SummaryItem:
        if self.words is None:
            return item
        update = {
            name: new
            for name in ("text", "key")
            if isinstance(old := getattr(item, name), str)
            and (new := self.words.sub(SCRUBBED, old)) != old
        }
        return item.model_copy(update=update) if update else item

    def _summary(self, value: RunningSummary) -> tuple[RunningSummary, bool]:
        sections = {s: tuple(map(self._words, items)) for s, items in value.sections.items()}
        stale = sections != value.sections or any(
            not i.sources or self.ids.intersection(i.sources)
            for items in value.sections.values()
            for i in items
        )
        if not stale:
            # the evicted values have no lineage: a redacted message's may be among them
            return (
                (value.model_copy(update={"evicted": ()}), True)
                if value.evicted
                else (value, False)
            )
        return value.model_copy(update={"sections": sections}).without_sources(self.ids), True
