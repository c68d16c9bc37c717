"""Undo one storage choice of the compact saver, to measure what it pays.

Each entry of ``ABLATIONS`` names the module-level names to swap in every
``langgraph_compact.checkpoint`` module that has them (``ablated`` restores them), so
the bench runs the shipped code with exactly one decision reverted. ``page_size`` is
not a name: the bench creates the file with that page size before the saver opens it.
"""

from __future__ import annotations

import re
import sqlite3
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["ABLATIONS", "ablated", "prepare"]

_WORD = re.compile(r"[^\W_]+")


def _every_word(text: str) -> str:
    return " ".join(_WORD.findall(text))


def _pack_text_quarter(text: str) -> str | bytes:
    if len(text) < 256:
        return text
    raw = text.encode("utf-8", "surrogatepass")
    packed = zlib.compress(raw, 9)
    return packed if len(packed) * 4 <= len(raw) * 3 else text


def _text_key(text: str) -> bytes:
    return b"\x00" + text.encode("utf-8", "surrogatepass") if text else b""


ABLATIONS: dict[str, dict[str, Any]] = {
    "as shipped": {},
    "checkpoint rows whole (no deltas)": {"SNAPSHOT_EVERY": 1},
    "every word indexed, blob runs too": {"index_words": _every_word},
    "text compressed only if it saves 1/4": {"pack_text": _pack_text_quarter},
    "ids and versions as text keys": {"key": _text_key, "ckey": _text_key},
    "4 KiB pages": {"page_size": 4096},
    "16 KiB pages": {"page_size": 16384},
}

_PAGE_SIZE: list[int] = []


@contextmanager
def ablated(patches: dict[str, Any]) -> Iterator[None]:
    """Swap the named module-level values in the checkpoint modules, then restore them."""
    saved: list[tuple[Any, str, Any]] = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("langgraph_compact.checkpoint") or module is None:
            continue
        for attr, value in patches.items():
            if attr in vars(module):
                saved.append((module, attr, getattr(module, attr)))
                setattr(module, attr, value)
    _PAGE_SIZE[:] = [patches["page_size"]] if "page_size" in patches else []
    try:
        yield
    finally:
        for module, attr, value in reversed(saved):
            setattr(module, attr, value)
        _PAGE_SIZE.clear()


def prepare(path: Path) -> None:
    """Create the file with the ablated page size (WAL mode fixes it), if one is set."""
    if _PAGE_SIZE:
        conn = sqlite3.connect(path)
        conn.execute(f"PRAGMA page_size = {_PAGE_SIZE[0]}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
