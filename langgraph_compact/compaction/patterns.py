"""Recognizers for what a summary must keep: facts, flagged lines, cues (errors: ``failures``).

Pure functions over text. They are deliberately shape-based (what a compiler, a test
runner, an HTTP client, a logger or a person writes), not tied to one tool or phrasing,
and they refuse code: a line of a file dump is code, not a fact or an instruction.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from langgraph_compact.compaction.text import AFTER_SENTENCE_STOP, is_code_line, norm, specificity

__all__ = [
    "ADDRESSED",
    "CONSTRAINT",
    "CORRECTION",
    "DECIDED",
    "DECISION",
    "GOAL_CHANGE",
    "NEXT",
    "PREFERENCE",
    "REASON",
    "REQUEST",
    "SAFETY",
    "Fact",
    "facts",
    "goal_change",
    "shown_from",
]

# --- facts ----------------------------------------------------------------------------

_JOINED = re.compile(r"(?:and|but|while|whereas) ", re.IGNORECASE)  # what joins two facts
_KEY = r"(?:the |my |our |your |its )?[A-Za-z][\w\-]*(?: [\w\-]+){0,3}?"
_NEXT_FACT = rf" {_JOINED.pattern}{_KEY} (?:is|are|was|were) "
"""Where a second "X is Y" begins ("… is 09:00 UTC and the runner is build-7:2222"): the
first value ends there, so each value is stated under its own key."""
_PROSE_FACT = re.compile(
    rf"(?:^|[\s:;(])(?P<key>{_KEY})\s+(?:is|are|was|were|=|equals|is set to|was set to|"
    r"has been set to|changed to|should be|must be|will be|becomes)\s+"
    r"(?:now |actually |still |currently )?(?P<value>(?:[^,;\n]|(?<=\d),(?=\d)){1,80}?)"
    rf"(?=,(?!\d)|[;\n]|\.{AFTER_SENTENCE_STOP}\s|\.$|$| \(|{_NEXT_FACT})",
    re.IGNORECASE,
)
_KV_LINE = re.compile(
    r"^\s*[-*•]?\s*[\"']?(?P<key>[A-Za-z_][\w .\-/]{0,40}?)[\"']?\s*(?::(?=\s)|=|=>|->)\s*"
    r"(?P<value>[^\s{\[(].{0,100}?)\s*,?$"
)
_LABELS = frozenset(
    """correction update note notes fyi reminder important warning warn info debug error
    attention caution notice hint constraint rule tip actually ps""".split()
)
_KEY_STOP = frozenset(
    """it this that there here what which who i you he she we they one everything something
    nothing answer result output problem issue code test thing way reason point fix
    error file line function method class list case step part idea plan tool human ai
    system assistant user""".split()
)


_CODE_VALUE = re.compile(r"\w\(|[{};]|=>|\blambda\b|^\s*(?:r|f|b)?['\"].*['\"]\s*[,)]\s*$")


_STALE_TAIL = re.compile(r"\s*,?\s*\(?\b(?:instead of|rather than|not|no longer)\b.*$", re.I)


_VALUE_MAX_WORDS = 12
_VALUE_MAX_CHARS = 80
_CODE_MARKS = 3
"""A stated value is a name, a number or a short phrase; longer is prose, not a fact."""


def _value(raw: str) -> str | None:
    """The value as an item shows it, or None when it is code or says nothing specific.

    A correction's own stale clause ("Y instead of X") is not part of the value.
    """
    value = _STALE_TAIL.sub("", raw.strip()).strip().rstrip(".")
    if _CODE_VALUE.search(value) or specificity(value) < 0.3:
        return None
    if value.startswith("//") or len(value.split()) > _VALUE_MAX_WORDS:
        return None  # the rest of a URL, or a sentence of prose ("WARNING: Running pip as…")
    if len(value) > _VALUE_MAX_CHARS and not value.startswith(("http://", "https://")):
        return None  # a log line's remainder ("numpy>=1.21 in /opt/…/site-packages (from …)")
    if sum(value.count(c) for c in "()[]{}*+=<>^|") >= _CODE_MARKS:
        return None  # an expression: "((n1*cos(t1) - n2) /"
    return value


def _key(raw: str, *, field: bool = False) -> str | None:
    """The name a fact states, or None for a path, a pronoun, a generic word; a ``field``
    (a tool's ``key: value`` line) may be two letters (``id:``), not prose (``NB:``)."""
    if "/" in raw or re.search(r"\.\w{1,4}$", raw.strip()):
        return None  # a path or a file name, not the name of a setting
    key = re.sub(
        r"^(?:(?:actually|so|also|now|btw|and|but|while|whereas|ok|okay|well) )*", "", norm(raw)
    )
    key = re.sub(r"^(?:the|my|our|your|its) ", "", key)
    short = field and re.fullmatch(r"[a-z]{2}", key) is not None and key not in _SHORT_WORDS
    if (len(key) < 3 and not short) or key in _KEY_STOP or key.split()[0] in _KEY_STOP:
        return None  # too short to name a setting, or a pronoun / generic word
    return key if len(key.split()) <= 5 else None


_SHORT_WORDS = frozenset(  # two-letter words of prose and mail: never the name of a field
    "am an as at be by do go he hi if in is it me my no of oh ok on or so to up us we ps re "
    "nb cc fw ex ie eg vs".split()
)
_PIPE_ROW = re.compile(r"^\s*(?P<key>[A-Za-z_][\w .\-]{0,40}?)\s+\|\s+(?P<value>[^|]{1,100}?)\s*$")
"""A two-column table row (``psql``, ``SHOW``): ``max_connections | 250``."""
_VERSION = re.compile(
    r"^(?P<key>[A-Za-z][\w+-]*(?: [A-Za-z][\w+-]*){0,2})[ /]"
    r"(?P<value>(?:v\d+\.\d+(?:\.\d+)*|\d+\.\d+\.\d+(?:\.\d+)*)(?:[-+][\w.]*\w)?)(?:\s|$|,)"
)
"""What a ``--version`` prints: ``Python 3.11.7``, ``git version 2.39.2``."""


class Fact(NamedTuple):
    """A stated fact: its normalized ``key``, its ``value`` as written, and the words that
    state it, ``text[start:end]`` (verbatim: what an item shows)."""

    key: str
    value: str
    start: int
    end: int


def _value_end(text: str, group_start: int, raw: str, value: str) -> int:
    """Where ``value`` (``_value`` of ``raw``, which starts at ``group_start``) ends."""
    return group_start + raw.find(value) + len(value)


def facts(text: str, *, fields: bool = False) -> list[Fact]:
    """The facts stated in one sentence or line ("X is Y", "key: value", ``k | v``);
    ``fields``: a line a tool printed, whose key may be two letters (``id: …``).

    >>> [f[:2] for f in facts("Correction: the release deadline is now March 9, not March 3.")]
    [('release deadline', 'March 9')]
    >>> f = facts("The staging window is 09:00 UTC.")[0]
    >>> f.key, f.value, "The staging window is 09:00 UTC."[f.start : f.end]
    ('staging window', '09:00 UTC', 'The staging window is 09:00 UTC')
    """
    return _facts(text, 0, fields)


def _facts(text: str, base: int, fields: bool = False) -> list[Fact]:
    out: list[Fact] = []
    if text.rstrip().endswith("?"):
        return out  # a question states nothing
    kv = _KV_LINE.match(text) if len(text) <= 160 else None
    if kv is not None and not is_code_line(text):
        words = norm(kv["key"]).split()
        if len(words) >= 2 and len(kv["value"].split()) >= 5 and _COPULA.match(kv["value"]):
            # "Heads up: X is the WAL disk": the value is a sentence, the key a label
            return _facts(kv["value"], base + kv.start("value"), fields)
        if words and words[0] in _LABELS:  # "NOTE: x is y", "INFO loaded: k=v"
            inner = _facts(kv["value"], base + kv.start("value"), fields)
            if inner:
                return inner
            label = kv["key"].split()[0]
            rest_at = kv.start("key") + kv["key"].find(label) + len(label)
            rest = text[rest_at:].lstrip()
            at = len(text) - len(rest)
            return _facts(rest, base + at, fields) if norm(rest.split(":")[0]) else []
        key, value = _key(kv["key"], field=fields), _value(kv["value"])
        if key and value:
            start = kv.start("key") - (kv.start("key") > 0 and text[kv.start("key") - 1] in "\"'")
            end = _value_end(text, kv.start("value"), kv["value"], value)
            nested = _KV_LINE.match(value)
            if nested and _key(nested["key"]) and _value(nested["value"]):
                inner_key, inner_value = _key(nested["key"]) or key, _value(nested["value"])
                offset = kv.start("value") + kv["value"].find(value)
                key, value = inner_key, inner_value or value
                start = offset + nested.start("key")
                end = _value_end(text, offset + nested.start("value"), nested["value"], value)
            out.append(Fact(key, value, base + start, base + end))
    if not out and kv is None:
        lead = len(text) - len(text.lstrip())
        shape = _PIPE_ROW.match(text) or _VERSION.match(text.strip())
        shift = 0 if shape is None or shape.re is _PIPE_ROW else lead
        key, value = (_key(shape["key"]), _value(shape["value"])) if shape else (None, None)
        if shape and key and value and re.search(r"\d", value):  # not a header: "Expected | Actual"
            end = shift + _value_end(text, shape.start("value"), shape["value"], value)
            out.append(Fact(key, value, base + shift + shape.start("key"), base + end))
    if not out:
        for m in _PROSE_FACT.finditer(text):
            key, value = _key(m["key"]), _value(m["value"])
            if key and value:
                end = _value_end(text, m.start("value"), m["value"], value)
                joined = _JOINED.match(m["key"])  # "… and the runner is X" starts at "the"
                start = m.start("key") + (joined.end() if joined else 0)
                out.append(Fact(key, value, base + start, base + end))
    return [_to_word_end(text, base, f) for f in out]


_WORD_REST = re.compile(r"[\w+./:@#%-]*")
"""What may continue a value's last word: not a comma or a semicolon ("8443,so")."""


def _to_word_end(text: str, base: int, fact: Fact) -> Fact:
    """``fact`` up to the end of the word its value ends in: a value is never shown cut
    inside a word ("1.7.5-beta2" is not "1.7.5"), only its sentence's punctuation is left
    out."""
    rest = _WORD_REST.match(text, fact.end - base)
    tail = rest.group().rstrip(".:/-") if rest else ""
    return fact._replace(value=fact.value + tail, end=fact.end + len(tail)) if tail else fact


_COPULA = re.compile(r"\s*(?:\S+\s+){1,4}(?:is|are|was|were)\s")
"""A value opening as a sentence does: a subject of a few words, then "is"."""

_CLAUSE_BREAK = re.compile(rf"(?:[;:,(|]|\.{AFTER_SENTENCE_STOP}|\s[—–-])\s+|^\s*")
_LEAD_WORDS = 8
"""Words a fact's clause may hold before its key and still be shown whole."""


def shown_from(text: str, fact: Fact) -> tuple[int, bool]:
    """Where the words showing ``fact`` start in ``text``, and whether that is inside a
    clause (the caller shows ``…`` there).

    The key is the last few words before "is"; the clause's subject may start earlier
    ("A typical value for the effective index of an AR coating is 1.29"). Up to
    ``_LEAD_WORDS`` words, the clause is shown from its start, so the subject is whole;
    a longer lead is cut, visibly.

    >>> t = "A typical value for the effective index of an AR coating is 1.29."
    >>> f = facts(t)[0]
    >>> t[f.start : f.end], t[shown_from(t, f)[0] : f.end]
    ('of an AR coating is 1.29', 'A typical value for the effective index of an AR coating is 1.29')
    """
    lead = text[: fact.start]
    clause = max((m.end() for m in _CLAUSE_BREAK.finditer(lead)), default=0)
    words = lead[clause:].split()
    if not words:
        return fact.start, False
    if len(words) <= _LEAD_WORDS:
        return clause, False
    return fact.start, True


# --- cues -----------------------------------------------------------------------------

CONSTRAINT = re.compile(
    r"\b(?:never|must|mustn't|don't|do not|does not need|always|should not|shouldn't|shall|"
    r"make sure|ensure|avoid|forbidden|not allowed|not permitted|prohibited|"
    r"requirements?(?: is| are|(?=:))|(?:is|are|be) required|required (?:to|for|by|when)|"
    r"no more than|at most|at least|no later than|no earlier than|under no circumstances|"
    r"without (?:asking|approval|confirmation|permission)|"
    r"keep .{1,40}\b(?:under|below|within|unchanged|intact|stable|compatible|backwards?)|"
    r"(?:needs?|has|have) to (?:be|stay|remain|keep|work|pass|support|run|use|fit|go)|"
    r"(?:limited|restricted|confined) to|backwards?[- ]compatib\w*|"
    r"(?:stays?|remains?|be|keeps?|maintain|preserve|retain) (?:\w+ ){0,2}compatible|"
    r"(?:we|you) (?:can't|cannot|can not|may not)(?! (?:reproduce|find|see|get|figure|tell|"
    r"understand|access|connect|log in|open|load|remember|wait)\b)|"
    r"(?:we|you) (?:are not|aren't) allowed to|"
    r"it(?:'s| is) (?:important|essential|critical|crucial|mandatory|vital) (?:that|to))\b|"
    r"(?<![.\w])only(?![(\w])|"
    r"^\W*(?:please\W+)?(?:preserve|maintain|retain|limit|restrict|respect|stick)\b|"
    r"^\W*(?:nothing|none of|no (?!worries|problem|thanks|idea|way|matter|doubt|need)\w+)\b"
    r"[^.]{0,60}\b(?:should|may|must|shall|ever)\b",
    re.IGNORECASE,
)
"""An instruction that restricts how the work is done (``classify``: after the safety and
preference cues). "only" counts as a word, not as ``QuerySet.only()``."""
PREFERENCE = re.compile(
    r"\b(?:i prefer|we prefer|prefer(?:ably|red)?|my preference|i'd rather|i would rather|"
    r"i (?:like|love) (?!to\b)|i(?:'d| would) like you to|i want (?:you to )?(?:use|keep|write)|"
    r"please (?:use|keep|write|stick|name|format|indent|follow)|"
    r"^\W*(?:use|write|format|name|indent)\b[^.?!]{1,60}\bplease\b|"
    r"(?:can|could|would) you (?:please )?(?:keep|use|write|stick to|format|name)(?! (?:me|us)\b)|"
    r"(?:my|our) (?:favou?rite|style|convention|preferred)|stick to)\b",
    re.IGNORECASE,
)
SAFETY = re.compile(
    r"\b(?:never|do not|don't|must not|mustn't|should not|shouldn't|avoid|forbidden|"
    r"not allowed|not permitted|prohibited|under no circumstances|"
    r"without (?:asking|approval|confirmation|permission|(?:my|our|an?) (?:ok|okay|approval|"
    r"consent|sign-off|permission|go-ahead|review))|"
    r"(?:ask|check with|confirm with|consult|tell) me (?:first|before)|destructive|irreversible|"
    r"dangerous)\b|^\W*no (?:force[- ]?push|push|deploy|delet|drop|rm\b|restart|reboot)\w*"
    r"(?![^.]*\b(?:happened|was|were|did|went|occurred|yesterday|last)\b)",
    re.IGNORECASE,
)
"""A rule that guards against harm (deleting, pushing, touching production) or asks for a
human's approval first."""
REQUEST = re.compile(
    r"^\W*(?:(?:hi|hello|hey|yes|no|ok|okay|also|and|but|so|well|sure|great|thanks|sorry)\W+)*"
    r"(?:i(?:'d| would)? (?:like to|love to|want to|need to|wish|hope|was|am)\b|i (?:have|had) "
    r"(?!to\b)|i (?:don't|do not|didn't|did not|can't|cannot|won't) (?!want\b|like\b)|i'm\b)",
    re.IGNORECASE,
)
"""A clause where the user speaks of their own wants and state ("I'd like to change my
flight", "I don't have the id"): a request or a fact, not a rule, unless it addresses the
agent (``ADDRESSED``). "I don't want", "I have to" and "I need you to" are rules."""
ADDRESSED = re.compile(r"\byou to\b|\b(?:never|always)\b", re.IGNORECASE)
GOAL_CHANGE = re.compile(
    r"\b(?:new task|change of plans?|plans? changed?|change the plan|instead,? (?:please|let's|"
    r"i want|we)|forget (?:that|the previous|about)|now (?:i want|please|i need)|"
    r"switch to|pivot|drop (?:that|the) .{0,30} and|the (?:goal|priority|focus) is now|"
    r"new (?:goal|priority|focus)|stop (?:working on|doing)\b[^.]{0,80}(?:\band\b|;|\binstead))\b",
    re.IGNORECASE,
)


def goal_change(sentence: str) -> bool:
    """The sentence opens by changing the task ("New task: …", "Change of plan: …").

    Only at the start of a sentence: a policy that mentions "a change of plan" as a
    reason for cancelling a booking is not one.
    """
    found = GOAL_CHANGE.search(sentence)
    return found is not None and found.start() <= 20


CORRECTION = re.compile(
    r"\b(?:correction|actually|instead of|rather than|no longer|not anymore|scratch that|"
    r"i meant|my mistake|sorry,|wrong|typo|update:|changed (?:from|to)|moved (?:from|to)|"
    r"previously|used to be|formerly|abandon\w*|dropped|deprecated|obsolete|scrapped|"
    r"superseded|replac\w+|outdated|retired)\b|, not\b|\(not |\s(?:→|->)\s",
    re.IGNORECASE,
)
DECISION = re.compile(
    r"\b(?:decid\w*|decision|i'll|i will|we'll|we will|let's|going to|choos\w*|chos\w*|"
    r"choice|approach|opt(?:ed|ing)? for|settl\w*|go(?:ing)? with|went with|"
    r"use .{1,40} instead|using .{1,40} (?:rather than|instead of|over))\b",
    re.IGNORECASE,
)
DECIDED = re.compile(
    r"\b(?:decided|(?:decision|settled|verdict)(?=:)|chose|chosen|(?:final|my|our) choice|"
    r"picked|opt(?:ed|ing) for|settled on|went with|going with|adopt(?:ed)?|switched to|"
    r"ruled out)\b",
    re.IGNORECASE,
)
"""A decision stated as made, or labelled as one ("Decision: …", "Settled: …"): an item
with or without a reason ("Picked X; Y is too slow"). A plan in any inflection ("I'll use
X", "Choosing X as the target") is one only with its reason (``REASON``); a question
decides nothing."""
REASON = re.compile(
    r"\b(?:because|since|so that|to avoid|due to|in order to|as it|given that|otherwise)\b",
    re.IGNORECASE,
)
NEXT = re.compile(
    r"\b(?:next|then|i need to|i'll|i will|todo|remaining|still need|afterwards|after that|"
    r"going to)\b",
    re.IGNORECASE,
)
