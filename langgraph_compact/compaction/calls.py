"""Candidates from tool calls: the files a call reads or modifies, the identifiers it
passes (a whole argument that names one thing outranks a name mined from a script)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import SALIENCE, Candidate, file_item, item
from langgraph_compact.compaction.quote import call_sources
from langgraph_compact.compaction.summary import Section

__all__ = ["arg_items"]

_MODIFY_TOOLS = frozenset(
    """edit write write_file create create_file str_replace str_replace_editor apply_patch
    insert patch replace save_file""".split()
)
_MODIFY_COMMAND = re.compile(
    r"sed -i|>>?\s*[\w./-]|\btee\b|cat <<|\bpatch\b|\bgit apply\b|\bmv\b|\bcp\b|\btouch\b|"
    r"\.write\(|open\([^)]*['\"][wa]['\"]"
)


_ID_ARG = re.compile(r"id$|_id|key|code|number|num$|no$|ref|ticket|order|reservation|account|sha",
                     re.IGNORECASE)  # fmt: skip


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
            yield file_item(section, src.quote(path), mid, seq, SALIENCE[kind], "ai")
        if "\n" in value.strip() or len(value) > 300:
            continue  # a script or a payload: its names are code, not identifiers
        short_value = len(value) <= 60 and " " not in value.strip()
        found = [value.strip()] if short_value and tx.is_name(value) else []
        # Passed on purpose: a whole argument, a plain number only under an id's name
        # (``order_id: 4521``, not ``start_line: 120``).
        named = [v for v in found if not v.isdigit() or _ID_ARG.search(arg)]
        paths = tx.paths(value)
        for ident in dict.fromkeys([*found, *tx.identifiers(value)[:3]]):
            if any(ident in path for path in paths) or (quoted := src.quote(ident)) is None:
                continue  # a file's name is the file's, not an identifier
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
