"""Redacting a message in a large database while another process keeps writing to it.

A database of at least ``--mb`` MB (500 by default) is built through the saver: many
threads of agent/tool turns (each output 48 KB of random base64 plus 2 KB of real
corpus text, so the file is large and the full-text index is not empty). One message
in a middle thread holds a secret. Then a *writer* process runs agent turns on a
thread of its own through its own ``CompactSqliteSaver`` (the default 5 s busy
timeout), while the main process

1. redacts the secret message with ``saver.redact`` (what this package does), and
2. runs a whole-file ``VACUUM`` (what it did before, and what the stock tools do).

For each, the report gives the wall time, how many writer turns failed (``database is
locked`` or any other error), the writer's slowest turn during it, and whether the
secret's bytes are gone from the database file and its write-ahead log.

Run ``python bench/redaction_bench.py`` (about 5 minutes and 0.6 GB of /tmp) or
``--mb 50`` for a smaller file; ``--write-readme`` publishes the report.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import corpus_files
from _drive import drive
from _report import captured, publish
from langchain_core.messages import HumanMessage

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.trajectories import load_trajectory

SECRET = "zqx-SECRET-7a1c9e-do-not-keep"
TURNS_PER_THREAD = 40


def _texts() -> list[str]:
    out = []
    for f in corpus_files():
        for m in load_trajectory(f):
            if isinstance(m.content, str) and len(m.content) > 2000:
                out.append(m.content[:2048])
    return out


def build(path: Path, megabytes: int) -> tuple[str, str]:
    """Fill ``path`` to ``megabytes``; the thread and message id holding the secret."""
    rng = random.Random(11)
    blobs = [base64.b64encode(rng.randbytes(36 * 1024)).decode() for _ in range(64)]
    texts = _texts()
    conn = sqlite3.connect(path, check_same_thread=False)
    conn.execute("PRAGMA synchronous = OFF")  # building only; the measured part is not
    saver = CompactSqliteSaver(conn)
    thread = 0
    secret_at: tuple[str, str] | None = None
    while _size(path) < megabytes * 1_050_000:  # the checkpoint below folds the log in
        name = f"thread-{thread:05d}"
        drive(
            saver,
            TURNS_PER_THREAD,
            lambda t, n=thread: (
                blobs[(n + t) % len(blobs)] + "\n" + texts[(n * 7 + t) % len(texts)]
            ),
            thread_id=name,
        )
        if thread == 3:
            config = {"configurable": {"thread_id": name, "checkpoint_ns": ""}}
            tup = saver.get_tuple(config)
            assert tup is not None
            leak = HumanMessage(f"my key is {SECRET}", id="leak")
            saver.put_writes(tup.config, [("messages", [leak])], "leak-task")
            secret_at = (name, "leak")
        thread += 1
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert secret_at is not None
    return secret_at


def writer(db: str, stop: str, out: str) -> None:
    """The concurrent writer: agent turns on its own thread until ``stop`` exists."""
    latencies: list[tuple[float, float]] = []
    errors: list[str] = []
    with CompactSqliteSaver.from_conn_string(db) as saver:
        turn = 0
        while not os.path.exists(stop):
            t0 = time.perf_counter()
            try:
                drive(saver, 1, lambda t, n=turn: f"writer output {n}", thread_id=f"writer-{turn}")
            except Exception as e:  # a failed write is what this bench counts
                errors.append(f"{type(e).__name__}: {e}")
            latencies.append((time.time(), time.perf_counter() - t0))
            if turn == 2:
                Path(stop + ".ready").write_text("writing")
            turn += 1
    Path(out).write_text(json.dumps({"latencies": latencies, "errors": errors}))


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def secret_bytes(path: Path) -> int:
    return sum(
        p.read_bytes().count(SECRET.encode())
        for p in path.parent.glob(path.name + "*")
        if p.is_file()
    )


def measured(path: Path, label: str, action: Any) -> dict[str, Any]:
    """Run ``action`` while a writer process writes; what happened to both."""
    stop, out = path.with_suffix(".stop"), path.with_suffix(".writer.json")
    ready = Path(str(stop) + ".ready")
    stop.unlink(missing_ok=True)
    ready.unlink(missing_ok=True)
    cmd = [sys.executable, __file__, "--writer", str(path), str(stop), str(out)]
    proc = subprocess.Popen(cmd)
    deadline = time.time() + 120
    while not ready.exists() and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # the writer is warm and writing
    start = time.time()
    result = action()
    end = time.time()
    time.sleep(1.0)
    stop.write_text("stop")
    proc.wait(timeout=60)
    data = json.loads(out.read_text())
    # A turn overlaps the action if it ended after the start and began before the end.
    during = [d for t, d in data["latencies"] if t >= start and t - d <= end]
    return {
        "label": label,
        "seconds": end - start,
        "writer_turns": len(data["latencies"]),
        "writer_errors": len(data["errors"]),
        "error_kinds": sorted({e.split(":")[0] for e in data["errors"]}),
        "writer_max_ms": max(during, default=0.0) * 1e3,
        "writer_turns_during": len(during),
        "result": result,
        "secret_bytes": secret_bytes(path),
    }


def report(megabytes: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.sqlite"
        t0 = time.perf_counter()
        thread, message_id = build(path, megabytes)
        size = path.stat().st_size
        print(
            f"database {size / 1e6:.0f} MB ({thread} holds the secret), built in "
            f"{time.perf_counter() - t0:.0f} s; secret occurrences before: {secret_bytes(path)}\n"
        )
        rows = []

        def redact() -> Any:
            with CompactSqliteSaver.from_conn_string(str(path)) as saver:
                r = saver.redact(thread, [message_id], "leaked key", actor="bench")
                return {"complete": r.complete, "remaining_bytes": r.remaining_bytes}

        rows.append(measured(path, "saver.redact (secure_delete, FTS merge)", redact))

        def vacuum() -> Any:
            conn = sqlite3.connect(path, timeout=5.0)
            try:
                conn.execute("VACUUM")
                return {"complete": True}
            except sqlite3.OperationalError as e:
                return {"complete": False, "error": str(e)}
            finally:
                conn.close()

        rows.append(measured(path, "whole-file VACUUM (before)", vacuum))
        head = (
            f"{'action':42} {'seconds':>7} {'writer turns':>12} {'failed':>6} "
            f"{'longest turn ms':>15} {'secret left':>11}"
        )
        print(head)
        print("-" * len(head))
        for r in rows:
            print(
                f"{r['label']:42} {r['seconds']:7.1f} {r['writer_turns_during']:12d} "
                f"{r['writer_errors']:6d} {r['writer_max_ms']:15.0f} {r['secret_bytes']:11d}"
            )
            if r["error_kinds"]:
                print(f"{'':42} writer errors: {', '.join(r['error_kinds'])}")
        first = rows[0]["result"]
        print(
            f"\nwriter turns = the writer's turns that overlapped the action; redaction result: "
            f"complete={first['complete']}, remaining_bytes={first['remaining_bytes']}"
        )
        return {"megabytes": size / 1e6, "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=500)
    parser.add_argument("--write-readme", action="store_true")
    parser.add_argument("--writer", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        writer(*args.writer)
        return
    with captured() as out:
        data = report(args.mb)
    if args.write_readme:
        publish("redaction", out.getvalue(), data)


if __name__ == "__main__":
    main()
