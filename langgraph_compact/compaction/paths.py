"""Paths as written: POSIX, Windows, relative, absolute, with a scheme, with the location
they cite. Pure functions over strings (``text`` re-exports them)."""

from __future__ import annotations

import bisect
import re

__all__ = ["file_key", "has_extension", "path_spans", "paths"]

PATH = re.compile(
    r"(?:(?<![\w\\:])(?:[A-Za-z]:\\(?:(?:(?=[^\W_a-z])[\w.$-]+(?: [\w.$-]+){1,2}|[\w.$-]+)\\)+"
    r"|(?:[\w.$-]+\\)+)"
    r"[\w.$-]+\.[A-Za-z]\w{0,7}\b(?!\.\w)"
    r"|(?<![\w/.\\:-])~?/(?=[\w.@+/-]*[^\W\d_])(?:[\w.@+-]+/)+[\w@+-](?:[\w.@+-]*[\w@+-])?"
    r"|(?<![\w/.\\:-])(?:[A-Za-z]:)?(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]+\.[A-Za-z]{1,8}(?:\.\d+)?\b"
    r"(?!\.\w)"
    r"|(?<![\w/.\\:-])[\w-]+\.(?:py|js|ts|tsx|jsx|md|txt|json|yaml|yml|toml|cfg|ini|sh|rs|go|"
    r"java|cpp|hpp|html|css|sql|rst|rb|php|kt|swift|xml|csv)\b(?!\.\w))"
    r"(?::\d+(?:[:-]\d+){0,2}\b|#L\d+(?:-L?\d+)?\b)?"
)
"""A path as written, POSIX or Windows (with its drive, or relative), with the location it
cites (``app.py:112:12``, ``x.py:12-15``, ``src/a.rs#L40``): the location is part of the
value. A folder of a Windows path from its drive may hold a space or two after a capital
or a digit (``D:\\Program Files\\…``, not ``C:\\build\\out to dist\\…``); a rotated log
keeps its number (``logs/app.log.1``). An absolute path of two parts or more needs no
extension (``/dev/mapper/vg0-wal``), and is read to its end, dots inside its parts or not
(``/providers/Microsoft.Sql/servers/x``).
Not the tail of a URL (``host:8080/a/b.py``, ``gs://bucket/run/7``), nor the head of a
dotted name (``aaaa.json`` of ``aaaa.json.max_depth``)."""
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
_QUOTED = re.compile(
    r"""(?P<open>["'`\u201c\u2018]|<code>)"""
    r"""(?P<path>(?:[A-Za-z]:\\|~?/|\.{1,2}/)[^"'`\u201c\u201d\u2018\u2019<>\n]{1,240}?)"""
    r"""(?P<close>["'`\u201d\u2019]|</code>)"""
)
_CLOSES = {"<code>": "</code>", "\u201c": "\u201d", "\u2018": "\u2019"}


_ARGUMENT = re.compile(r"\s[^\s/\\]+$|\s[-/~]|[{}|&;=$<>*]")
"""What makes a quoted text with spaces a command line, not a path: a last word with no
separator (``/usr/bin/python3 manage.py migrate``), a word opening as an option or a path
of its own (``deploy.sh --build``, ``python3 /srv/app.py``), or shell and code marks."""


def _quoted(text: str) -> list[tuple[int, int]]:
    """Paths with spaces written between quotes (``"/Volumes/Media Archive/a.mxf"``): the
    quotes say where the value ends, so it is one path, not two. A quoted command line is
    no path (``_ARGUMENT``)."""
    out = []
    for m in _QUOTED.finditer(text):
        path, opened = m.group("path"), m.group("open")
        if m.group("close") != _CLOSES.get(opened, opened) or " " not in path:
            continue
        if "  " in path or len(re.findall(r"[/\\]", path)) < 2 or _ARGUMENT.search(path):
            continue
        out.append(m.span("path"))
    return out


def path_spans(text: str, quoted: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Where each path of ``text`` stands (``paths`` without normalizing): a quoted path
    with spaces whole, else what ``PATH`` matches."""
    quoted = _quoted(text) if quoted is None else quoted
    starts = [a for a, _ in quoted]  # in order: a match inside one is found by bisection

    def inside(at: int) -> bool:
        n = bisect.bisect_right(starts, at) - 1
        return n >= 0 and at < quoted[n][1]

    found = [m.span() for m in PATH.finditer(text) if not inside(m.start())]
    return sorted([*quoted, *found])


def paths(text: str) -> list[str]:
    """File paths named in ``text``, normalized (no leading ``./``), in order, distinct; a
    Windows path whose folders hold spaces whole from its drive (``C:\\Program
    Files\\app\\a.ini``) or when quoted, never its tail as a path of its own."""
    quoted = _quoted(text)
    whole = set(quoted)
    found = (
        text[a:b].removeprefix("./")
        for a, b in path_spans(text, quoted)
        if (a, b) in whole or not _SPACED.search(text, 0, a)
    )
    return list(
        dict.fromkeys(
            p for p in found if not re.fullmatch(r"[\d.]+", p) and not _PLACEHOLDER.search(p)
        )
    )
