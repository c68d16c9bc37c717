"""Text helpers shared by extraction, merging and selection: sentences, keys, shapes.

Pure functions over strings: how an item is cut to one line, how keys and near-duplicates
are compared, how concrete a value is, what counts as code, which paths and ids a text
names, and what is junk that never enters a summary.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from langgraph_compact.compaction.paths import file_key, has_extension, path_spans, paths

__all__ = [
    "AFTER_SENTENCE_STOP",
    "ASSIGNMENT",
    "ITEM_MAX_CHARS",
    "TRACEBACK_FRAME",
    "TRACEBACK_HEADER",
    "content_words",
    "file_key",
    "function_words_only",
    "has_extension",
    "identifiers",
    "is_code_line",
    "is_junk",
    "is_specific",
    "norm",
    "paths",
    "sentence_spans",
    "sentences",
    "shape",
    "short",
    "short_end",
    "specificity",
    "template",
]

TRACEBACK_HEADER = re.compile(r"^Traceback \(most recent call last\):\s*$")
"""The first line of a Python traceback: a header, never an item."""
TRACEBACK_FRAME = re.compile(r"^\s*File \"[^\"]+\", line \d+")
"""A frame of a Python traceback: where the error passed, not what it was."""

ITEM_MAX_CHARS = 240

_STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have here
    how i if in into is it its just let lets me my now of ok okay on or our out so some
    that the their them then there these they this to too up us was we were what when
    where which while who will with would yes no you your good great perfect nice fine
    sure also again let's i'll i'm we'll we're it's that's there's here's see look check
    try run make use sounds thanks thank please""".split()
)

_TITLE = r"(?:Dr|Mr|Ms|Mx)\."
AFTER_SENTENCE_STOP = (
    rf"(?-i:(?<!\b{_TITLE})(?<!\bMrs\.)(?<!\bProf\.)(?<!\be\.g\.)(?<!\bi\.e\.)"
    rf"(?<!\b{_TITLE} [A-Z]\.)(?<!\bMrs\. [A-Z]\.)(?<!\bProf\. [A-Z]\.)(?<!\b[A-Z]\. [A-Z]\.))"
)
"""Right after a period, that it may end a sentence: it is not a title's ("Dr."), an
initial's after one ("Mr. J.", "K. L.") or "e.g."'s, so "The contact is Mr. J. Hämäläinen"
is one sentence. Case counts ("500 ms. The port"). What ends a name or a time as often as
a sentence ends one ("Jr.", "St.", "a.m."), and a capital alone ("69.0134° E.", "Plan
B.")."""
_SENTENCE_SPLIT = re.compile(rf"(?<=[.!?]){AFTER_SENTENCE_STOP}\s+(?=[A-Z0-9\"'(\[])|\n+")
_MARKERS = " \t-*>#•"


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each non-empty sentence or line of ``text``, list and quote
    markers left out at its ends: ``text[start:end]`` is the sentence, verbatim."""
    pos = 0
    for m in [*_SENTENCE_SPLIT.finditer(text), None]:
        end = m.start() if m is not None else len(text)
        a, b = pos, end
        while a < b and text[a] in _MARKERS:
            a += 1
        while b > a and text[b - 1] in _MARKERS:
            b -= 1
        if a < b:
            yield a, b
        if m is not None:
            pos = m.end()


def sentences(text: str) -> Iterator[str]:
    """Non-empty sentences and lines of ``text``, stripped of list and quote markers."""
    for a, b in sentence_spans(text):
        yield text[a:b]


def short_end(text: str, limit: int = ITEM_MAX_CHARS) -> tuple[int, str]:
    """Where ``short`` cuts ``text`` (already stripped) and what it shows after the cut:
    ``(len(text), "")`` when it does not."""
    newline = text.find("\n")
    line_end = len(text[:newline].rstrip()) if newline != -1 else len(text)
    if line_end <= limit:
        return (line_end, " …") if line_end < len(text) else (line_end, "")
    at = text.rfind(" ", 0, limit - 1)
    end = at if at > limit // 4 else limit - 1  # a word longer than that: cut inside it
    end = len(text[:end].rstrip())
    return end, " …" if text[end : end + 1].isspace() else "…"


def short(text: str, limit: int = ITEM_MAX_CHARS) -> str:
    """``text`` cut to its first line and at most ``limit`` characters, at a space where
    one is near; ``…`` marks a cut. Nothing inside is re-spaced or changed.

    >>> short("build-7:2222  is   up"), short("a long line of words", 12)
    ('build-7:2222  is   up', 'a long …')
    """
    text = text.strip()
    end, mark = short_end(text, limit)
    return text[:end] + mark


_VARIABLE = re.compile(r"/tmp/\S+|\b0x[0-9a-f]+\b|\b[0-9a-f]{7,}\b|\d+", re.IGNORECASE)


def shape(text: str) -> str:
    """``norm`` with temporary paths, addresses, hashes and numbers masked: the same
    error raised again with another temp dir or line number has the same shape.

    >>> shape("Cannot load /tmp/tmpx1_9/src: line 12") == shape("Cannot load /tmp/q/src: line 7")
    True
    """
    return norm(_VARIABLE.sub("#", text))


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


def template(text: str) -> str:
    """``shape`` with quoted names masked too: one message template, whatever it names.

    >>> template("No module named 'numpy'") == template("No module named 'h5py'")
    True
    """
    return shape(_QUOTED.sub("Q", text))


def norm(text: str) -> str:
    """Lowercase words only: the form keys and near-duplicates are compared in.

    >>> norm("The  API rate-limit!")
    'the api rate limit'
    """
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def content_words(text: str) -> int:
    """Words that carry content: 3+ letters and not a stopword or filler."""
    return sum(1 for w in re.findall(r"[A-Za-z][\w'-]{2,}", text) if w.lower() not in _STOPWORDS)


_FUNCTION_WORDS = _STOPWORDS | frozenset(
    """nothing everything something anything none nobody everyone everybody someone somebody
    anyone anybody all each both either neither he she""".split()
)
"""Stopwords and the pronouns that name nothing."""


def function_words_only(text: str) -> bool:
    """Whether ``text`` is words and only stopwords or pronouns ("It", "Nothing", "None of
    it"): it names nothing, whatever its capitals."""
    words = re.findall(r"[^\W\d_][\w'-]*|\d", text)
    return bool(words) and all(w.lower() in _FUNCTION_WORDS for w in words)


_SPECIFIC = re.compile(
    r"https?://\S+|[\w.+-]+@[\w-]+\.[\w.]+|\bv?\d+\.\d+(?:\.\d+)+\b|\b\d{4}-\d\d-\d\d\b|"
    r"\b\d{1,2}:\d\d\b|[$€£]\s?\d|\b\d+(?:\.\d+)?\s?(?:%|ms|s|kb|mb|gb|tb|min|h|px|rpm|qps)\b|"
    r"\b(?:\d{1,3}\.){3}\d{1,3}\b",
    re.IGNORECASE,
)
_PATHLIKE = re.compile(r"\w[\\/]\w[^\s]*\.[A-Za-z]\w{0,4}\b|^[A-Za-z]:\\")
"""A file path, POSIX or Windows: ``src/app.py``, ``C:\\ci\\cfg.toml``."""
_ABSOLUTE = re.compile(r"^~?/[\w.@+-]+/[\w.@+-]")
"""An absolute path of two parts or more, with or without an extension (``/dev/mapper/vg0-wal``,
``/srv/releases``): a place, as concrete as a file."""
_ID_TOKEN = re.compile(
    r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]{3,}\b|\b[A-Z]{2,}-\d+\b|\b[A-Z][A-Z0-9]{4,}\b"
)
_CODE_NAME = re.compile(r"\b[a-z]+[0-9]*(?:[A-Z][a-z0-9]+)+\b|\b[^\W\d]\w*(?:::\w+)+")
"""A camelCase or qualified name, ``parseConfig``, ``io::session::Frame``: a name in code,
as concrete as a setting (prose neither capitalizes inside a word nor joins with ``::``)."""
_COMMON_VALUES = frozenset(
    """true false none null nil yes no on off 0 1 -1 '' "" [] {} n/a na self ok""".split()
)


def specificity(value: str) -> float:
    """How concrete a value is, 0–1: numbers, ids, URLs, versions, dates and names count.

    >>> specificity("eu-west-3") > specificity("enabled") > specificity("true")
    True
    """
    v = value.strip().strip("\"'`,;")
    if not v or v.lower() in _COMMON_VALUES:
        return 0.0
    score = 0.15
    if re.search(r"\d", v):
        score += 0.3
        if re.search(r"\d{3}", v):
            score += 0.15  # a port, a count, an amount, an id: rarely a coincidence
    if _ID_TOKEN.search(v):
        score += 0.2
    elif _CODE_NAME.search(v):
        score += 0.3
    if _SPECIFIC.search(v) or _PATHLIKE.search(v):
        score += 0.25
    elif _ABSOLUTE.match(v):
        score += 0.35
    # a name: capitalized in any script, or written in one that has no case (김민준)
    if any(w[:1].isupper() and w[1:2].islower() for w in v.split()) or (
        not v.isascii() and any(c.isalpha() and not c.isupper() and not c.islower() for c in v)
    ):
        score += 0.15
    if len(v) > 80:
        score -= 0.2
    return max(0.0, min(1.0, round(score, 2)))  # 0.15 + 0.3 is 0.45, not 0.4499…


_CODE_START = re.compile(
    r"^\s*(?:\d+[:|-]\s|[+\-]{1}\s|@@|diff --git|index [0-9a-f]+\.\.|-{3} a/|\+{3} b/|"
    r"def |class |import |from \S+ import|return\b|if .*:\s*$|"
    r"for .* in |while |try:|except\b|raise |elif |else:|with .*:\s*$|async |await |"
    r"self\.|@\w|#|//|/\*|\*\s|let |const |var |function\b|public |private |protected |fn |"
    r"func |package |[{}\])]+[;,]?\s*$|\w+\(.*\)\s*[{;:]?\s*$)"
)


_CODE_CHARS = frozenset("{}[]<>=;|\\`$")
_INLINE_JSON = re.compile(r'\{\s*"[^"]+"\s*:')
_DRIVE_PATH = re.compile(r"(?<![\w\\])[A-Za-z]:\\[\w.\\-]*")
"""A Windows path from its drive: its backslashes separate folders, they are no code."""


def starts_code(line: str) -> bool:
    """A line opening as code does: a keyword, a numbered or diff line, a call, a comment."""
    return bool(_CODE_START.match(line))


ASSIGNMENT = re.compile(r"\w+(?:\.\w+)* ?[+\-*/]?= ")
"""A line assigning to a name (``rho = (n1 - n2) ** 2``, ``self.x += 1``)."""


def is_code_line(line: str) -> bool:
    """A line of source code, a diff or a numbered file view, not prose or output.

    >>> is_code_line("    self.timeout = 30"), is_code_line("timeout: 30 seconds")
    (True, False)
    """
    if starts_code(line):
        return True
    stripped = line.strip()
    if _INLINE_JSON.search(stripped):
        return True
    dense = _DRIVE_PATH.sub(lambda m: m.group().replace("\\", ""), stripped)
    if len(stripped) >= 20 and sum(c in _CODE_CHARS for c in dense) > 0.1 * len(stripped):
        return True  # a command line, markup, a literal: punctuation-dense
    indented = len(line) - len(line.lstrip()) >= 4
    return indented and bool(re.search(r"[(){}\[\];]", stripped) or ASSIGNMENT.match(stripped))


# --- identifiers ----------------------------------------------------------------------

_STRONG_ID = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.]+|\b[A-Z]{2,}-\d+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|"
    r"\b(?=(?:[A-Za-z_-]*\d){2})(?=(?:[\d_-]*[A-Za-z]){2})[A-Za-z0-9][\w-]{5,}\b|"
    r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,}\b|"
    r"(?<![\w#&])#(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,}\b"
)
"""Ids: ``ABC-123``, UUIDs, mixed letter-and-digit tokens (hashes, codes), emails, and a
``#`` reference (``order #A-55812``, ``#4521``)."""


_COMPOUND_NAME = re.compile(r"[^\W\d_](?:[:.]|::)[^\W\d_]")
_JOINED_NAME = re.compile(r"_*[^\W\d_]+(?:_+[^\W_]+){2,}")
"""Three words or more joined by underscores (``int_adyen__shipments_dedup``): a name
made for one thing, where two (``str_replace``, ``en_US``) is still a word of a vocabulary."""


def is_name(value: str) -> bool:
    """Whether a value names one thing: specific (``specificity`` ≥ 0.5), or words joined
    by ``:`` or ``.`` in one token (``cache:users``, ``billing.queue``: a key, a queue) or
    by underscores three times or more, not a word of prose or an option (``str_replace``,
    ``en_US``)."""
    v = value.strip()
    if " " in v:
        return specificity(v) >= 0.5
    return specificity(v) >= 0.5 or bool(_COMPOUND_NAME.search(v) or _JOINED_NAME.fullmatch(v))


_LARGER = re.compile(r"[.:/@\\][\w]")
_LARGER_BEFORE = re.compile(r"[\w][.:/@\\]\Z")
"""An id's match that a larger value goes on from or leads into (``cache-97`` of
``cache-97.internal:22828``, of ``http://cache-97/x``): a piece, not a value."""


def identifiers(text: str) -> list[str]:
    """Ids, codes, hashes and emails in ``text`` (never a path, a piece of a larger value,
    or a plain version)."""
    inside = path_spans(text)
    found = (
        m.group(0)
        for m in _STRONG_ID.finditer(text)
        if not any(a <= m.start() and m.end() <= b for a, b in inside)
        and not _LARGER.match(text, m.end())
        and not _LARGER_BEFORE.search(text, 0, m.start())
    )
    return list(
        dict.fromkeys(f for f in found if not re.fullmatch(r"v?[\d.]+", f) and "/" not in f)
    )


def is_specific(text: str) -> bool:
    """Whether ``text`` names something concrete: a number, an id, a path, a name."""
    return specificity(text) >= 0.45 or bool(paths(text) or identifiers(text))


_OWN_NOTE = re.compile(
    r"call recall\(ref\) for the original|"
    r"^\[(?:\.\.\. |superseded by a later|context compaction paused|loop detected)"
)
"""What this package writes into a projection (a clip marker, a dedupe placeholder, a
pause or loop note), met again when a projection is fed back as text: never an item."""


def is_junk(text: str) -> bool:
    """An item with nothing to act on: a bare header, a filler phrase, no content word,
    or one of this package's own markers.

    >>> is_junk("Traceback (most recent call last):"), is_junk("Now let me test again:")
    (True, True)
    >>> is_junk("ModuleNotFoundError: No module named 'pytz'"), is_junk("(none yet)")
    (False, True)
    """
    stripped = text.strip()
    if not stripped or TRACEBACK_HEADER.match(stripped) or _OWN_NOTE.search(stripped):
        return True
    if re.fullmatch(r"\((?:none|nothing|n/a|empty|tbd)[\w ]{0,20}\)", stripped, re.IGNORECASE):
        return True  # a placeholder: "(none yet)"
    specific = is_specific(stripped)
    if stripped.endswith(":") and not specific and content_words(stripped) <= 4:
        return True
    if stripped.endswith(":") and content_words(stripped) <= 2 and not paths(stripped):
        return True  # a label announcing what follows: "ERROR: Exception:"
    return not specific and content_words(stripped) < 2
