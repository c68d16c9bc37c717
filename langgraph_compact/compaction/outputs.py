"""Candidates from tool outputs: errors in any shape, flagged lines, facts, paths, outcome.

The whole raw output is read (what a clip marker hid included). Errors come first —
the last informative line of each failure — then lines the tool flags for attention,
then stated facts: a short, answer-like output's facts outrank the incidental
key-values of a dump, and a dump can add only a few. Every item quotes the output.
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
    present,
)
from langgraph_compact.compaction.documents import DOCUMENT_FACTS, document_facts
from langgraph_compact.compaction.failures import error_lines, exit_status, reported_at, telling
from langgraph_compact.compaction.json_output import json_facts, json_quote
from langgraph_compact.compaction.printed import value_lines
from langgraph_compact.compaction.quote import ARROW, ELLIPSIS, Quote, Source, naming
from langgraph_compact.compaction.quote import values as quote_values
from langgraph_compact.compaction.rerun import OBSERVED
from langgraph_compact.compaction.summary import Section
from langgraph_compact.compaction.tables import table_facts
from langgraph_compact.messages import message_text

__all__ = ["answer_value", "output_items", "tool_items"]

_TOOL_FACTS = 4
"""At most this many facts per tool output: a dump's incidental key-values must not
crowd out what other messages said."""
_QUOTE_TRIES = 4 * _TOOL_FACTS
"""Most of an output's most specific facts tried for a quote: a JSON value escaped in the
text (``\\/``) is not found as written, and each try reads the whole output."""

_FACT_SPECIFICITY = 0.4
"""How specific a tool output's value must be for its key-value to be a fact: a number,
an id, a path ("Expected: Should work", "status: Active" are not)."""
_ANSWER_LINES = 3
"""An output this short is an answer, not a dump: its lines naming an id, a URL or a
specific value are items whole (a dump's ids are incidental, and are left to the recall tool)."""
_ANSWER_LINE_CHARS = 400
_CODE_VALUE_SPECIFICITY = 0.6
"""A value this specific in a code-like line of an answer is the answer (an id, a host),
not one of the code's names."""
_URL = re.compile(r"\bhttps?://[^\s'\"<>)]+")

_ECHO_NAMING = 0.5
"""Of the error lines one output prints, one naming no value this specific beside the line
that tells the failure (a shell's "Segmentation fault", make's "Error 2", a runner's "1
failed") is an echo of it, and not an item of its own."""
_BLOCKED_CALL_CHARS = 60
_NOTICE_MAX_WORDS = 24
"""A flagged or answer line longer than this is standing advice a tool prints every time
(pip's "Running pip as the 'root' user…"), not a notice about this call or its answer."""

_FLAG = re.compile(
    r"^\W{0,3}(?:WARNING|WARN|NOTE|IMPORTANT|ATTENTION|CAUTION|NOTICE|HINT|DEPRECATED|"
    r"ALERT)\b|!!!|⚠",
)


def _flagged(line: str) -> bool:
    """A line a tool marks for attention (WARNING, NOTE, IMPORTANT, ...)."""
    return bool(_FLAG.search(line))


def _fact_candidates(
    src: Source, seq: int, lo: int, hi: int, lines: list[tuple[int, int]], said: set[str]
) -> list[Candidate | None]:
    """Up to ``_TOOL_FACTS`` facts, the most specific first, ranked by how answer-like the
    output is."""
    text = src.text[lo:hi]
    pairs = json_facts(text)
    found: list[tuple[str, str, Quote | None]] = []
    plain: list[tuple[int, int, bool]] = []  # lines stating no fact: a document's sentences?
    # every scalar of a record, every "key: value" of a text; only the specific ones are
    # facts ("Expected: Should work" states nothing to keep)
    if pairs is not None:
        found = [(k, v, None) for k, v in pairs if tx.specificity(v) >= _FACT_SPECIFICITY]
    else:
        for a, b in lines[:2000]:
            line = src.text[a:b]
            code = tx.is_code_line(_indented(src.text, a, b))
            facts = [] if code or line in said else p.facts(line, fields=True)
            for f in facts:
                if tx.specificity(f.value) >= _FACT_SPECIFICITY:
                    start, cut = p.shown_from(line, f, fields=True)
                    words = src.slice(a + start, a + f.end)
                    found.append((f.key, f.value, f"{ELLIPSIS} " + words if cut else words))
            plain += [] if facts or line in said else [(a, b, code)]
        found += table_facts(src, lines)  # a short table's cells, by column
    # a record of a few fields is an answer; a list of records is a dump, however few of
    # its fields are specific
    stated = len(pairs) if pairs is not None else len(found)
    density = 1.0 / (1.0 + max(0, stated - 2) / 6)
    ranked = sorted(found, key=lambda kv: -tx.specificity(kv[1]))
    documents = document_facts(src, plain, len(lines[:2000]))  # after its fields
    ranked += sorted(documents, key=lambda kv: -tx.specificity(kv[1]))[:DOCUMENT_FACTS]
    out: list[Candidate | None] = []
    for n, (key, value, shown) in enumerate(ranked):
        if len(out) >= _TOOL_FACTS or n >= _QUOTE_TRIES:
            break
        if shown is None:
            shown = json_quote(src, lo, hi, key, value)
            if shown is None:
                continue
        salience = (
            SALIENCE["tool.fact"] * (0.7 + 0.3 * tx.specificity(value)) * (0.5 + 0.5 * density)
        )
        # a two-letter field (``id:``) names no setting of its own, nor does a record's
        # place in a list (``[0].id``): keyed by its value, so another output's ``id:``
        # supersedes nothing (a run again still does)
        own = len(key) > 2 and "[" not in key
        keyed = key.lower() if own else f"{key.lower()}={value}"
        out.append(fact_item(keyed, shown, src.id, seq, salience, origin="tool"))
    return out


def _indented(text: str, a: int, b: int) -> str:
    """The line ``text[a:b]`` with its indentation: code shows in its indents."""
    return text[text.rfind("\n", 0, a) + 1 : b]


def _line_spans(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each non-blank line of ``text[lo:hi]``, stripped."""
    out = []
    for m in re.finditer(r"[^\n]+", text[lo:hi]):
        a, b = lo + m.start(), lo + m.end()
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


def output_items(src: Source, seq: int, lo: int = 0, hi: int | None = None) -> list[Candidate]:
    """Errors, flagged lines, facts, answer lines and paths of the output ``src.text[lo:hi]``
    (a tool message, or a tool's turn in a transcript)."""
    return _output(src, seq, lo, len(src.text) if hi is None else hi, False)[0]


def _output(
    src: Source, seq: int, lo: int, hi: int, failed: bool, signature: str = ""
) -> tuple[list[Candidate], list[str]]:
    """``output_items`` and the error lines found (exit-status lines included); a line
    echoing the command of the call ``signature`` after a prompt is the call, not what it
    printed."""
    text = src.text[lo:hi]
    mid = src.id
    out: list[Candidate | None] = []
    found = [e for e in error_lines(text) if not _echoes(e, signature)]
    if failed and not found and text.strip():
        found = [text.strip().splitlines()[-1].strip()]
    errors = [e for e in found if not exit_status(e)]
    best = telling(errors) if errors else -1
    for n, error in enumerate(errors):
        if n != best and naming(error) < _ECHO_NAMING:
            continue  # the same failure echoed in words naming nothing ("Segmentation fault")
        salience = SALIENCE["tool.error"] + (0.05 if n == best else 0.0)
        out.append(
            item(
                Section.CRITICAL,
                _error_quote(src, error, lo, hi),
                mid,
                seq,
                key=f"error:{tx.shape(error)[:80]}",
                kind="error",
                salience=salience,
                origin="tool",
            )
        )
    lines = _line_spans(src.text, lo, hi)
    notices = [
        (a, b)
        for a, b in lines
        if _flagged(ln := src.text[a:b])
        and not tx.is_code_line(_indented(src.text, a, b))
        and len(ln.split()) <= _NOTICE_MAX_WORDS
    ]
    for a, b in notices[:2]:
        line = src.text[a:b]
        out.append(
            item(
                Section.CRITICAL,
                src.slice(a, b),
                mid,
                seq,
                key=f"note:{tx.norm(line)[:80]}",
                kind="fact",
                salience=SALIENCE["tool.flagged"],
                origin="tool",
            )
        )
    facts = _fact_candidates(src, seq, lo, hi, lines, set(errors))
    out.extend(facts)
    if len(lines) <= _ANSWER_LINES:  # an answer: "Created order #A-55812", "Listening on URL"
        said = [c[1].text for c in facts if c is not None] + errors
        said += [src.text[a:b] for a, b in notices]
        quoted = [s.start for c in facts if c is not None for s in c[1].spans]
        for a, b in lines:
            ln = src.text[a:b]
            if len(ln) > _ANSWER_LINE_CHARS or len(ln.split()) > _NOTICE_MAX_WORDS:
                continue  # a payload or standing advice, not an answer
            if any(a <= x < b for x in quoted) or _echoes(ln, signature):
                continue  # a line a fact already quotes; the call's command, echoed
            # a code-like line's names are code, but a specific value in it is the answer
            # ("region = eu-west-3;")
            code = tx.is_code_line(_indented(src.text, a, b))
            specific = [
                v
                for v in quote_values(ln)
                if (tx.specificity(v) >= _CODE_VALUE_SPECIFICITY if code else tx.is_name(v))
            ]
            names = [*([] if code else [*tx.identifiers(ln), *_URL.findall(ln)]), *specific]
            if names and not any(x in ln for x in said if len(x) >= 3):
                shown = src.slice(a, b).cut(160)
                weight = SALIENCE["tool.fact"]
                out.append(
                    item(Section.CRITICAL, shown, mid, seq, key=f"id:{names[0]}",
                         kind="identifier", salience=weight, origin="tool")
                )  # fmt: skip
    for path in tx.paths(" ".join(errors))[:2]:
        out.append(
            file_item(Section.FILES_READ, src.quote(path, lo), mid, seq, SALIENCE["tool.path"])
        )
    return present(out), found


_PROMPT = re.compile(r"^(?:[\w.-]+@[\w.-]+:\S*)?[$%>] ")


def _echoes(line: str, signature: str) -> bool:
    """Whether ``line`` is the command of the call ``signature`` (``name: command``) echoed
    after a shell prompt (``$ make test``, ``dev@box:~/app$ make test``): "$ journalctl -p
    err" runs a command, it is no error. Only the command's start counts: a command that
    prints a failure (``… || echo "> ERROR: x failed"``) holds that text further on."""
    prompt = _PROMPT.match(line)
    rest = line[prompt.end() :].strip()[:40] if prompt else ""
    return len(rest) >= 2 and signature.partition(": ")[2].startswith(rest)


def _error_quote(src: Source, line: str, lo: int, hi: int) -> Quote | None:
    """The error ``line`` quoted; a JSON body from its failure report on."""
    shown = _quote_line(src, line, lo, hi)
    if shown is not None and (at := reported_at(line)):  # None or 0: the line whole
        return f"{ELLIPSIS} " + shown.without([(0, at)])
    return shown


def _quote_line(src: Source, line: str, lo: int, hi: int) -> Quote | None:
    """``line`` (a stripped line of ``src.text[lo:hi]``) quoted."""
    found = src.quote(line, lo)
    if found is None or (found.spans and found.spans[0].start >= hi):
        return None
    return found


_WRAPPER = re.compile(r"(?:</?[\w-]+>)+|<([\w-]+)>\d*</\1>")
"""A line of markup around an output (``<output>``, ``<returncode>0</returncode>``)."""
_ANSWER_WORDS = 3
_ANSWER_CHARS = 300


def answer_value(text: str, signature: str = "") -> str | None:
    """The one value an output consists of, markup lines and the call's echoed command
    aside (``cat VERSION``, ``git rev-parse HEAD``, ``hostname``), or None; not the output
    of a failure."""
    if len(text) > _ANSWER_CHARS:
        return None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if not _WRAPPER.fullmatch(ln) and not _echoes(ln, signature)]
    if len(lines) != 1:
        return None
    # one value, a unit or a zone after it: ``4add32f67eec``, ``15:32 UTC``, not ``42 app.py``
    first, *rest = words = lines[0].split()
    if len(words) > _ANSWER_WORDS or any(not w.isalpha() for w in rest):
        return None
    if quote_values(lines[0]) != words or not tx.is_specific(first) or error_lines(text):
        return None
    return lines[0]


def tool_items(
    message: ToolMessage, mid: str, seq: int, signature: Quote, call: str = ""
) -> list[Candidate]:
    """What a tool output says (``output_items``), and the call's outcome: done or blocked.

    An output that is one value is the answer to its call, shown beside the call and keyed
    by it: running the call again replaces it, and it states the current value of what
    the command names (``subject.answer``). Every fact and id read from the output keeps
    its call (``call``, ``rerun.call_key``), and so does the outcome when the call
    succeeded: a later successful run of the same call replaces them (``rerun``)."""
    src = Source(mid, message_text(message))
    out, found = _output(src, seq, 0, len(src.text), message.status == "error", signature.text)
    # the names it prints, whatever the format: read as the output arrives (a transcript
    # fed back is read for what was said; its outputs were read when they ran)
    taken = [s for c in out for s in c[1].spans]
    lines = [(a, b) for a, b in _line_spans(src.text, 0, len(src.text))
             if not _echoes(src.text[a:b], signature.text)]  # fmt: skip
    out = [*out, *present(value_lines(src, seq, lines, taken))]
    value = answer_value(src.text, signature.text) if not found and ": " in signature.text else None
    shown = src.quote(value) if value else None
    if shown is not None:
        out = [c for c in out if c[1].text != value]
        answer = item(
            Section.CRITICAL, signature.cut(_BLOCKED_CALL_CHARS) + ARROW + shown, mid,
            seq, key=f"answer:{signature.text}", kind="fact", salience=SALIENCE["tool.fact"],
            origin="tool",
        )  # fmt: skip
        out = present([*out, answer])
    if call:  # what a call printed: running the same call again replaces it
        out = [(s, c.model_copy(update={"call": call})) if c.kind in OBSERVED
               else (s, c) for s, c in out]  # fmt: skip
    statuses = [e for e in found if exit_status(e)]
    errors = [e for e in found if not exit_status(e)]
    key = f"call:{signature.text}"
    # Exit status 1 with no error text is how grep, diff and test say "no" (no match,
    # a difference): the call worked. Anything else that failed blocks.
    failed = errors[telling(errors)] if errors else None
    failed = failed or next((x for x in statuses if exit_status(x) != "exit status 1"), None)
    outcome: Candidate | None
    if failed:
        # The error itself is a Critical Context item: the progress line only points at it.
        shown = _error_quote(src, failed, 0, len(src.text))
        if shown is None:
            return out
        outcome = item(
            Section.BLOCKED, signature.cut(_BLOCKED_CALL_CHARS) + ARROW + shown.cut(80), mid, seq,
            key=key, kind="blocked", salience=SALIENCE["tool.blocked"], origin="tool",
        )  # fmt: skip
    else:
        status = _quote_line(src, statuses[-1], 0, len(src.text)) if statuses else None
        done = signature + (" (" + status + ")" if status else "")
        outcome = item(
            Section.DONE, done, mid, seq, key=key, kind="done", salience=SALIENCE["tool.done"],
            origin="tool", call=call,
        )  # fmt: skip
    return present([*out, outcome])
