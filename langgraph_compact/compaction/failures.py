"""What tools print when they fail: the error lines a summary keeps, in any shape.

Shape-based, not tied to one tool: compiler and linter diagnostics, test runners, HTTP
and exit statuses, log lines at error level, a program's own diagnostics, the last line
of a traceback (never its header). Code lines are refused, as in ``patterns``.
"""

from __future__ import annotations

import re

from langgraph_compact.compaction.quote import naming, values
from langgraph_compact.compaction.text import TRACEBACK_HEADER, content_words, is_code_line, is_name

__all__ = ["error_lines", "exit_status", "is_diagnostic", "reported_at", "telling"]

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

_JSON_ERROR = re.compile(
    r'"(?:errors?|error_(?:description|message)|fault)"\s*:\s*(?:"[^"\s]|\[\s*[{"]|\{\s*")|'
    r'"(?:ok|success)"\s*:\s*false\b'
)
_JSON_DETAIL = re.compile(r'"detail"\s*:\s*"[^"\s]')
_JSON_ERROR_STATUS = re.compile(r'"status"\s*:\s*[45]\d\d\b')


def reported_at(line: str) -> int | None:
    """Where a one-line JSON document reporting a failure (an API's answer) has its report,
    or None: a non-empty error object, list or message, ``"ok": false``, a problem's
    detail beside a 4xx/5xx status. What an error item shows of it starts there
    (``… "detail": "BIC X is unknown"``). Code that builds such a body (``return {"ok":
    False, …}``, ``jsonify({"error": …})``) is no document, and no failure."""
    if not line.lstrip().startswith("{"):
        return None
    found = _JSON_ERROR.search(line)
    if found is None and _JSON_ERROR_STATUS.search(line):
        found = _JSON_DETAIL.search(line)
    return found.start() if found is not None else None


_FAILED = re.compile(
    r"^[^\w'\"]{0,3}(?:\(error\)\s|(?:cannot|can't|could not|couldn't|unable to|refusing to)\s)|"
    r"(?<!(?<![\w.:])\d )\b(?:failed|denied|refused|rejected|unreachable|expired|exceeded|"
    r"forbidden)\b"
    r"(?=\s*$|\s*[.,;!()\[]|:(?!\s*\d)|\s+--?\s|\s+(?:for|on|at|to|with|in|by|because|due|after|"
    r"while|when|from)\b)|\b(?:is|are) (?:invalid|not allowed|not permitted)\b|\bno route to\b",
    re.IGNORECASE,
)
"""A failure said in words, whatever the tool: what cannot be done ("Unable to open X",
"Cannot connect to X"), or what failed, was denied, refused, rejected, expired or was
exceeded ("Authentication failed for user X", "Quota exceeded for X"); not a count ("0
failed"), a column's name ("expired: 0") or a word before a noun ("the failed edit")."""


_SUCCEEDED = re.compile(
    r"<returncode>0</returncode>|\b(?:exit(?:ed)?(?: with)? (?:code|status)|return(?:ed)? code)"
    r"\W{0,3}0\b",
    re.IGNORECASE,
)
"""An exit status of 0 the output reports: what it says in words is not its failure."""
_MEASURE = re.compile(r"\d+(?:[.,]\d+)?[A-Za-z%]{0,3}")
"""A duration, a size, a count ("41s", "3.2GB"): not what failed ("BUILD FAILED in 41s")."""
_WORDS_LINES = 3
"""How many last lines of an output may say its failure in words (``_says_failed``)."""
_QUOTED_NAME = re.compile(r"(['\"])[^'\"\s]{2,80}\1")
"""A name between quotes: what a failure names when it is a word (``'etl'``)."""

_LABEL = (
    "(?:note|info|debug|hint|tip|description|title|summary|status|result|comment|message|"
    "reason|details?|warning)"
)
"""What opens a line that describes or advises, not a program's own diagnostic."""
_NOT_FAILED = re.compile(
    r"^(?:description|title|summary|comment|note|hint|tip|info|debug|warning)\b|"
    r"\b(?:succeeded|successfully|passed|recovered)\b|^\S+:\d+[:-]|(?:^|\s)(?:#|//)\s",
    re.IGNORECASE,
)
"""A line that describes or advises (``Description: …``), says what succeeded, quotes a
file's line (``docs/auth.md:40:…``, as grep prints it) or comments (``# … not
permitted``): a failure it mentions is not this run's."""


def _says_failed(line: str) -> bool:
    """Whether ``line`` says a failure in words (``_FAILED``): not inside a string literal
    (a message template in code, ``"Loading {x} failed with:"``), not in a description
    or a line saying what succeeded ("Retry succeeded after the first attempt failed"),
    and naming what failed: a path, a host, an id, a quoted name ("Unable to open
    /var/lib/x.db", "failed for user 'etl'"); a line naming nothing or only a count ("Some
    tests failed", "FAILED (errors=1)") says less than the lines around it, and at a small
    cap it would crowd them out."""
    m = _FAILED.search(line)
    if m is None or line[:1] in "'\"" or line[: m.start()].count('"') % 2:
        return False
    named = any(is_name(v) and not _MEASURE.fullmatch(v) for v in values(line))
    named = named or _QUOTED_NAME.search(line) is not None
    return named and not _NOT_FAILED.search(line)


_LEVEL = "(?:ERROR|FATAL|CRITICAL|SEVERE|PANIC|ERR)"
_TITLED = "(?:Error|Fatal|Critical|Severe|Panic)"
_LOG_FIELD = r"[^\s\d\[\](){}|=:<>]*[\d\[\](){}|=:<>]\S*"
"""A field a logger prints before the level: a time, a pid, a host, ``[worker]``. Split
at its first digit or bracket, so a line of long such tokens is read once, not in every
way it could be cut."""
_LEVEL_FIELD = re.compile(
    rf"^\W{{0,3}}(?:\S+\s+){{0,3}}?(?:(?:{_LEVEL}|{_TITLED})(?=[:\s\]]|-(?![\w-]*\.[A-Za-z]))|"
    rf"\[\s*(?i:{_LEVEL})\s*\]|(?i:{_LEVEL}):)|"
    rf"^\W{{0,3}}(?:{_LOG_FIELD}\s+){{1,3}}(?i:{_LEVEL})(?=[:\s\]])"
)
"""A log line's level: in capitals or title case among its first words (``[E] ERROR db``,
``Database Error in model x``), bracketed (``[error   ]``) or closed by a colon
(``Overall error:``); in lower case only after the fields a logger prints (``12:00:01
error dialing``). "If `None`, the error is stored …" is prose about errors, and so is a
docstring's wrapped ``error messages.``; ``level: error`` is a setting,
"error-10.internal" a host."""


_ERROR_PATTERNS = [
    *_DIAGNOSTICS,
    # test runners
    re.compile(
        r"^(?:FAILED|ERROR)\s+\S+(?:::|\s-\s)|^--- FAIL: |^not ok \d+|^\s*[✗✕×]\s|"
        r"\b[1-9]\d* (?:failed|errors?)\b|^E\s{2,}\S|\bTests?: .*\b[1-9]\d* failed\b|"
        # unittest's "FAIL: test_x"; jest's, vitest's and go's "FAIL" and the file or package
        r"^(?:FAIL|ERROR): \w|^FAIL\s+\S*[./]\S*",
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
    # log lines at error level (``_LEVEL_FIELD``), and what shells and tools print when
    # they fail
    _LEVEL_FIELD,
    re.compile(
        r"\blevel=(?:error|fatal|critical)\b|^(?:fatal|panic|error):\s|npm (?:ERR!|error\b)|"
        r"^an? (?:\w+ )?error occurred\b|"
        r"command not found|No such file or directory|Permission denied|Segmentation fault|"
        r"core dumped|\bOOMKilled\b|\bout of memory\b|\bconnection refused\b|\btimed out\b",
        re.IGNORECASE,
    ),
    # a program's own diagnostic ("ld: library not found", "cp: cannot stat"): a
    # lower-case program name, its failure within three words of the colon; apt's "E:",
    # make's "***", a bracketed level ("[E 240501 12:00]"), "X failed: why", and what a
    # shell prints for a process a signal ended
    re.compile(
        rf"^(?!{_LABEL}\b)[a-z][\w.+-]{{0,29}}(?:\[\d+\])?: (?:[^\s:]+: )?"
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


def _shaped(line: str) -> bool:
    """Whether ``line`` fails in a shape a tool prints (``_ERROR_PATTERNS``, a JSON report),
    not only in words (``_says_failed``)."""
    return reported_at(line) is not None or any(p.search(line) for p in _ERROR_PATTERNS)


def telling(errors: list[str]) -> int:
    """Index of the error line that says most: one of a known shape before one said only
    in words, then the one naming the most specific value (an address, a code, a name),
    the last of equals, a warning or a retry only when nothing else failed. "Segmentation
    fault" after "worker[3]: fatal: segfault at 0x6d07ef7b" is the shell's echo of the
    failure, not it."""

    def says(n: int) -> tuple[bool, bool, float, int]:
        return (not _ADVISORY.match(errors[n]), _shaped(errors[n]), naming(errors[n]), n)

    return max(range(len(errors)), key=says)


_PANIC = re.compile(r"^thread '[^']*' panicked at ")
"""Rust's panic: the message follows on the line after ``… panicked at src/x.rs:5:9:``
(an older Rust prints it in the header, ``panicked at 'msg', src/x.rs:5:9``); with no
message, the next line is Rust's advice (``note: run with `RUST_BACKTRACE=1` …``)."""
_NOTE = re.compile(r"^note: ")


def error_lines(text: str, limit: int = 3) -> list[str]:
    """The informative error lines of ``text`` (stripped), in order, the last ``limit``
    distinct ones.

    Any shape a real tool prints counts (see ``_ERROR_PATTERNS``). A traceback header is
    never an item: its message line, the traceback's last line, is.
    """
    found: dict[str, None] = {}
    raws = text.splitlines()
    # a failure said in words ends what a failing command prints; higher up, in a long
    # output (a page of docs, a log, a grep), such words are about something else
    last = [n for n, raw in enumerate(raws) if raw.strip()][-_WORDS_LINES:]
    if _SUCCEEDED.search(text):  # the command says it succeeded: its words are about else
        last = []
    above = ""  # the line before
    for n, raw in enumerate(raws):
        line, header = raw.strip(), above
        above = line
        if not line or len(line) > 400 or TRACEBACK_HEADER.match(line):
            continue
        report = reported_at(line) is not None
        if is_code_line(raw) and not (_EXCEPTION_LINE.match(line) or report):
            continue
        failure = _shaped(line) or (n in last and _says_failed(line))
        # a panic's header, or its message on the line after it
        panic = _PANIC.match(line) and not line.endswith(":")
        message = _PANIC.match(header) and header.endswith(":") and not _NOTE.match(line)
        failure = failure or bool(panic or message)
        if failure and content_words(line) >= 1:
            found.pop(line, None)
            found[line] = None
    return list(found)[-limit:]
