"""Candidates for the summary, from every place of every message.

Each function maps one raw message to ``(Section, SummaryItem)`` candidates: human text,
assistant text, tool-call arguments and tool outputs (the whole raw output, so what a
clip marker hid is still read). Every candidate carries its section, a normalized key
(for dedupe and supersession), a salience score, its kind, its source message id and
position. A rendered summary fed back as text (a hand-off, a pasted brief) is read
back into its items. Selection, merging and eviction happen later (``merge``,
``select``); extraction only proposes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction.parse import classify, parse_rendered_summary
from langgraph_compact.compaction.summary import Section, SummaryItem
from langgraph_compact.messages import canonical_json, message_text

__all__ = ["SALIENCE", "Candidate", "call_signature", "extract_items", "next_steps"]

Candidate = tuple[Section, SummaryItem]

SALIENCE: Mapping[str, float] = {
    "human.fact": 0.9,
    "human.identifier": 0.8,
    "human.path": 0.85,
    "human.decision": 0.8,
    "human.error": 0.8,
    "ai.decision": 0.7,
    "ai.fact": 0.55,
    "ai.path": 0.55,
    "ai.identifier": 0.45,
    "args.identifier": 0.6,
    "args.file_modified": 0.55,
    "args.file_read": 0.35,
    "tool.error": 0.75,
    "tool.flagged": 0.65,
    "tool.fact": 0.75,
    "tool.path": 0.25,
    "tool.blocked": 0.5,
    "tool.done": 0.15,
    "progress": 0.6,
    "next": 0.45,
}
"""Base salience by where an item comes from and what it is. User statements outweigh
the assistant's, which outweigh incidental tool output; errors and flagged lines of a
tool rank with what the user said."""

_MODIFY_TOOLS = frozenset(
    """edit write write_file create create_file str_replace str_replace_editor apply_patch
    insert patch replace save_file""".split()
)
_MODIFY_COMMAND = re.compile(
    r"sed -i|>>?\s*[\w./-]|\btee\b|cat <<|\bpatch\b|\bgit apply\b|\bmv\b|\bcp\b|\btouch\b|"
    r"\.write\(|open\([^)]*['\"][wa]['\"]"
)
_FENCE = re.compile(r"```.*?```", re.DOTALL)  # closed fences only: a clip may cut one
_TOOL_FACTS = 4
"""At most this many facts per tool output: a dump's incidental key-values must not
crowd out what other messages said."""


def _item(
    section: Section, text: str, mid: str, seq: int, *, kind: str, salience: float, **kw: Any
) -> Candidate:
    return section, SummaryItem(
        text=p.short(text), kind=kind, sources=(mid,), seq=seq, salience=salience, **kw
    )


def call_signature(name: str, args: Mapping[str, Any]) -> str:
    """``name: args`` shortened (a script's first line), the same for identical calls."""
    rendered = next(iter(args.values())) if len(args) == 1 else canonical_json(args)
    if not isinstance(rendered, str):
        rendered = canonical_json(rendered)
    first = rendered.strip().split("\n", 1)
    shown = first[0] + (" …" if len(first) > 1 else "")
    return p.short(f"{name}: {shown}", 100)


def _prose(text: str) -> str:
    """Text without fenced code blocks: instructions and facts live outside the code."""
    return _FENCE.sub(" ", text)


def _fact_item(
    key: str,
    value: str,
    mid: str,
    seq: int,
    salience: float,
    *,
    pinned: bool = False,
    stale: tuple[str, ...] = (),
) -> Candidate:
    kind = "correction" if pinned else "fact"
    return _item(
        Section.CRITICAL,
        f"{key}: {value}",
        mid,
        seq,
        key=f"fact:{key}",
        kind=kind,
        salience=salience,
        pinned=pinned,
        stale=stale,
    )


def _sentence_items(sentence: str, mid: str, seq: int, role: str) -> Iterator[Candidate]:
    """What one sentence of human or assistant text contributes."""
    human = role == "human"
    cues = classify(sentence) if human else None
    if cues in ("constraint", "preference", "safety"):
        yield _item(
            Section.CONSTRAINTS,
            sentence,
            mid,
            seq,
            key=f"constraint:{p.norm(sentence)[:80]}",
            kind=cues,
            salience=1.0,
            pinned=True,
        )
        return  # an instruction, not a fact: its words are not values to keep apart
    if human and p.goal_change(sentence):
        yield _item(
            Section.GOAL, sentence, mid, seq, key="goal", kind="goal", salience=1.0, pinned=True
        )
        return
    stale = tuple(p.stale_values(sentence)) if p.CORRECTION.search(sentence) else ()
    if p.DECISION.search(sentence) and p.REASON.search(sentence):
        yield _item(
            Section.DECISIONS,
            sentence,
            mid,
            seq,
            key=f"decision:{p.norm(sentence)[:60]}",
            kind="decision",
            salience=SALIENCE[f"{role}.decision"],
        )
    facts = p.fact_pairs(sentence)
    for key, value in facts:
        pinned = human and bool(stale)
        yield _fact_item(key, value, mid, seq, SALIENCE[f"{role}.fact"], pinned=pinned, stale=stale)
    if stale and not facts:  # "use port 8443 instead of 8080": the corrected sentence
        cleaned = _without(sentence, stale)
        yield _item(
            Section.CRITICAL,
            cleaned,
            mid,
            seq,
            key=f"correction:{p.norm(cleaned)[:60]}",
            kind="correction",
            salience=SALIENCE[f"{role}.fact"],
            pinned=human,
            stale=stale,
        )
    if facts or stale or cues:
        return
    for path in p.paths(sentence):
        if human:
            yield _item(
                Section.CRITICAL,
                sentence,
                mid,
                seq,
                key=f"id:{path}",
                kind="path",
                salience=SALIENCE["human.path"],
            )
        else:
            yield _item(
                Section.FILES_READ,
                path,
                mid,
                seq,
                key=f"file:{path}",
                kind="path",
                salience=SALIENCE["ai.path"],
            )
    for ident in p.identifiers(sentence)[:3]:
        yield _item(
            Section.CRITICAL,
            sentence,
            mid,
            seq,
            key=f"id:{ident}",
            kind="identifier",
            salience=SALIENCE[f"{role}.identifier"],
        )
    if human:
        for error in p.error_lines(sentence, 1):
            yield _item(
                Section.CRITICAL,
                error,
                mid,
                seq,
                key=f"error:{p.shape(error)[:80]}",
                kind="error",
                salience=SALIENCE["human.error"],
            )


def _without(sentence: str, stale: tuple[str, ...]) -> str:
    """The sentence minus the clauses naming stale values ("…, not X", "instead of X")."""
    out = sentence
    for old in stale:
        out = re.sub(
            rf"\s*(?:,\s*)?\(?\b(?:not|instead of|rather than|no longer|previously|used to be|"
            rf"formerly|was|from)\s+(?:the |a |an )?{re.escape(old)}\)?",
            "",
            out,
            flags=re.IGNORECASE,
        )
    return out.strip()


def _text_items(text: str, mid: str, seq: int, role: str) -> list[Candidate]:
    out: list[Candidate] = []
    for sentence in p.sentences(_prose(text)):
        if not p.is_code_line(sentence):
            out.extend(_sentence_items(sentence, mid, seq, role))
    return out


def _arg_items(call: Mapping[str, Any], mid: str, seq: int) -> Iterator[Candidate]:
    """Files a call reads or modifies, and the identifiers it passes."""
    name = str(call["name"])
    for arg, value in call["args"].items():
        if not isinstance(value, str):
            value = canonical_json(value) if isinstance(value, (int, float)) else ""
        modified = name in _MODIFY_TOOLS or bool(_MODIFY_COMMAND.search(value))
        section = Section.FILES_MODIFIED if modified else Section.FILES_READ
        kind = "args.file_modified" if modified else "args.file_read"
        for path in p.paths(value)[:4]:
            yield _item(
                section, path, mid, seq, key=f"file:{path}", kind="path", salience=SALIENCE[kind]
            )
        if "\n" in value.strip() or len(value) > 300:
            continue  # a script or a payload: its names are code, not identifiers
        short_value = len(value) <= 60 and " " not in value.strip()
        found = [value.strip()] if short_value and p.specificity(value) >= 0.5 else []
        for ident in dict.fromkeys([*found, *p.identifiers(value)[:3]]):
            if ident in p.paths(value):
                continue
            yield _item(
                Section.CRITICAL,
                f"{arg}: {ident} (in a {name} call)",
                mid,
                seq,
                key=f"id:{ident}",
                kind="identifier",
                salience=SALIENCE["args.identifier"],
            )


def _tool_items(message: ToolMessage, mid: str, seq: int, signature: str) -> list[Candidate]:
    """Errors, flagged lines, facts and paths of a tool output, and the call's outcome."""
    text = message_text(message)
    out: list[Candidate] = []
    errors = p.error_lines(text)
    if message.status == "error" and not errors and text.strip():
        errors = [p.short(text.strip().splitlines()[-1], 200)]
    statuses = [s for e in errors if (s := p.exit_status(e))]
    errors = [e for e in errors if not p.exit_status(e)]
    for n, error in enumerate(errors):
        salience = SALIENCE["tool.error"] + (0.05 if n == len(errors) - 1 else 0.0)
        out.append(
            _item(
                Section.CRITICAL,
                error,
                mid,
                seq,
                key=f"error:{p.shape(error)[:80]}",
                kind="error",
                salience=salience,
            )
        )
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for line in [ln for ln in lines if p.flagged(ln) and not p.is_code_line(ln)][:2]:
        out.append(
            _item(
                Section.CRITICAL,
                line,
                mid,
                seq,
                key=f"note:{p.norm(line)[:80]}",
                kind="fact",
                salience=SALIENCE["tool.flagged"],
            )
        )
    pairs = p.json_facts(text)
    if pairs is None:
        said = set(errors)
        pairs = [
            kv
            for ln in lines[:2000]
            if not p.is_code_line(ln) and p.short(ln.strip(), 200) not in said
            for kv in p.fact_pairs(ln)
        ]
    # Facts of a short, answer-like output outrank the incidental key-values of a dump.
    density = 1.0 / (1.0 + max(0, len(pairs) - 2) / 6)
    ranked = sorted(pairs, key=lambda kv: -p.specificity(kv[1]))[:_TOOL_FACTS]
    for key, value in ranked:
        salience = (
            SALIENCE["tool.fact"] * (0.6 + 0.4 * p.specificity(value)) * (0.5 + 0.5 * density)
        )
        out.append(_fact_item(key.lower(), value, mid, seq, salience))
    for path in p.paths(" ".join(errors))[:2]:
        out.append(
            _item(
                Section.FILES_READ,
                path,
                mid,
                seq,
                key=f"file:{path}",
                kind="path",
                salience=SALIENCE["tool.path"],
            )
        )
    outcome = errors[-1] if errors else (statuses[-1] if statuses else None)
    if outcome:
        out.append(
            _item(
                Section.BLOCKED,
                f"{signature} → {outcome}",
                mid,
                seq,
                key=f"call:{signature}",
                kind="blocked",
                salience=SALIENCE["tool.blocked"],
            )
        )
    else:
        out.append(
            _item(
                Section.DONE,
                signature,
                mid,
                seq,
                key=f"call:{signature}",
                kind="done",
                salience=SALIENCE["tool.done"],
            )
        )
    return out


def extract_items(
    message: BaseMessage, seq: int, calls: Mapping[str, Mapping[str, Any]]
) -> list[Candidate]:
    """The summary candidates one raw message contributes.

    Args:
        message: a raw message (must have an id).
        seq: its raw index, kept on each item for recency.
        calls: tool-call id → tool call, for naming the call a ToolMessage answers.
    """
    mid = message.id or ""
    if isinstance(message, HumanMessage):
        text = message_text(message)
        fed_back = parse_rendered_summary(text, mid, seq)
        if fed_back is not None:
            items, rest = fed_back
            return [*items, *_text_items(rest, mid, seq, "human")]
        return _text_items(text, mid, seq, "human")
    if isinstance(message, AIMessage):
        out = _text_items(message_text(message), mid, seq, "ai")
        for call in message.tool_calls:
            out.extend(_arg_items(call, mid, seq))
        return out
    if isinstance(message, ToolMessage):
        answered = calls.get(message.tool_call_id)
        signature = (
            call_signature(answered["name"], answered["args"]) if answered else str(message.name)
        )
        return _tool_items(message, mid, seq, signature)
    return []


def next_steps(message: AIMessage, seq: int) -> list[Candidate]:
    """In-progress and next-step items from the latest assistant message."""
    mid = message.id or ""
    found = [s for s in p.sentences(_prose(message_text(message))) if not p.is_junk(s)]
    out: list[Candidate] = []
    for call in message.tool_calls:
        out.append(
            _item(
                Section.IN_PROGRESS,
                f"running {call_signature(call['name'], call['args'])}",
                mid,
                seq,
                key=f"progress:call:{call.get('id')}",
                kind="progress",
                salience=SALIENCE["progress"],
            )
        )
    if found and not message.tool_calls:
        out.append(
            _item(
                Section.IN_PROGRESS,
                found[0],
                mid,
                seq,
                key="progress:text",
                kind="progress",
                salience=SALIENCE["progress"],
            )
        )
    for sentence in found[1:] if not message.tool_calls else found:
        if p.NEXT.search(sentence):
            out.append(
                _item(
                    Section.NEXT_STEPS,
                    sentence,
                    mid,
                    seq,
                    key=f"next:{p.norm(sentence)[:60]}",
                    kind="next",
                    salience=SALIENCE["next"],
                )
            )
    return out
