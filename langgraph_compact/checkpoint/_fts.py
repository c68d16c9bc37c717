"""What the full-text index holds, and how a search is split between the index and a scan.

The FTS5 index is contentless: the programs hand it the words of each text themselves.
Runs of characters that look like encoded data are left out: a base64 blob or a hex
dump is one random "word" after another, so indexing it token by token makes the index
as large as the text, while no one searches for it word by word. A run of the
base64/hex alphabet (letters, digits, ``+/=_-``) is *blob-like* when it is

- 16 or more hexadecimal digits mixing digits and letters (hashes, ids, dumps; also
  inside a longer run such as ``sha=3f2a...``), or
- 24 or more characters whose letters and digits switch between upper case, lower
  case and digits every 2.5 characters or less (random encodings; words and
  identifiers such as ``getUserAccountSettingsV2`` have far longer runs).

Every other word (prose, code identifiers, paths, numbers, error names) is indexed. A
search still finds blob-like runs: the index narrows by the other words of the query,
and the blob-like ones are matched by a case-insensitive substring scan of the
candidates' text (of every text in the thread when the query has no other word).
Search for a blob by at least 24 of its characters (16 hex digits), as it appears.

Changing these rules changes what an index entry holds: it needs a migration that
rebuilds the index (a contentless index is deleted from with the words it was given).

On Postgres a text's words are not stored at all: the text row holds a *word filter*, a
Bloom filter of its distinct case-folded words (``FILTER_BITS_PER_WORD`` bits a word,
``FILTER_PROBES`` bits set per word; about 100 bytes for a 2 KB tool output, where the
words as sorted text took 600). A search keeps the texts whose filter has every bit of
every query word set (about 2% of the texts lacking a word pass anyway), then reads each
candidate's text and keeps it only if its words hold the query's (``SearchTerms``):
the filter narrows, the text decides.
"""

from __future__ import annotations

import hashlib
import re

__all__ = [
    "FILTER_BITS_PER_WORD",
    "FILTER_PROBES",
    "SearchTerms",
    "index_words",
    "is_blob_run",
    "probes",
    "search_terms",
    "text_words",
    "word_filter",
]

FILTER_BITS_PER_WORD = 8
FILTER_PROBES = 5
"""Bits per distinct word and bits set per word: (1 - e^(-5/8))^5, 2.2% false passes."""

_WORD = re.compile(r"[^\W_]+")
"""The tokens FTS5's ``unicode61`` tokenizer produces: runs of letters and digits."""

_RUN = re.compile(r"[A-Za-z0-9+/=_-]{16,}")
_HEX_WORD = re.compile(r"(?<![A-Za-z0-9])[0-9A-Fa-f]{16,}(?![A-Za-z0-9])")
_HEX_RUN = re.compile(r"[0-9A-Fa-f]+")
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")
_KIND_RUNS = re.compile(r"[A-Z]+|[a-z]+|[0-9]+")
_MARKS = re.compile("[\u0300-\u036f]")


def is_blob_run(run: str) -> bool:
    """Whether a run of the base64/hex alphabet looks like encoded data.

    >>> [is_blob_run(w) for w in ("internationalization", "deadbeef00112233")]
    [False, True]
    >>> is_blob_run("getUserAccountSettingsV2"), is_blob_run("aGVsbG8gd29ybGQgdGhpcyBpcw==")
    (False, True)
    """
    if len(run) >= 16 and _HEX_RUN.fullmatch(run):
        return _DIGIT.search(run) is not None and _LETTER.search(run) is not None
    kinds = _KIND_RUNS.findall(run)  # runs of one kind: upper case, lower case, digits
    letters_and_digits = sum(map(len, kinds))
    return letters_and_digits >= 24 and letters_and_digits <= 2.5 * len(kinds)


def _split(text: str) -> tuple[str, list[str]]:
    """``text`` with its blob-like runs blanked out, and those runs."""
    blobs: list[str] = []

    def blank(match: re.Match[str]) -> str:
        run = match.group()
        if is_blob_run(run):
            blobs.append(run)
            return " "
        return run

    return _HEX_WORD.sub(blank, _RUN.sub(blank, text)), blobs


def index_words(text: str) -> str:
    """The words of ``text`` the index stores, space-separated (blob-like runs left out).

    >>> index_words("GET /api/v2 sha=0123456789abcdef0123 done")
    'GET api v2 sha done'
    """
    return " ".join(_WORD.findall(_split(text)[0]))


def _fold(text: str) -> str:
    """Case-folded, without the combining marks folding adds (``İ`` folds to ``i`` and a
    dot above): per character, so a word's fold is a substring of its text's fold."""
    return _MARKS.sub("", text.casefold())


def text_words(text: str) -> set[str]:
    """The distinct words a search compares: ``index_words``, folded (``_fold``).

    Word filters hold these, so changing them (or the Unicode tables of the Python that
    computes them) needs a migration that computes every filter again.
    """
    return {_fold(w) for w in _WORD.findall(_split(text)[0])}


def probes(word: str) -> list[int]:
    """The filter bits of a folded word, modulo the filter's size in bits.

    Double hashing of a 128-bit BLAKE2b digest; each value is below 2**63, so SQL takes
    it as a ``BIGINT`` and reduces it by the row's own filter size.
    """
    d = hashlib.blake2b(word.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    h1 = int.from_bytes(d[:8], "little") >> 4
    h2 = (int.from_bytes(d[8:], "little") >> 4) | 1
    return [h1 + i * h2 for i in range(FILTER_PROBES)]


def word_filter(text: str) -> bytes | None:
    """The word filter of a text (bit ``n`` is bit ``n % 8`` of byte ``n // 8``, as
    Postgres's ``get_bit`` numbers them); ``None`` when the text has no word.

    >>> f = word_filter("Build FAILED in module_x")  # 5 words: 40 bits
    >>> len(f), all(f[p % 40 // 8] >> (p % 8) & 1 for p in probes("failed"))
    (5, True)
    """
    words = text_words(text)
    if not words:
        return None
    size = len(words) * FILTER_BITS_PER_WORD
    bits = bytearray(size // 8)
    for word in words:
        for p in probes(word):
            n = p % size
            bits[n >> 3] |= 1 << (n & 7)
    return bytes(bits)


class SearchTerms:
    """A text query split into an FTS5 ``MATCH`` string and runs to find by scanning.

    Attributes:
        match: the FTS5 query for the indexed words, each double-quoted so FTS5
            operators, column filters, quotes and SQL metacharacters are inert; ``None``
            when the query has no indexed word.
        words: the indexed words, folded and distinct (what a word filter tests).
        scan: the blob-like runs, lowercased, that each candidate's text must contain.
        empty: the query has no word at all (only punctuation): nothing matches.
    """

    def __init__(self, text: str) -> None:
        rest, runs = _split(text)
        words = _WORD.findall(rest)
        self.match: str | None = " ".join(f'"{w}"' for w in words) or None
        self.words: tuple[str, ...] = tuple(dict.fromkeys(_fold(w) for w in words))
        self.scan: tuple[str, ...] = tuple(r.lower() for r in runs)
        self.empty = not words and not runs

    def probes(self) -> list[int]:
        """Every filter bit of every word (the word-filter search's parameter)."""
        return [p for w in self.words for p in probes(w)]

    def matches(self, text: str, *, words: bool = False) -> bool:
        """Whether ``text`` contains every blob-like run, and with ``words`` every word
        (a word filter only narrows: its candidates are checked here)."""
        low = text.lower()
        if not all(r in low for r in self.scan):
            return False
        if not words:
            return True
        folded = _fold(text)  # a word missing from the text is missing here too
        return all(w in folded for w in self.words) and text_words(text).issuperset(self.words)


def search_terms(text: str) -> SearchTerms:
    """Split a query (see ``SearchTerms``).

    >>> t = search_terms('x OR 1=1; DROP "t" -- NEAR(a*)')
    >>> t.match, t.scan
    ('"x" "OR" "1" "1" "DROP" "t" "NEAR" "a"', ())
    >>> search_terms("commit 3f2a9c1b7d4e5f60").scan
    ('3f2a9c1b7d4e5f60',)
    """
    return SearchTerms(text)
