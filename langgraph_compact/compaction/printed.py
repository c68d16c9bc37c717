"""The names a tool output prints, in whatever format: the lines that carry them.

An output the readers of errors, facts, tables and answers do not parse (``ls -l``, a
Terraform plan, a report, a status page) still prints what the agent learned: a symlink's
new target, a resource's name. Its most specific names are items, each shown with a few
words of its line; their weight is shared out over every name the output prints, so a
short output's names are its news and a dump's are incidental (``novelty`` raises those
no earlier message named).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import SALIENCE, Candidate, item
from langgraph_compact.compaction.quote import ELLIPSIS, Quote, Source, Span, value_spans
from langgraph_compact.compaction.summary import Section

__all__ = ["value_lines"]

_MARK = re.compile(r"^(?:[-*]\s+|\+\s*|\d+[:-](?!\d))")
"""What opens a line before its content: a bullet, a list item, a diff's added mark, the
line number ``grep -n`` prints."""
_REMOVED = re.compile(r"^-(?=\S)(?!-)")
"""A diff's removed line (``-QUEUE = "v1"``): what it names is gone."""
_STATEMENT = re.compile(r"[;{}]\s*$|^[\w\s*&:<>.]+\([^()]*\)\s*$")
"""A line ending a statement or a block, or a declaration (``ulong _hash(char *p)``)."""
_SET_TO_LITERAL = re.compile(r"[\w.-]+\s*[:=]\s*([\"'])[^\"']*\1[,;]?")


def _is_code(line: str, indent: str) -> bool:
    """A line of source code (of a file view, a diff, a grep of code), not of a table whose
    pipes ``is_code_line`` reads as code: opening as code does, assigning, ending a
    statement, declaring, indented with brackets, or calling where the line opens or beside
    code's punctuation (``x["a"] = f(y)``, ``Host(name='db-1')``). A call among words
    (``dispatching Worker.run(job-42) on pool b``) is code only in an output that is
    source (``_calls``): a log line names the job it ran."""
    body = _MARK.sub("", line)
    if tx.starts_code(body) or tx.ASSIGNMENT.match(body) or _STATEMENT.search(body):
        return True
    if _calls(line) and (_OPENS_CALL.match(body) or _CODE_PUNCTUATION.search(body)):
        return True
    if tx.is_code_line(indent + line) and line.count("|") < 2:
        return True
    return len(indent) >= 4 and not indent.strip() and bool(re.search(r"[(){}\[\];]", body))


_OPENS_CALL = re.compile(r"\s*[\w.]+\(")
_CODE_PUNCTUATION = re.compile(r"[=\[\]{};\"'`]")


def _calls(line: str) -> bool:
    """Whether ``line`` (its bullet or line number aside) calls something: ``f(x)``."""
    return bool(re.search(r"\w\(", _MARK.sub("", line)))


_MEASURE = re.compile(r"\d+(?:[.,]\d+)?%?")
"""A bare number or a share: a count, a line number, a progress (a measure with its unit
is a value to keep)."""


def _file(value: str) -> bool:
    return tx.paths(value) == [value.removeprefix("./")] and tx.has_extension(value)


_CODE_SHARE = 0.3
"""An output this much of whose lines are code is source (a file view, a diff)."""


_VALUE_LINE_CHARS = 2000
_VALUE_CHARS = 120
_DUMP_SHARE = 0.25
"""Below this share (more than 21 names printed) an output is a dump, and adds no lines."""
_WORDS_AROUND = (6, 3)
"""Words of its line shown before and after a printed value: what labels it (``current
->``, ``name =``) costs a few tokens, the rest of a listing's line is recall's. Words a
side does not have go to the other: a row's first value is shown with the fields after
it, a line's last value with more of what labels it."""


def _around(src: Source, a: int, b: int, at: int, end: int) -> Quote:
    """The value ``src.text[at:end]`` of the line ``src.text[a:b]`` with the words around
    it (``_WORDS_AROUND``), ``…`` where the line goes on."""
    starts = [m.start() for m in re.finditer(r"(?<=\s)\S", src.text[a:at])]
    ends = [m.end() for m in re.finditer(r"\S(?=\s|$)", src.text[end:b])]
    head = len(src.text[a:at].split())
    before, after = _WORDS_AROUND
    before, after = before + max(0, after - len(ends)), after + max(0, before - head)
    start = a + starts[-before] if len(starts) >= before else a
    stop = end + ends[after - 1] if len(ends) > after else b
    shown = src.slice(start, stop)
    if start > a:
        shown = f"{ELLIPSIS} " + shown
    return shown + f" {ELLIPSIS}" if stop < b else shown


_VALUE_LINES = 2
"""Lines an output may add for the names it prints, whatever its format (a symlink's
target in ``ls -l``, a resource's name in a plan, a row of a report)."""


def value_lines(
    src: Source, seq: int, lines: list[tuple[int, int]], taken: list[Span]
) -> Iterator[Candidate | None]:
    """The lines naming the most specific values of an output that no other item of it
    quotes, at a salience shared out over every name the output prints: a short output's
    names are its news, a dump's are incidental. ``novelty`` raises the lines whose value
    no earlier message named; the rest stay below what was said."""
    names: dict[str, tuple[float, int, int, int, int]] = {}
    lines = lines[:2000]
    indents = [src.text[src.text.rfind("\n", 0, a) + 1 : a] for a, _ in lines]
    coded = [_is_code(src.text[a:b], i) for (a, b), i in zip(lines, indents, strict=True)]
    # a file view, a diff, a grep of code: only what its keys are set to
    calls = sum(c or _calls(src.text[a:b]) for c, (a, b) in zip(coded, lines, strict=True))
    source = calls >= _CODE_SHARE * len(lines)
    for (a, b), code in zip(lines, coded, strict=True):
        if any(s.start < b and a < s.end for s in taken):
            continue  # an error, a fact or an answer already shows this line
        line = src.text[a:b]
        if len(line) > _VALUE_LINE_CHARS or tx.TRACEBACK_FRAME.match(line) or _REMOVED.match(line):
            continue  # a payload, or a frame of a failure its error item tells
        # in code, a literal a key is set to is a value written on purpose (``name =
        # "ledger.v7"``); the rest of code's names are code
        literal = _SET_TO_LITERAL.fullmatch(_MARK.sub("", line))
        code = code or source
        for x, y in value_spans(line):
            value = line[x:y]
            if value in names or len(value) > _VALUE_CHARS or not tx.is_name(value):
                continue
            if _MEASURE.fullmatch(value) or _file(value):
                continue  # a count, a line number; a file (the Files sections are for those)
            if not code or (literal and line[x - 1 : x] == literal[1]):
                names[value] = (tx.specificity(value), a, b, a + x, a + y)
    share = 1.0 / (1.0 + max(0, len(names) - 3) / 6)
    if share < _DUMP_SHARE:
        return  # a dump: its names are the recall tool's
    ranked = sorted(names.items(), key=lambda kv: -kv[1][0])
    shown: set[int] = set()
    for value, (_, a, b, at, end) in ranked:
        if len(shown) >= _VALUE_LINES:
            break
        if a in shown:
            continue
        shown.add(a)
        yield item(
            Section.CRITICAL, _around(src, a, b, at, end), src.id, seq, key=f"printed:{value}",
            kind="identifier", salience=SALIENCE["tool.value"] * share, origin="tool",
        )  # fmt: skip
