"""Candidates from tool outputs: errors in any shape, flagged lines, facts, paths, outcome.

The whole raw output is read (what a clip marker hid included). Errors come first —
the last informative line of each failure — then lines the tool flags for attention,
then stated facts: a short, answer-like output's facts outrank the incidental
key-values of a dump, and a dump can add only a few.
"""

from __future__ import annotations

import re

from langchain_core.messages import ToolMessage

from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import (
    SALIENCE,
    Candidate,
    fact_item,
    file_item,
    item,
)
from langgraph_compact.compaction.failures import error_lines, exit_status
from langgraph_compact.compaction.summary import Section
from langgraph_compact.messages import message_text

__all__ = ["tool_items"]

_TOOL_FACTS = 4
"""At most this many facts per tool output: a dump's incidental key-values must not
crowd out what other messages said."""


_ANSWER_LINES = 3
"""An output this short is an answer, not a dump: its lines naming an id or a URL are
items whole (a dump's ids are incidental, and are left to the recall tool)."""
_ANSWER_LINE_CHARS = 400
_URL = re.compile(r"\bhttps?://[^\s'\"<>)]+")

_BLOCKED_CALL_CHARS = 60
_NOTICE_MAX_WORDS = 24
"""A flagged line longer than this is standing advice a tool prints every time (pip's
"Running pip as the 'root' user…"), not a notice about this call."""


def tool_items(message: ToolMessage, mid: str, seq: int, signature: str) -> list[Candidate]:
    """Errors, flagged lines, facts and paths of a tool output, and the call's outcome."""
    text = message_text(message)
    out: list[Candidate] = []
    errors = error_lines(text)
    if message.status == "error" and not errors and text.strip():
        errors = [tx.short(text.strip().splitlines()[-1], 200)]
    statuses = [s for e in errors if (s := exit_status(e))]
    errors = [e for e in errors if not exit_status(e)]
    for n, error in enumerate(errors):
        salience = SALIENCE["tool.error"] + (0.05 if n == len(errors) - 1 else 0.0)
        out.append(
            item(
                Section.CRITICAL,
                error,
                mid,
                seq,
                key=f"error:{tx.shape(error)[:80]}",
                kind="error",
                salience=salience,
            )
        )
    lines = [ln for ln in text.splitlines() if ln.strip()]
    notices = [
        ln
        for ln in lines
        if p.flagged(ln) and not tx.is_code_line(ln) and len(ln.split()) <= _NOTICE_MAX_WORDS
    ]
    for line in notices[:2]:
        out.append(
            item(
                Section.CRITICAL,
                line,
                mid,
                seq,
                key=f"note:{tx.norm(line)[:80]}",
                kind="fact",
                salience=SALIENCE["tool.flagged"],
            )
        )
    pairs = p.json_facts(text)
    if pairs is not None:  # every scalar of a record; only the specific ones are facts
        pairs = [(k, v) for k, v in pairs if tx.specificity(v) >= 0.3]
    if pairs is None:
        said = set(errors)
        pairs = [
            kv
            for ln in lines[:2000]
            if not tx.is_code_line(ln) and tx.short(ln.strip(), 200) not in said
            for kv in p.fact_pairs(ln)
        ]
    # Facts of a short, answer-like output outrank the incidental key-values of a dump.
    density = 1.0 / (1.0 + max(0, len(pairs) - 2) / 6)
    ranked = sorted(pairs, key=lambda kv: -tx.specificity(kv[1]))[:_TOOL_FACTS]
    for key, value in ranked:
        salience = (
            SALIENCE["tool.fact"] * (0.7 + 0.3 * tx.specificity(value)) * (0.5 + 0.5 * density)
        )
        out.append(fact_item(key.lower(), value, mid, seq, salience))
    if len(lines) <= _ANSWER_LINES:  # an answer: "Created order #A-55812", "Listening on URL"
        said = {x for x in (*(v for _, v in ranked), *errors, *notices) if len(x) >= 3}
        for ln in lines:
            if len(ln) > _ANSWER_LINE_CHARS:
                continue  # one long line is a payload, not an answer
            names = [*tx.identifiers(ln), *_URL.findall(ln)]
            if names and not tx.is_code_line(ln) and not any(x in ln for x in said):
                line = tx.short(ln.strip(), 160)
                key, kind = f"id:{names[0]}", "identifier"
                out.append(item(Section.CRITICAL, line, mid, seq, key=key, kind=kind,
                                salience=SALIENCE["tool.fact"]))  # fmt: skip
    for path in tx.paths(" ".join(errors))[:2]:
        out.append(file_item(Section.FILES_READ, path, mid, seq, SALIENCE["tool.path"]))
    # Exit status 1 with no error text is how grep, diff and test say "no" (no match,
    # a difference): the call worked. Anything else that failed blocks.
    failed = errors[-1] if errors else next((x for x in statuses if x != "exit status 1"), None)
    if failed:
        # The error itself is a Critical Context item: the progress line only points at it.
        shown = tx.short(signature, _BLOCKED_CALL_CHARS)
        text, section, kind = f"{shown} → {tx.short(failed, 80)}", Section.BLOCKED, "tool.blocked"
    else:
        text, section, kind = (
            signature + (" (exit status 1)" if statuses else ""),
            Section.DONE,
            "tool.done",
        )
    out.append(
        item(
            section,
            text,
            mid,
            seq,
            key=f"call:{signature}",
            kind="blocked" if section is Section.BLOCKED else "done",
            salience=SALIENCE[kind],
        )
    )
    return out
