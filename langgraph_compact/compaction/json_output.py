"""Facts of a JSON tool output: its scalar leaves by key path, quoted as written.

An API's answer, ``kubectl get -o json``, ``jq -c`` or a structured log (one document per
line) states its values under keys; each leaf is a fact keyed by its path, shown as the
``"key": value`` words the output wrote.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langgraph_compact.compaction.quote import Quote, Source

__all__ = ["json_facts", "json_quote"]


def json_quote(src: Source, lo: int, hi: int, path: str, value: str) -> Quote | None:
    """The words of a JSON output that state ``path`` (its last key) and ``value``:
    ``"id": "u_81"``, quoted; None when they cannot be found as written."""
    key = re.escape(json.dumps(path.rsplit(".", 1)[-1].split("[", 1)[0], ensure_ascii=False))
    for shown in (re.escape(json.dumps(value, ensure_ascii=False)), re.escape(value) + r"\b"):
        found = re.compile(rf"{key}\s*:\s*{shown}").search(src.text, lo, hi)
        if found:
            return src.slice(found.start(), found.end())
    return None


def json_facts(text: str, limit: int = 200) -> list[tuple[str, str]] | None:
    """``(key path, value)`` for the scalar leaves of a JSON tool output (one document, or
    one per line: ``jq -c``, a structured log), or None.

    >>> json_facts('{"user": {"id": "u_81", "tier": "gold"}, "n": 3}')
    [('user.id', 'u_81'), ('user.tier', 'gold'), ('n', '3')]
    """
    stripped = text.strip()
    if stripped[:1] not in ("{", "["):
        return None
    try:
        return _leaves(stripped, limit)
    except RecursionError:  # nested deeper than Python recurses: read as text
        return None


def _leaves(stripped: str, limit: int) -> list[tuple[str, str]] | None:
    try:
        data = json.loads(stripped)
    except ValueError:
        try:  # one document per line
            data = [json.loads(line) for line in stripped.splitlines() if line.strip()]
        except ValueError:
            return None
    out: list[tuple[str, str]] = []

    def walk(value: Any, path: str) -> None:
        if len(out) >= limit:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}.{k}" if path else str(k))
        elif isinstance(value, list):
            for i, v in enumerate(value[:20]):
                walk(v, f"{path}[{i}]")
        elif value is not None and path:
            out.append((path, str(value)))

    walk(data, "")
    return out
