"""Qualifiers: what tells two things named with the same words apart.

"The staging db host" and "the staging cache host" share their content words, and so do
"Room 12" and "Room 14", or "Alice's flight" and "Bob's flight". Each key names something
the other does not, and one of those words is a *marker* the subject's content words
leave out (a short word, a number or code, an owner), so they are two things: a value of
one never replaces a value of the other. A word on one side only narrows the same thing
("the DB host", then "the host"), an abbreviation is its word ("prod", "production"),
and two different content words alone ("primary", "master") are left to the subject's
own test: a correction often says the same thing in other words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = ["OWNER", "crossed", "key_words"]

OWNER = re.compile(
    r"((?:(?!(?:The|A|An|My|Our|Your|His|Her|Their|Its)\s)[A-Z][^\s']*\s+){0,3}\S+)['\u2019]s\s+$"
)
"""A possessive right before a key, with the capitalized words of its name ("Alice
Weber's flight")."""


_OWNER_REACH = 80
"""Characters before a key an owner's name may take: a long text is not scanned again."""


def key_words(text: str, start: int, end: int) -> Iterator[str]:
    """The words of the key ``text[start:end]`` and of a possessive's owner right before
    it (as ``@alice``), folded; short words and numbers included ("db", "12")."""
    owner = OWNER.search(text, max(0, start - _OWNER_REACH), start)
    yield from ("@" + _fold(w) for w in re.findall(r"[^\W_]+", owner[1] if owner else ""))
    yield from (_fold(w) for w in re.findall(r"[^\W_]+", text[start:end]))


def _fold(word: str) -> str:
    """``word`` casefolded, accents off ("José" is "jose")."""
    plain = unicodedata.normalize("NFKD", word)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def crossed(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two keys' words each name something the other does not, a marker among
    them: two things.

    >>> crossed(frozenset({"db", "host"}), frozenset({"cache", "host"}))
    True
    >>> crossed(frozenset({"room", "12"}), frozenset({"room", "1"}))
    True
    >>> crossed(frozenset({"db", "host"}), frozenset({"host"}))
    False
    >>> crossed(frozenset({"prod", "db"}), frozenset({"production", "db"}))
    False
    >>> crossed(frozenset({"primary", "host"}), frozenset({"master", "host"}))
    False
    """
    mine = [w for w in a - b if not any(_abbreviates(w, x) for x in b - a)]
    theirs = [w for w in b - a if not any(_abbreviates(w, x) for x in a - b)]
    return bool(mine and theirs) and any(_marker(w) for w in (*mine, *theirs))


def _marker(word: str) -> bool:
    """A word a subject's content words leave out: short, with a digit, or an owner."""
    return len(word) < 3 or word.startswith("@") or any(c.isdigit() for c in word)


def _abbreviates(x: str, y: str) -> bool:
    """One word written short for the other: letters only, the same first letter, the
    shorter one's letters in order in the longer ("db", "database"; "stg", "staging")."""
    short, long = sorted((x.removeprefix("@"), y.removeprefix("@")), key=len)
    if not short.isalpha() or not long.isalpha() or short[:1] != long[:1]:
        return False
    rest = iter(long)
    return all(c in rest for c in short)
