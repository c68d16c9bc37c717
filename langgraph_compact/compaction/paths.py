"""Paths as written: POSIX, Windows, relative, absolute, with a scheme, with the location
they cite. Pure functions over strings (``text`` re-exports them)."""

from __future__ import annotations

import re

__all__ = ["file_key", "has_extension", "path_spans", "paths"]

PATH = re.compile(
    r"(?:(?<![\w\\:])(?:[A-Za-z]:\\)?(?:[\w.$-]+\\)+[\w.$-]+\.[A-Za-z]\w{0,7}\b"
    r"|(?<![\w/.\\:-])(?:[A-Za-z]:)?(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]+\.[A-Za-z]{1,8}\b"
    r"|(?<![\w/.\\:-])[\w-]+\.(?:py|js|ts|tsx|jsx|md|txt|json|yaml|yml|toml|cfg|ini|sh|rs|go|"
    r"java|cpp|hpp|html|css|sql|rst|rb|php|kt|swift|xml|csv)\b"
    r"|(?<![\w/.\\:-])~?/(?=[\w.@+-]*[^\W\d_])(?:[\w.@+-]+/)+[\w@+-](?:[\w.@+-]*[\w@+-])?)"
    r"(?::\d+(?:[:-]\d+){0,2}\b|#L\d+(?:-L?\d+)?\b)?"
)
"""A path as written, POSIX or Windows (with its drive, or relative), with the location it
cites (``app.py:112:12``, ``x.py:12-15``, ``src/a.rs#L40``): the location is part of the
value. An absolute path of two parts or more needs no extension (``/dev/mapper/vg0-wal``).
Not the tail of a URL (``host:8080/a/b.py``, ``gs://bucket/run/7``)."""
_LOCATION = re.compile(r"(?::\d+(?:[:-]\d+)*|#L\d+(?:-L?\d+)?)$")


def has_extension(path: str) -> bool:
    """Whether ``path`` names a file by its extension (``src/app.py:12``, not ``/srv/x``).

    >>> has_extension("src/app.py:12"), has_extension("/dev/mapper/vg0-wal")
    (True, False)
    """
    return bool(re.search(r"\.[A-Za-z]\w{0,7}$", file_key(path).rstrip("/")))


def file_key(path: str) -> str:
    """The file a cited path names: ``./app.py:112:12`` and ``app.py`` are one file."""
    return _LOCATION.sub("", path.removeprefix("./"))


_PLACEHOLDER = re.compile(r"(?:^|/)path/to/|^(?:\.\./)*(?:some|your|my)[_-]?(?:file|path)\b", re.I)
"""Documentation placeholders (``path/to/file.py``): no file anybody touched."""


_SPACED = re.compile(r"\\[^\s\\]*\s\Z")


def paths(text: str) -> list[str]:
    """File paths named in ``text``, normalized (no leading ``./``), in order, distinct; not
    the end of a Windows path with spaces (``C:\\Program Files\\app\\a.ini``), which is no
    path of its own."""
    found = (
        m.group(0).removeprefix("./")
        for m in PATH.finditer(text)
        if not _SPACED.search(text, 0, m.start())
    )
    return list(
        dict.fromkeys(
            p for p in found if not re.fullmatch(r"[\d.]+", p) and not _PLACEHOLDER.search(p)
        )
    )


def path_spans(text: str) -> list[tuple[int, int]]:
    """Where each path of ``text`` stands (``paths`` without normalizing)."""
    return [m.span() for m in PATH.finditer(text)]
