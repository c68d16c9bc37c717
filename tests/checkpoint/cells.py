"""Every cell of every table of a database, decoded as far as it goes.

A redaction test that greps the file misses what is compressed or packed. This walks
all tables (``sqlite_master``), and for each value tries every decoding the saver uses
(zlib with and without its preset dictionaries, msgpack with LangGraph's extension
types nested inside, JSON), collecting every string it finds. The full-text index is
read through ``fts5vocab``, since its segments store terms prefix-compressed. The rows
come from ``Backend.rows()`` (a SQLite file here, a Postgres schema in ``backends``).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import ormsgpack

from langgraph_compact.checkpoint import _codec, _payload

_ZDICTS = (b"", _codec._SKELETON_ZDICT, _payload._ZDICT)


def _inflate(raw: bytes) -> Iterator[bytes]:
    """Every way the saver deflates: zlib or raw deflate, with or without a dictionary,
    after a header of up to 11 bytes (a checkpoint row's format, depth and base check)."""
    for start in range(12):
        for wbits in (15, -15):
            for zdict in _ZDICTS:
                try:
                    d = (
                        zlib.decompressobj(wbits, zdict=zdict)
                        if zdict
                        else zlib.decompressobj(wbits)
                    )
                    out = d.decompress(raw[start:]) + d.flush()
                except zlib.error:
                    continue
                if out and d.eof:
                    yield out


def _ext(code: int, data: bytes) -> Any:
    try:
        return ormsgpack.unpackb(data, ext_hook=_ext)
    except Exception:
        return data


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > 12:
        return
    if isinstance(value, str):
        yield value
        yield from _decoded(value.encode("utf-8", "surrogatepass"), depth + 1)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        yield from _decoded(bytes(value), depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k, depth + 1)
            yield from _strings(v, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, depth + 1)


def _decoded(raw: bytes, depth: int = 0) -> Iterator[str]:
    if depth > 12 or not raw:
        return
    yield raw.decode("latin-1")
    candidates = [raw, *_inflate(raw)]
    for blob in candidates:
        if blob is not raw:
            yield blob.decode("latin-1")
        for start in (0, 1):
            try:
                value = ormsgpack.unpackb(blob[start:], ext_hook=_ext)
            except Exception:
                continue
            yield from _strings(value, depth + 1)
        try:
            parsed = json.loads(blob)
        except (ValueError, UnicodeDecodeError):
            continue
        yield from _strings(parsed, depth + 1)


def sqlite_rows(path: Path) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """``(table, row)`` for every row of a SQLite file, and every full-text index term."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            name
            for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type='table'")
            if not str(sql).upper().startswith("CREATE VIRTUAL")  # its shadow tables are read
        ]
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                yield table, tuple(row)
        if "lgc_text_fts_data" in tables:
            conn.execute("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, lgc_text_fts, row)")
            for (term,) in conn.execute("SELECT term FROM temp.terms"):
                yield "lgc_text_fts (terms)", (term,)
    finally:
        conn.close()


def decoded_cells(rows: Iterable[tuple[str, tuple[Any, ...]]]) -> Iterator[tuple[str, str]]:
    """``(table, text)`` for every string found in every cell of ``rows``."""
    for table, row in rows:
        for cell in row:
            if isinstance(cell, bytes):
                for text in _decoded(cell):
                    yield table, text
            elif isinstance(cell, str):
                yield table, cell


def occurrences(rows: Iterable[tuple[str, tuple[Any, ...]]], needle: str) -> list[str]:
    """The tables where ``needle`` (case-insensitive) occurs in some decoded cell."""
    low = needle.lower()
    return sorted({table for table, text in decoded_cells(rows) if low in text.lower()})
