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
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import (
    SALIENCE,
    Candidate,
    call_signature,
    fact_item,
    file_item,
    item,
)
from langgraph_compact.compaction.failures import error_lines
from langgraph_compact.compaction.outputs import tool_items
from langgraph_compact.compaction.parse import classify, parse_rendered_summary
from langgraph_compact.compaction.summary import Section
from langgraph_compact.messages import canonical_json, message_text

__all__ = ["extract_items", "next_steps"]

_MODIFY_TOOLS = frozenset(
    """edit write write_file create create_file str_replace str_replace_editor apply_patch
    insert patch replace save_file""".split()
)
_MODIFY_COMMAND = re.compile(
    r"sed -i|>>?\s*[\w./-]|\btee\b|cat <<|\bpatch\b|\bgit apply\b|\bmv\b|\bcp\b|\btouch\b|"
    r"\.write\(|open\([^)]*['\"][wa]['\"]"
)
_FENCE = re.compile(r"```.*?```", re.DOTALL)  # closed fences only: a clip may cut one


def _prose(text: str) -> str:
    """Text without fenced code blocks: instructions and facts live outside the code."""
    return _FENCE.sub(" ", text)


def _sentence_items(sentence: str, mid: str, seq: int, role: str) -> Iterator[Candidate]:
    """What one sentence of human or assistant text contributes."""
    human = role == "human"
    cues = classify(sentence) if human else None
    if cues in ("constraint", "preference", "safety"):
        yield item(
            Section.CONSTRAINTS,
            sentence,
            mid,
            seq,
            key=f"constraint:{tx.norm(sentence)[:80]}",
            kind=cues,
            salience=1.0,
            pinned=True,
        )
        return  # an instruction, not a fact: its words are not values to keep apart
    if human and p.goal_change(sentence):
        yield item(
            Section.GOAL, sentence, mid, seq, key="goal", kind="goal", salience=1.0, pinned=True
        )
        return
    stale = tuple(p.stale_values(sentence))
    if p.DECIDED.search(sentence) or (p.DECISION.search(sentence) and p.REASON.search(sentence)):
        yield item(
            Section.DECISIONS,
            sentence,
            mid,
            seq,
            key=f"decision:{tx.norm(sentence)[:60]}",
            kind="decision",
            salience=SALIENCE[f"{role}.decision"],
        )
    facts = p.fact_pairs(sentence)
    for key, value in facts:
        pinned = human and bool(stale)
        yield fact_item(key, value, mid, seq, SALIENCE[f"{role}.fact"], pinned=pinned, stale=stale)
    if stale and not facts:  # "use port 8443 instead of 8080": the corrected sentence
        cleaned = _without(sentence, stale)
        yield item(
            Section.CRITICAL,
            cleaned,
            mid,
            seq,
            key=f"correction:{tx.norm(cleaned)[:60]}",
            kind="correction",
            salience=SALIENCE[f"{role}.fact"],
            pinned=human,
            stale=stale,
        )
    if not human:  # a path the assistant names is a relevant file, whatever else it says
        for path in tx.paths(sentence):
            yield file_item(Section.FILES_READ, path, mid, seq, SALIENCE["ai.path"])
    if facts or stale or cues:
        return
    frame = tx.TRACEBACK_FRAME.match(sentence)  # a pasted stack frame: no file to work on
    if human and not frame:
        for path in tx.paths(sentence):
            yield item(
                Section.CRITICAL,
                sentence,
                mid,
                seq,
                key=f"id:{path}",
                kind="path",
                salience=SALIENCE["human.path"],
            )
    for ident in tx.identifiers(sentence)[:3]:
        yield item(
            Section.CRITICAL,
            sentence,
            mid,
            seq,
            key=f"id:{ident}",
            kind="identifier",
            salience=SALIENCE[f"{role}.identifier"],
        )
    if human:
        for error in error_lines(sentence, 1):
            yield item(
                Section.CRITICAL,
                error,
                mid,
                seq,
                key=f"error:{tx.shape(error)[:80]}",
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


_ID_ARG = re.compile(r"id$|_id|key|code|number|num$|no$|ref|ticket|order|reservation|account|sha",
                     re.IGNORECASE)  # fmt: skip
CHAT_MAX_CHARS = 600
"""A human message this short is a turn of a conversation: each of its sentences that no
recognizer took is still an item (a rule phrased in words no cue knows, a choice, a
detail). A longer one is a brief or a pasted document: only what is recognized."""
LISTING_MIN_NAMES = 3
"""File names alone on this many lines in a row (or on one line) are a directory listing."""


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def _listed(sentences: list[tuple[str, bool]]) -> set[int]:
    """Indices of the sentences that are only file names, in a directory listing: pasted
    ``ls`` output names what exists, not a file anybody named as relevant. A bulleted or
    numbered list of files is somebody's choice, not a listing."""
    bare = [
        len(found) if not bullet and (found := tx.paths(s)) and _only(s, found) else 0
        for s, bullet in sentences
    ]
    out: set[int] = set()
    run: list[int] = []
    for i, n in enumerate([*bare, 0]):
        if n:
            run.append(i)
            continue
        if len(run) >= LISTING_MIN_NAMES or (len(run) == 1 and bare[run[0]] >= LISTING_MIN_NAMES):
            out.update(run)
        run = []
    return out


def _only(text: str, names: list[str]) -> bool:
    """``text`` says nothing but ``names`` (and separators)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return not re.sub(r"[\s,;()`'\"]|\./", "", text)


def _text_items(text: str, mid: str, seq: int, role: str) -> list[Candidate]:
    out: list[Candidate] = []
    sentences = [
        (sentence, bool(_BULLET.match(line)))
        for line in _prose(text).splitlines()
        for sentence in tx.sentences(line)
    ]
    listed = _listed(sentences)
    chat = role == "human" and len(text) <= CHAT_MAX_CHARS
    for n, (sentence, _) in enumerate(sentences):
        if n not in listed and not tx.is_code_line(sentence):
            found = list(_sentence_items(sentence, mid, seq, role))
            if not found and chat and _says_something(sentence):
                found = [  # what the user said in a turn of a conversation, in their words
                    item(Section.CRITICAL, sentence, mid, seq, key=f"said:{tx.norm(sentence)[:60]}",
                         kind="note", salience=SALIENCE["human.note"])
                ]  # fmt: skip
            out.extend(found)
    return out


_PLEASANTRY = re.compile(
    r"^\W*(?:thanks|thank you|great|perfect|ok|okay|sure|hi|hello|hey|bye|goodbye|cheers|"
    r"awesome|cool|no problem|that's all|that is all|sounds good)\b",
    re.IGNORECASE,
)


def _says_something(sentence: str) -> bool:
    """A sentence of a conversation worth an item: three content words, not a pleasantry."""
    return (
        tx.content_words(sentence) >= 3
        and not tx.is_junk(sentence)
        and not _PLEASANTRY.match(sentence)
    )


def _arg_items(call: Mapping[str, Any], mid: str, seq: int) -> Iterator[Candidate]:
    """Files a call reads or modifies, and the identifiers it passes."""
    name = str(call["name"])
    for arg, value in call["args"].items():
        if not isinstance(value, str):
            value = canonical_json(value) if isinstance(value, (int, float)) else ""
        modified = name in _MODIFY_TOOLS or bool(_MODIFY_COMMAND.search(value))
        section = Section.FILES_MODIFIED if modified else Section.FILES_READ
        kind = "args.file_modified" if modified else "args.file_read"
        for path in tx.paths(value)[:4]:
            yield file_item(section, path, mid, seq, SALIENCE[kind])
        if "\n" in value.strip() or len(value) > 300:
            continue  # a script or a payload: its names are code, not identifiers
        short_value = len(value) <= 60 and " " not in value.strip()
        found = [value.strip()] if short_value and tx.specificity(value) >= 0.5 else []
        # Passed on purpose: a whole argument, a plain number only under an id's name
        # (``order_id: 4521``, not ``start_line: 120``).
        named = [v for v in found if not v.isdigit() or _ID_ARG.search(str(arg))]
        for ident in dict.fromkeys([*found, *tx.identifiers(value)[:3]]):
            if ident in tx.paths(value):
                continue
            yield item(
                Section.CRITICAL,
                f"{arg}: {ident} (in a {name} call)",
                mid,
                seq,
                key=f"id:{ident}",
                kind="identifier",
                salience=SALIENCE["args.value" if ident in named else "args.identifier"],
            )


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
        return tool_items(message, mid, seq, signature)
    return []


def next_steps(
    message: AIMessage, seq: int, answered: frozenset[str] = frozenset()
) -> list[Candidate]:
    """In-progress and next-step items from the latest assistant message.

    What it says it is doing is in progress; a call of it is "running" only while its
    result is not in ``answered`` (a call that returned is done, not in progress).
    """
    mid = message.id or ""
    found = [  # "Now let me test again:" only leads in to a command: it says nothing
        s
        for s in tx.sentences(_prose(message_text(message)))
        if not tx.is_junk(s) and not s.rstrip().endswith(":")
    ]
    out: list[Candidate] = []

    def add(section: Section, text: str, key: str, kind: str) -> None:
        out.append(item(section, text, mid, seq, key=key, kind=kind, salience=SALIENCE[kind]))

    for call in message.tool_calls:
        if (call.get("id") or "") not in answered:
            signature = call_signature(call["name"], call["args"])
            add(
                Section.IN_PROGRESS,
                f"running {signature}",
                f"progress:{call.get('id')}",
                "progress",
            )
    if found:
        add(Section.IN_PROGRESS, found[0], "progress:text", "progress")
    for sentence in found[1:]:
        if p.NEXT.search(sentence):
            add(Section.NEXT_STEPS, sentence, f"next:{tx.norm(sentence)[:60]}", "next")
    return out
