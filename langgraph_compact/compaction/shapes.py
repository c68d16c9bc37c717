"""Values of one kind: two times, two hosts, two commits, two names.

A later value replaces an earlier one only when the two could be values of the same thing
(``subject``): their shapes match once digits, letters and hex runs are folded, or they
open with value tokens that do. "redis-1 for prod" restating "redis-1" is not a new value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from langgraph_compact.compaction.quote import value_spans

__all__ = ["comparable", "compatible", "same_shape", "value_groups", "value_tokens"]


_HEX = re.compile(r"(?i)(?<![\w])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}(?![\w])")
"""A hex string of seven or more digits and letters (a commit, a build id, a digest): one
compares with another of any length, wherever its digits and letters fall."""


_CODE = re.compile(r"(?<![\w])(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,}(?![\w])")
"""A code of five or more capitals and digits (a booking code, a ticket, a SKU part): one
compares with another wherever their letters and digits fall (one of letters A–F only
reads as hex first)."""


def _shape(value: str) -> str:
    shape = _CODE.sub("@", _HEX.sub("#", value))
    shape = re.sub(r"\d+", "9", shape)
    shape = re.sub(r"(?<=9)[.,](?=9)", "", shape)
    shape = re.sub(r"[^\W\d_]+", lambda m: "A" if m.group()[:1].isupper() else "a", shape)
    shape = re.sub(r"(.)\1+", r"\1", shape)
    return _DEPTH.sub(r"\1", shape)


_DEPTH = re.compile(r"([/\\][aA])\1+")
"""A folder of a path repeated: ``/srv/app/x.yml`` and ``/etc/x.yml`` differ in depth,
not in kind (not a date's ``2024/03/15``, not a host's or a file's dots)."""


def compatible(a: str, b: str) -> bool:
    """Values of the same shape: two times, two host:port pairs, two numbers, two names.

    >>> compatible("09:00 UTC", "15:32 UTC"), compatible("build-7:2222", "9000")
    (True, False)
    >>> compatible("a2e906172881", "4add32f67eec"), compatible("J1LSW1", "JHH24X")
    (True, True)
    >>> compatible("/srv/app/conf/x.yml", "/etc/x.yml"), compatible("/srv/x.yml", "x.yml")
    (True, False)
    """
    if _shape(a) == _shape(b):
        return True
    words = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")
    return bool(words.fullmatch(a) and words.fullmatch(b))


def same_shape(a: str, b: str) -> bool:
    """Values written alike, with digits or a path's separators and more than a number's
    shape: ``E#29062-BE`` and ``E#38553-VIE``, two times, two paths; not two counts, not
    two names, not two hyphenated words.

    >>> same_shape("E#29062-BE", "E#38553-VIE"), same_shape("12", "5432")
    (True, False)
    >>> same_shape("Harlow", "Brennan"), same_shape("pre-trip", "non-negotiable")
    (False, False)
    >>> same_shape("lh8807", "kl6189"), same_shape("lh8807", "kl618"), same_shape("v2", "v3")
    (True, False, False)
    """
    shape = _shape(a)
    if len(shape) >= 3 and re.search(r"[9#@/\\:]", shape) and shape == _shape(b):
        return True
    return _CODE_FORMAT.fullmatch(a) is not None and _format(a) == _format(b)


_CODE_FORMAT = re.compile(r"(?=[^\W\d_])(?=(?:\D*\d){3})[^\W_]{5,}")
"""A code of letters and digits only, opening with a letter, five or more with three
digits at least (a flight, a booking code, a part number), folded or not: one compares
with another written in the same format, letter for letter and digit for digit
(``LH8807`` and ``KL6189``, not ``KL618``; not sizes or amounts, ``512MB``, ``int64``)."""


def _format(value: str) -> str:
    return re.sub(r"\d", "9", re.sub(r"[^\W\d_]", "a", value))


def value_groups(text: str) -> list[list[tuple[int, int]]]:
    """The value spans of ``text`` (``quote.value_spans``), those only spaces apart grouped
    as one value: "14:05 UTC" is one."""
    groups: list[list[tuple[int, int]]] = []
    for a, b in value_spans(text):
        if groups and not text[groups[-1][-1][1] : a].strip():
            groups[-1].append((a, b))
        else:
            groups.append([(a, b)])
    return groups


def value_tokens(values: Iterable[str]) -> frozenset[str]:
    """The value tokens of ``values``, folded: "14:05 UTC" is "14:05" and "utc"."""
    out: set[str] = set()
    for v in values:
        spans = value_spans(v) or [(0, len(v))]
        out.update(v[a:b].casefold() for a, b in spans)
    return frozenset(out)


def comparable(a: str, b: str) -> bool:
    """``compatible``, or the first value tokens of the two are: "db-50.internal in the
    env file" and "relay-13.internal" state two hosts."""
    first = (
        [a[s[0] : s[1]] for s in value_spans(a)[:1]],
        [b[s[0] : s[1]] for s in value_spans(b)[:1]],
    )
    if all(first) and first[0][0].casefold() == first[1][0].casefold():
        return False  # "redis-1 for prod" restates "redis-1": a qualifier, not a new value
    return compatible(a, b) or (all(first) and compatible(first[0][0], first[1][0]))
