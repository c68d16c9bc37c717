"""What tools print when they fail: the error lines a summary keeps, in any shape.

Shape-based, not tied to one tool: compiler and linter diagnostics, test runners, HTTP
and exit statuses, log lines at error level, a program's own diagnostics, the last line
of a traceback (never its header). Code lines are refused, as in ``patterns``.
"""

from __future__ import annotations

import re

from langgraph_compact.compaction.quote import naming
from langgraph_compact.compaction.text import TRACEBACK_HEADER, content_words, is_code_line

__all__ = ["error_lines", "exit_status", "is_diagnostic", "telling"]

_EXCEPTION_LINE = re.compile(
    r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault)\b(?::.*)?$"
)
"""The message line of an exception (the last line of a Python traceback)."""

_DIAGNOSTICS = [
    _EXCEPTION_LINE,
    re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b: \S"),
    # compiler and linter diagnostics: path:line[:col]: severity/code ...
    re.compile(
        r"^[^\s:]+\.\w{1,6}[:(]\d+(?:[:,]\d+)?\)?:?\s*(?:(?:fatal )?error|warning|"
        r"[A-Z]{1,3}\d{2,5}|undefined|cannot|expected|\w*(?:Error|Exception))\b",
        re.IGNORECASE,
    ),
    re.compile(r"^(?:error|warning)(?:\[[A-Z]?\d+\])?: \S|\berror TS\d+:|^\s*--> \S+:\d+"),
]
"""An exception's message line and a compiler's or linter's diagnostic: a line that is an
error, whatever words it uses ("the operator prohibited in index expressions")."""

_ERROR_PATTERNS = [
    *_DIAGNOSTICS,
    # test runners
    re.compile(
        r"^(?:FAILED|ERROR)\s+\S+(?:::|\s-\s)|^--- FAIL: |^not ok \d+|^\s*[✗✕×]\s|"
        r"\b[1-9]\d* (?:failed|errors?)\b|^E\s{2,}\S|\bTests?: .*\b[1-9]\d* failed\b|"
        r"^(?:FAIL|ERROR): \w",
    ),
    # HTTP statuses
    re.compile(
        r"\bHTTP/\d(?:\.\d)? [45]\d\d\b|\b(?:status(?: code)?|response code)\b\W{0,3}[45]\d\d\b|"
        r"\b[45]\d\d (?:Not Found|Forbidden|Unauthorized|Bad Request|Internal Server Error|"
        r"Service Unavailable|Bad Gateway|Gateway Timeout|Conflict|Too Many Requests|"
        r"Method Not Allowed|Unprocessable)",
        re.IGNORECASE,
    ),
    # exit statuses
    re.compile(
        r"\bexit(?:ed)?(?: with)? (?:code|status)\W{0,3}[1-9]\d*\b|\bnon-zero exit status\b|"
        r"<returncode>[1-9]\d*</returncode>|\breturn(?:ed)? code\W{0,3}[1-9]\d*\b",
        re.IGNORECASE,
    ),
    # log lines at error level, and what shells and tools print when they fail
    re.compile(
        r"^\W{0,3}(?:\S+\s+){0,3}?\[?(?:ERROR|FATAL|CRITICAL|SEVERE|PANIC|ERR)\]?"
        r"(?:[:\s\]]|-(?![\w-]*\.[A-Za-z]))|"  # not a name: "error-10.internal"
        r"\blevel=(?:error|fatal|critical)\b|^(?:fatal|panic|error):\s|npm ERR!|"
        r"command not found|No such file or directory|Permission denied|Segmentation fault|"
        r"core dumped|\bOOMKilled\b|\bout of memory\b|\bconnection refused\b|\btimed out\b",
        re.IGNORECASE,
    ),
    # a program's own diagnostic ("ld: library not found", "cp: cannot stat"): a
    # lower-case program name, its failure within three words of the colon; apt's "E:",
    # make's "***", a bracketed level ("[E 240501 12:00]"), "X failed: why", and what a
    # shell prints for a process a signal ended
    re.compile(
        r"^(?!(?:note|info|debug|hint|tip|description|title|summary|status|result|comment|"
        r"message|reason|details?|warning)\b)[a-z][\w.+-]{0,29}(?:\[\d+\])?: (?:[^\s:]+: )?"
        r"(?:\S+ ){0,3}?(?i:not found|cannot|can't|could not|couldn't|unable to|failed|denied|"
        r"no such|invalid|missing|unrecognized)\b|"
        r"^E: \S|^make(?:\[\d+\])?: \*\*\*|^\[[EF] \d|\b[Ff]ailed: \S|^[Ff]ailed (?:to|with)\b|"
        r"^(?:Killed|Aborted|Terminated|Bus error|Illegal instruction)(?: \(core dumped\))?$"
    ),
]


def is_diagnostic(line: str) -> bool:
    """Whether ``line`` is an exception message or a compiler/linter diagnostic."""
    stripped = line.strip()
    return any(p.search(stripped) for p in _DIAGNOSTICS)


_EXIT_ONLY = re.compile(r"^<returncode>(\d+)</returncode>$|^exit (?:code|status) (\d+)$", re.I)


def exit_status(line: str) -> str | None:
    """``exit status N`` for a line that only reports a non-zero exit status, else None."""
    m = _EXIT_ONLY.match(line.strip())
    return f"exit status {m.group(1) or m.group(2)}" if m else None


_ADVISORY = re.compile(r"^\W*(?:warn(?:ing)?|note|hint|deprecat\w*|retry(?:ing)?|info)\b", re.I)
"""A line that reports on the way to a failure, not the failure: a warning, a retry."""


def telling(errors: list[str]) -> int:
    """Index of the error line that says most: the one naming the most specific value
    (an address, a code, a name), the last of equals, a warning or a retry only when
    nothing else failed. "Segmentation fault" after "worker[3]: fatal: segfault at
    0x6d07ef7b" is the shell's echo of the failure, not it."""

    def says(n: int) -> tuple[bool, float, int]:
        return (not _ADVISORY.match(errors[n]), naming(errors[n]), n)

    return max(range(len(errors)), key=says)


def error_lines(text: str, limit: int = 3) -> list[str]:
    """The informative error lines of ``text`` (stripped), in order, the last ``limit``
    distinct ones.

    Any shape a real tool prints counts (see ``_ERROR_PATTERNS``). A traceback header is
    never an item: its message line, the traceback's last line, is.
    """
    found: dict[str, None] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or len(line) > 400 or TRACEBACK_HEADER.match(line):
            continue
        if is_code_line(raw) and not _EXCEPTION_LINE.match(line):
            continue
        if any(p.search(line) for p in _ERROR_PATTERNS) and content_words(line) >= 1:
            found.pop(line, None)
            found[line] = None
    return list(found)[-limit:]
