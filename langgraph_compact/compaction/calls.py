"""Candidates from tool calls: the files a call reads or modifies, the identifiers it
passes (a whole argument that names one thing outranks a name mined from a script), and
the arguments of a call written out as JSON in a text (a transcript, a pasted payload)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import SALIENCE, Candidate, file_item, item
from langgraph_compact.compaction.quote import Source, call_sources, values
from langgraph_compact.compaction.shapes import compatible
from langgraph_compact.compaction.summary import Section

__all__ = ["arg_items", "quotes_json_in_prose", "written_call_items"]

_MODIFY_TOOLS = frozenset(
    """edit write write_file create create_file str_replace str_replace_editor apply_patch
    insert patch replace save_file""".split()
)
_MODIFY_COMMAND = re.compile(
    r"sed -i|>>?\s*[\w./-]|\btee\b|cat <<|\bpatch\b|\bgit apply\b|\bmv\b|\bcp\b|\btouch\b|"
    r"\.write\(|open\([^)]*['\"][wa]['\"]"
)


ID_ARG = re.compile(r"id$|_id|key|code|number|num$|no$|ref|ticket|order|reservation|account|sha",
                     re.IGNORECASE)  # fmt: skip


def _spaced_value(value: str) -> bool:
    """A whole argument that is one value written in groups (``DE 13 556 81070``, ``+44
    7700 900531``): a few value words, two or more with digits, none in lower case, only
    the first of letters alone (a prefix), and not all of one shape. Words of one shape
    are a list (``101 102 103``, ``1920 1080``, ``LH400 LH401``); lower case or a word
    between numbers is a phrase, a move list or a statement (``e4 e5 Nf3``, ``LIMIT 100
    OFFSET 200``)."""
    words = value.split()
    return (
        1 < len(words) <= 6
        and len(value) <= 60
        and sum(any(c.isdigit() for c in w) for w in words) >= 2
        and not any(c.islower() for c in value)
        and not any(w.isalpha() for w in words[1:])
        and not all(compatible(words[0], w) for w in words[1:])
        and all(values(w) == [w] for w in words)
    )


_ID_DIGITS = 4
_REGISTRATION = re.compile(r"[A-Z0-9]{1,2}-[A-Z0-9]{3,5}")
"""A code of a short prefix and a longer mark (``D-SUCQ``, ``HB-JNA``): a registration."""


def _prefixed_number(value: str) -> bool:
    """A number written after the capitals that say what it numbers (``IMO 7472628``, ``PO
    4521``): passed under an id's name, the whole argument is the id. A short number is a
    page, a line or a rank (``PAGE 3``, ``DESC 10``)."""
    words = value.split()
    return (
        2 <= len(words) <= 3
        and words[0].isalpha()
        and words[0].isupper()
        and all(w.isdigit() for w in words[1:])
        and len("".join(words[1:])) >= _ID_DIGITS
    )


def arg_items(call: Mapping[str, Any], mid: str, seq: int) -> Iterator[Candidate | None]:
    """Files a call reads or modifies, and the identifiers it passes."""
    name = str(call["name"])
    for src in call_sources(call):
        if src.part == "args":
            continue
        arg = src.part.removeprefix("args.")
        value = src.text
        if not isinstance(call["args"].get(arg), (str, int, float)):
            continue
        modified = name in _MODIFY_TOOLS or bool(_MODIFY_COMMAND.search(value))
        section = Section.FILES_MODIFIED if modified else Section.FILES_READ
        kind = "args.file_modified" if modified else "args.file_read"
        for path in tx.paths(value)[:4]:
            # a whole argument naming a file was passed on purpose, like a whole-argument
            # id; a path inside a command line is one of its words, and a file only with
            # an extension (``/bin/bash``, ``/dev/null`` are what runs or where output goes)
            whole = path == value.strip()
            if not whole and not tx.has_extension(path):
                continue
            weight = SALIENCE["args.path" if whole else kind]
            yield file_item(section, src.quote(path), mid, seq, weight, "ai")
        if "\n" in value.strip() or len(value) > 300:
            continue  # a script or a payload: its names are code, not identifiers
        whole_value = value.strip()
        short_value = len(value) <= 60 and " " not in whole_value
        # a code in capitals passed whole is an id, letters only or not (``CQCBGL``, a
        # registration ``D-SUCQ``), when it reads as no word (``DELETE``, ``DEBUG`` are a
        # method and a level; ``CTRL-C``, ``MM-DD`` a key and a format)
        bare = whole_value.replace("-", "") if _REGISTRATION.fullmatch(whole_value) else whole_value
        code = whole_value.isupper() and bare.isalnum() and len(whole_value) >= 5
        code = code and sum(c in "AEIOUY" for c in bare) < 0.25 * len(bare)
        one = (short_value and (tx.is_name(value) or code)) or _spaced_value(whole_value)
        one = one or (bool(ID_ARG.search(arg)) and _prefixed_number(whole_value))
        found = [whole_value] if one else []
        # Passed on purpose: a whole argument, a plain number only under an id's name
        # (``order_id: 4521``, not ``start_line: 120``).
        named = [v for v in found if not v.isdigit() or ID_ARG.search(arg)]
        paths = tx.paths(value)
        for ident in dict.fromkeys([*found, *tx.identifiers(value)[:3]]):
            # a file's name is the file's, and a piece of the whole argument is not a
            # value of its own (``cache-97`` of ``cache-97.internal:22828``)
            inside = [*paths, *(f for f in found if f != ident)]
            if any(ident in whole for whole in inside) or (quoted := src.quote(ident)) is None:
                continue
            yield item(
                Section.CRITICAL,
                f"{name} {arg}: " + quoted,  # "lookup order_id: A-55812"
                mid,
                seq,
                key=f"id:{ident}",
                kind="identifier",
                salience=SALIENCE["args.value" if ident in named else "args.identifier"],
                origin="ai",
            )


_PAIR = re.compile(
    r'"(?P<key>[\w.-]{1,40})"\s*:\s*(?:(?P<text>"(?:[^"\\\n]|\\.){1,120}")|(?P<num>-?\d[\d.]*))'
)
_PAIRS_PER_LINE = 3


def written_call_items(
    src: Source, a: int, b: int, seq: int, role: str
) -> Iterator[Candidate | None]:
    """The ``"key": value`` pairs of a JSON object written in a line of text (a tool call
    a transcript shows, a payload quoted in a message) whose value names one thing (one
    token, no bare number): each is a value passed on purpose, like a whole tool argument.
    The rest of the line is code, and not mined."""
    found = 0
    for m in _PAIR.finditer(src.text, a, b):
        value = _decoded(m["text"]) if m["text"] is not None else m["num"]
        one = len(value) <= 60 and not any(c.isspace() for c in value)  # not a command line
        plain = re.fullmatch(r"v?[\d.]+", value) is not None  # a number or a plain version
        if found >= _PAIRS_PER_LINE or not one or plain or not tx.is_name(value):
            continue
        found += 1
        yield item(
            Section.CRITICAL,
            src.slice(m.start(), m.end()),
            src.id,
            seq,
            key=f"id:{value}",
            kind="identifier",
            salience=SALIENCE["args.value" if role == "ai" else f"{role}.identifier"],
            origin=role,
        )


_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


def quotes_json_in_prose(line: str) -> bool:
    """A sentence, mostly words, quoting a flat JSON object: code only because of it
    (``tx.is_code_line``), its words still prose. A caption over a list of payloads is not.

    >>> quotes_json_in_prose('Set {"retries": 5} in the client config.')
    True
    >>> quotes_json_in_prose('    payload = {"retries": 5}')
    False
    """
    rest = _JSON_OBJECT.sub("{}", line)
    words = len(re.findall(r"[^\W\d_]{2,}", rest))
    plain = not tx.is_code_line(rest.replace("{}", " "))
    return rest != line and 2 * len(rest) >= len(line) and plain and words >= 4


def _decoded(quoted: str) -> str:
    """A JSON string's value; as written when its escapes are not JSON's (a Windows path
    pasted with single backslashes)."""
    try:
        value = json.loads(quoted)
    except ValueError:
        return quoted[1:-1]
    return value if isinstance(value, str) else quoted[1:-1]
