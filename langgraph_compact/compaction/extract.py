"""Deterministic extraction rules: what a message contributes to each summary section.

Each function maps one raw message to candidate ``SummaryItem``s. They are pure and
section-aware so the extractive summarizer can merge them into the previous summary and
an LLM summarizer can use them as the list of items that must survive.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction.summary import Section, SummaryItem
from langgraph_compact.messages import canonical_json, message_text

__all__ = [
    "call_signature",
    "extract_items",
    "is_error_output",
    "sentences",
]

ITEM_MAX_CHARS = 240

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_CONSTRAINT = re.compile(
    r"\b(never|must|mustn't|don't|do not|only|always|should not|shouldn't|make sure|"
    r"ensure|avoid|constraint|requirement|prefer|preference|no more than|at most|at least)\b",
    re.IGNORECASE,
)
_GOAL_CHANGE = re.compile(
    r"\b(new task|change of plan|instead,? (?:please|let's|i want)|forget (?:that|the previous)|"
    r"now (?:i want|please|let's|i need)|switch to)\b",
    re.IGNORECASE,
)
_FACT = re.compile(
    r"(?:^|[\s:;(])(?P<key>(?:the |my |our |your )?[A-Za-z][\w\-]*(?: [\w\-]+){0,3}?)"
    r"\s+(?:is|are|was|=)\s+(?:now |actually |still )?"
    r"(?P<value>[^,;\n]{1,80}?)(?=[,;\n]|\.\s|\.$|$)",
    re.IGNORECASE,
)
_FACT_STOP = frozenset(
    [
        "it",
        "this",
        "that",
        "there",
        "here",
        "what",
        "which",
        "who",
        "i",
        "you",
        "he",
        "she",
        "we",
        "they",
        "one",
        "everything",
        "something",
        "nothing",
        "answer",
        "result",
        "output",
        "problem",
        "issue",
        "code",
        "test",
    ]
)
_IDENTIFIER = re.compile(
    r"\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]{3,}\b"
    r"|\b[\w.+-]+@[\w-]+\.[\w.]+\b"
)
_DECISION = re.compile(
    r"\b(decided|decide|i'll|i will|we'll|we will|let's|going to|instead|chose|choose|approach)\b",
    re.IGNORECASE,
)
_REASON = re.compile(r"\b(because|since|so that|to avoid|due to|in order to)\b", re.IGNORECASE)
_NEXT = re.compile(
    r"\b(next|then|let me|i need to|i'll|i will|todo|remaining|now i)\b", re.IGNORECASE
)
_ERROR = re.compile(
    r"(Traceback \(most recent call last\)|\b\w*(?:Error|Exception)\b:|\bFAILED\b|"
    r"\berror:|command not found|No such file or directory)"
)
_PATH = re.compile(
    r"(?<![\w/.-])(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]+\.[A-Za-z]{1,8}\b"
    r"|(?<![\w/.-])[\w-]+\.(?:py|js|ts|tsx|md|txt|json|yaml|yml|toml|cfg|ini|sh|rs|go|java|"
    r"c|h|cpp|html|css|sql|rst)\b"
)
_MODIFY_TOOLS = frozenset(
    [
        "edit",
        "write",
        "write_file",
        "create",
        "create_file",
        "str_replace",
        "str_replace_editor",
        "apply_patch",
        "insert",
        "patch",
    ]
)
_MODIFY_COMMAND = re.compile(
    r"sed -i|>>?\s*[\w./-]|\btee\b|cat <<|\bpatch\b|\bgit apply\b|\bmv\b|\bcp\b|\btouch\b|"
    r"\.write\(|open\([^)]*['\"][wa]['\"]"
)


def sentences(text: str) -> Iterator[str]:
    """Non-empty sentences and lines of ``text``, stripped."""
    for part in _SENTENCE_SPLIT.split(text):
        part = part.strip(" \t-*>#")
        if part:
            yield part


def _short(text: str, limit: int = ITEM_MAX_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def call_signature(name: str, args: Mapping[str, Any]) -> str:
    """``name(args…)`` shortened, the same for identical calls."""
    rendered = next(iter(args.values())) if len(args) == 1 else canonical_json(args)
    if not isinstance(rendered, str):
        rendered = canonical_json(rendered)
    return _short(f"{name}: {rendered}", 120)


def is_error_output(message: ToolMessage) -> str | None:
    """The first error line of a tool result, or None when it looks successful."""
    text = message_text(message)
    match = _ERROR.search(text)
    if message.status == "error" and not match:
        return _short(text.strip().splitlines()[0] if text.strip() else "error", 160)
    if not match:
        return None
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    line = text[start : end if end != -1 else len(text)]
    if "Traceback" in line:  # the informative line is the last one of the traceback
        tail = [ln for ln in text[match.start() :].splitlines() if ln.strip()]
        line = next((ln for ln in reversed(tail) if re.search(r"\w(Error|Exception)\b", ln)), line)
    return _short(line.strip(), 160)


def _item(
    section: Section, text: str, mid: str, seq: int, **kw: Any
) -> tuple[Section, SummaryItem]:
    return section, SummaryItem(text=_short(text), sources=(mid,), seq=seq, **kw)


def _facts(
    sentence: str, mid: str, seq: int, priority: int
) -> Iterator[tuple[Section, SummaryItem]]:
    for m in _FACT.finditer(sentence):
        key = re.sub(r"^(the|my|our|your) ", "", m["key"].strip().lower())
        value = m["value"].strip().rstrip(".")
        if key in _FACT_STOP or key.split()[0] in _FACT_STOP:
            continue
        if not re.search(r"\d|[A-Z]", value):  # keep numbers, names, identifiers
            continue
        yield _item(
            Section.CRITICAL, f"{key}: {value}", mid, seq, key=f"fact:{key}", priority=priority
        )


def _text_items(
    text: str, mid: str, seq: int, *, human: bool
) -> Iterator[tuple[Section, SummaryItem]]:
    priority = 2 if human else 1
    for sentence in sentences(text):
        if human and _CONSTRAINT.search(sentence):
            yield _item(
                Section.CONSTRAINTS,
                sentence,
                mid,
                seq,
                key=f"constraint:{_norm(sentence)[:80]}",
                priority=3,
                pinned=True,
            )
        if human and _GOAL_CHANGE.search(sentence):
            yield _item(Section.GOAL, sentence, mid, seq, key="goal", priority=3)
        if not human and _DECISION.search(sentence) and _REASON.search(sentence):
            yield _item(
                Section.DECISIONS,
                sentence,
                mid,
                seq,
                key=f"decision:{_norm(sentence)[:60]}",
                priority=priority,
            )
        fact_found = False
        for found in _facts(sentence, mid, seq, priority):
            fact_found = True
            yield found
        if fact_found:
            continue
        named = [*_IDENTIFIER.findall(sentence), *(_PATH.findall(sentence) if human else ())]
        for ident in dict.fromkeys(named):
            yield _item(Section.CRITICAL, sentence, mid, seq, key=f"id:{ident}", priority=priority)


def _file_items(
    call: Mapping[str, Any], mid: str, seq: int
) -> Iterator[tuple[Section, SummaryItem]]:
    name = str(call["name"])
    for value in call["args"].values():
        if not isinstance(value, str):
            continue
        modified = name in _MODIFY_TOOLS or bool(_MODIFY_COMMAND.search(value))
        section = Section.FILES_MODIFIED if modified else Section.FILES_READ
        for path in dict.fromkeys(_PATH.findall(value)):
            yield _item(section, path, mid, seq, key=f"file:{path}", priority=1)


def extract_items(
    message: BaseMessage, seq: int, calls: Mapping[str, Mapping[str, Any]]
) -> list[tuple[Section, SummaryItem]]:
    """The summary items one raw message contributes.

    Args:
        message: a raw message (must have an id).
        seq: its raw index, kept on each item for recency.
        calls: tool-call id → tool call, for naming the call a ToolMessage answers.
    """
    mid = message.id or ""
    if isinstance(message, HumanMessage):
        return list(_text_items(message_text(message), mid, seq, human=True))
    if isinstance(message, AIMessage):
        out = list(_text_items(message_text(message), mid, seq, human=False))
        for call in message.tool_calls:
            out.extend(_file_items(call, mid, seq))
        return out
    if isinstance(message, ToolMessage):
        answered = calls.get(message.tool_call_id)
        signature = (
            call_signature(answered["name"], answered["args"]) if answered else str(message.name)
        )
        error = is_error_output(message)
        if error:
            return [
                _item(Section.BLOCKED, f"{signature} → {error}", mid, seq, key=f"call:{signature}"),
                _item(Section.CRITICAL, error, mid, seq, key=f"error:{_norm(error)[:80]}"),
            ]
        return [_item(Section.DONE, signature, mid, seq, key=f"call:{signature}")]
    return []


def next_steps(message: AIMessage, seq: int) -> list[tuple[Section, SummaryItem]]:
    """In-progress and next-step items from the latest assistant message."""
    mid = message.id or ""
    found = list(sentences(message_text(message)))
    out: list[tuple[Section, SummaryItem]] = []
    if found:
        out.append(_item(Section.IN_PROGRESS, found[0], mid, seq, key="in_progress", priority=1))
    for sentence in found[1:]:
        if _NEXT.search(sentence):
            out.append(
                _item(Section.NEXT_STEPS, sentence, mid, seq, key=f"next:{_norm(sentence)[:60]}")
            )
    for call in message.tool_calls:
        out.append(
            _item(
                Section.NEXT_STEPS,
                f"pending call {call_signature(call['name'], call['args'])}",
                mid,
                seq,
                key=f"next:call:{call.get('id')}",
            )
        )
    return out
