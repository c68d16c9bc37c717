"""The sentences of a human or assistant text worth reading, with their offsets.

Fenced code is blanked (offsets kept), a pasted directory listing is not a list of
files anybody chose, and a conversational sentence is worth an item only when it says
something (three content words, not a pleasantry); one that asks or weighs states
nothing (``unasserted``).
"""

from __future__ import annotations

import re

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.cues import DECIDED
from langgraph_compact.compaction.quote import value_spans

__all__ = [
    "LISTING_MIN_NAMES",
    "listed",
    "locates",
    "prose_sentences",
    "says_something",
    "unasserted",
]

_FENCE = re.compile(r"```.*?```", re.DOTALL)  # closed fences only: a clip may cut one


def _prose(text: str) -> str:
    """Text with fenced code blanked out (same length, same lines): instructions and
    facts live outside the code, and offsets stay those of the message."""
    return _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


LISTING_MIN_NAMES = 3
"""File names alone on this many lines in a row (or on one line) are a directory listing."""


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def listed(sentences: list[tuple[str, bool]]) -> set[int]:
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


def prose_sentences(text: str, lo: int, hi: int) -> list[tuple[int, int, bool]]:
    """``(start, end, bulleted)`` of the sentences of ``text[lo:hi]``, code fences out."""
    prose = _prose(text[lo:hi])
    out = []
    pos = 0
    for line in prose.splitlines(keepends=True):
        bullet = bool(_BULLET.match(line))
        for a, b in tx.sentence_spans(line):
            out.append((lo + pos + a, lo + pos + b, bullet))
        pos += len(line)
    return out


_PLEASANTRY = re.compile(
    r"^\W*(?:thanks|thank you|great|perfect|ok|okay|sure|hi|hello|hey|bye|goodbye|cheers|"
    r"awesome|cool|no problem|that's all|that is all|sounds good)\b",
    re.IGNORECASE,
)


def says_something(sentence: str) -> bool:
    """A sentence of a conversation worth an item: three content words, or two beside a
    specific value ("The cutover moves to 16:53."), and not a pleasantry."""
    words = tx.content_words(sentence)
    return (
        (words >= 3 or (words >= 2 and tx.is_specific(sentence)))
        and not tx.is_junk(sentence)
        and not _PLEASANTRY.match(sentence)
    )


_CONDITION = re.compile(
    r"^\W*(?:(?:and|but|so|or|then)\s+)?(?:if|suppose|supposing|assuming|what if|whether)\s",
    re.IGNORECASE,
)
_POSSIBLE = re.compile(r"\b(?:would|could|might)\b(?!\s*(?:not|n't)\b)", re.IGNORECASE)
"""A possibility; "could not" says what failed, which happened."""
_CLAUSE = re.compile(r"[,;:]\s|\s(?:so|but|and then)\s", re.IGNORECASE)
_LABELLED = re.compile(r"^\W*(?:correction|update|actually|sorry)\b", re.IGNORECASE)


def unasserted(sentence: str) -> bool:
    """Whether ``sentence`` asks or weighs rather than states: a question ("Is the window
    15:00 UTC?"), or a possibility in the clause of its first value ("Option B would be to
    use Kafka-3.6") or under a condition ("If we moved to eu-north-1 we would save 12%").
    Such a sentence says what someone asked or considered, not what is true or decided
    now: it is kept as said and replaces nothing. Not a condition alone ("If the build
    fails, the log is at …"), a decision stated as made ("we decided we would use …"), a
    labelled correction ("Correction: it would be 09:00 UTC") or a possibility in another
    clause ("Brennan might be out, so the owner is Okafor now").

    >>> unasserted("Could the deploy window be 15:00 UTC instead?")
    True
    >>> unasserted("The deploy window is 15:00 UTC; it would be late otherwise.")
    False
    """
    said = sentence.strip()
    if said.endswith("?"):
        return True
    possible = _POSSIBLE.search(said)
    if possible is None or DECIDED.search(said) or _LABELLED.match(said):
        return False
    if _CONDITION.match(said):
        return True
    first = next((a for a, _ in value_spans(said) if a >= possible.end()), None)
    if first is None:
        return False  # a possibility with no value after it ("…; it would be late")
    return _CLAUSE.search(said, possible.end(), first) is None


_LOCATION = re.compile(
    r"\b(?!https?://)[a-z][a-z0-9+.-]*://[^\s/'\"<>]+/[^\s'\"<>()]*[^\s'\"<>().,;:!?]", re.I
)


def locates(text: str) -> bool:
    """Whether ``text`` names where something is stored by a URL with a path
    (``s3://bucket/stems/part-7.parquet``, ``sftp://edi@host:2222/in/a.edi``,
    ``gs://…``, ``file:///…``): a location, as a file's path is. A web page's URL is not
    one: it is as often a reference (``https://docs.python.org/3/library/re.html``)."""
    return bool(_LOCATION.search(text))
