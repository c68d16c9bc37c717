"""Storage, latency and memory of checkpointers on long tool-using threads.

Four parts, each beside LangGraph's stock ``SqliteSaver`` where it can run:

1. **A real graph** (``_graph_run``: ``agent`` -> ``tools`` via ``ToolNode``): N turns on
   one thread, each an AIMessage with one tool call and a ToolMessage carrying a 2 KB
   slice of a real tool output from ``tests/data/corpus``. Database size over raw bytes
   (the UTF-8 JSON of every message's content and tool calls, i.e. what a model sees)
   and per-turn latency at turn 10 and at the end (medians of turns 6-15 and of the
   last 10). Savers: stock ``SqliteSaver``, the same with the messages channel as
   LangGraph's beta ``DeltaChannel``, ``CompactSqliteSaver``.
2. **Incompressible outputs**: the same graph with 2 KB of random base64 per output
   (zlib saves only ~23% on it; the FTS index would hold one random word per 30
   characters). Sizes after a WAL checkpoint, index included.
3. **5,000 turns driven through the saver** (``_drive``: the calls LangGraph's loop
   makes, without the graph, so the saver's own cost is measured): ``put`` and
   ``put_writes`` ms at turn 10 and over the last 10 turns, and the peak RSS of the
   process at 1,000 and 5,000 turns (each in a fresh subprocess); the stock saver
   runs 300 turns (it re-serializes the whole history on every put). Then a cold load
   of the newest checkpoint by a fresh saver, and the share of it spent on row checks.
4. **What each storage choice pays** at 300 turns: the size with one choice undone.

Run ``python bench/storage_bench.py`` (about 3 minutes on 2 cores) or ``--quick``;
``--write-readme`` publishes the report (``bench/_report.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _ablate import ABLATIONS, ablated
from _drive import drive
from _graph_run import (
    OUTPUTS,
    THREAD,
    WINDOW,
    DeltaChannel,
    compact_saver,
    corpus_outputs,
    print_graph_runs,
    random_outputs,
    run_graph,
    stock_saver,
)
from _report import captured, publish

from langgraph_compact.checkpoint import CompactSqliteSaver

# --- driven through the saver, in a subprocess for its peak RSS ------------------------


def current_rss() -> int:
    """This process's resident set size now (Linux), in bytes; 0 where unknown."""
    try:
        fields = Path("/proc/self/status").read_text().split("VmRSS:")[1].split()
    except (OSError, IndexError):
        return 0
    return int(fields[0]) * 1024


def drive_child(kind: str, turns: int) -> dict[str, Any]:
    """Run in a fresh process: drive ``turns`` turns, then a cold load of the newest."""
    outputs = random_outputs(50, seed=3)
    before = current_rss()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "driven.sqlite"
        opener = compact_saver if kind == "compact" else stock_saver
        with opener(path) as saver:
            times = drive(
                saver, turns, lambda t: f"{t}:" + outputs[t % len(outputs)], thread_id=THREAD
            )
            after = current_rss()
        early = slice(10 - WINDOW // 2, 10 + WINDOW // 2)
        out: dict[str, Any] = {
            "kind": kind,
            "turns": turns,
            "put_10": statistics.median(times.put[early]),
            "put_last": statistics.median(times.put[-WINDOW:]),
            "put_cpu_10": statistics.median(times.put_cpu[early]),
            "put_cpu_last": statistics.median(times.put_cpu[-WINDOW:]),
            "writes_10": statistics.median(times.put_writes[early]),
            "writes_last": statistics.median(times.put_writes[-WINDOW:]),
            "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "rss_grown": after - before,
            "messages": len(times.messages),
        }
        if kind == "compact":
            out.update(cold_load(path, times.config))
        return out


def cold_load(path: Path, config: dict[str, Any]) -> dict[str, float]:
    """A fresh saver loads the newest checkpoint; time in total and in row checks."""
    from langgraph_compact.checkpoint import _check

    spent = [0.0]
    original = _check.check

    def timed(tag: bytes, *fields: Any) -> bytes:
        t0 = time.perf_counter()
        try:
            return original(tag, *fields)
        finally:
            spent[0] += time.perf_counter() - t0

    with CompactSqliteSaver.from_conn_string(os.fspath(path)) as saver:
        saver.setup()
        with ablated({"check": timed}):
            t0 = time.perf_counter()
            tup = saver.get_tuple({"configurable": {"thread_id": THREAD}})
            total = time.perf_counter() - t0
    if tup is None:
        raise RuntimeError("the driven thread did not load")
    return {"load_s": total, "check_s": spent[0]}


def run_child(kind: str, turns: int) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", kind, str(turns)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def print_driven(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'saver':20} {'turns':>5} {'put ms@10':>9} {'@last':>6} {'last/10':>7} "
        f"{'cpu ms@10':>9} {'@last':>6} {'last/10':>7} {'writes@10':>9} {'@last':>6} "
        f"{'last/10':>7} {'peak RSS':>8} {'RSS +MB':>7}"
    )
    for r in rows:
        name = "CompactSqliteSaver" if r["kind"] == "compact" else "SqliteSaver (stock)"
        print(
            f"{name:20} {r['turns']:5d} {r['put_10'] * 1e3:9.2f} {r['put_last'] * 1e3:6.2f} "
            f"{r['put_last'] / r['put_10']:7.2f} {r['put_cpu_10'] * 1e3:9.2f} "
            f"{r['put_cpu_last'] * 1e3:6.2f} {r['put_cpu_last'] / r['put_cpu_10']:7.2f} "
            f"{r['writes_10'] * 1e3:9.2f} {r['writes_last'] * 1e3:6.2f} "
            f"{r['writes_last'] / r['writes_10']:7.2f} {r['peak_rss'] / 1e6:8.1f} "
            f"{r['rss_grown'] / 1e6:7.1f}"
        )


def baseline_rss() -> int:
    """Peak RSS of a child that imports everything and stores nothing."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", "compact", "0"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(json.loads(done.stdout.strip().splitlines()[-1])["peak_rss"])


# --- report ----------------------------------------------------------------------------


def report(turns: int, long_turns: int, driven: int) -> dict[str, Any]:
    data: dict[str, Any] = {}
    OUTPUTS[:] = corpus_outputs()
    runs = [run_graph("SqliteSaver (stock)", stock_saver, turns)]
    if DeltaChannel is not None:
        runs.append(run_graph("SqliteSaver + DeltaChannel", stock_saver, turns, delta=True))
    runs.append(run_graph("CompactSqliteSaver", compact_saver, turns))
    runs.append(run_graph("CompactSqliteSaver", compact_saver, long_turns))
    print(
        f"## A real graph, {len(OUTPUTS)} distinct 2 KB tool outputs from the corpus\n"
        f"latency = median of turns 6-15 / of the last {WINDOW} turns; sizes after a WAL "
        "checkpoint\n"
    )
    print_graph_runs(runs)
    data["corpus"] = [asdict(r) for r in runs]

    OUTPUTS[:] = random_outputs()
    runs = [run_graph("SqliteSaver (stock)", stock_saver, turns)]
    runs.append(run_graph("CompactSqliteSaver", compact_saver, turns))
    runs.append(run_graph("CompactSqliteSaver", compact_saver, long_turns))
    print("\n## The same graph, 2 KB of random base64 per tool output (incompressible)\n")
    print_graph_runs(runs)
    data["incompressible"] = [asdict(r) for r in runs]

    rows = [run_child("stock", min(300, driven)), run_child("compact", driven // 5)]
    rows.append(run_child("compact", driven))
    print(
        f"\n## {driven:,} turns driven through the saver (2 puts, 2 put_writes a turn; "
        "random 2 KB outputs)\n"
    )
    print_driven(rows)
    first, last = rows[1], rows[-1]
    print(
        "\nms = wall-clock medians (each commit waits for an fsync); cpu = this process's CPU "
        "time per put;\nRSS +MB = resident memory added while driving (the driver's own "
        f"message list included): {first['rss_grown'] / first['messages']:.0f} and "
        f"{last['rss_grown'] / last['messages']:.0f} bytes per message at {first['turns']:,} "
        f"and {last['turns']:,} turns"
    )
    print(
        f"cold load of the newest checkpoint ({last['messages']:,} messages) by a fresh saver: "
        f"{last['load_s'] * 1e3:.0f} ms, of which row checks {last['check_s'] * 1e3:.1f} ms "
        f"({last['check_s'] / last['load_s']:.1%})"
    )
    data["driven"] = rows

    print(f"\n## What each storage choice pays: size/raw at {turns} turns with it undone\n")
    print(f"{'':46} {'corpus':>8} {'random':>8}")
    data["ablations"] = {}
    for name, patches in ABLATIONS.items():
        ratios = []
        for outputs in (corpus_outputs(), random_outputs()):
            OUTPUTS[:] = outputs
            with ablated(patches):
                r = run_graph(name, compact_saver, turns)
            ratios.append(r.db_bytes / r.raw_bytes)
        data["ablations"][name] = ratios
        print(f"{name:46} {ratios[0]:8.2f} {ratios[1]:8.2f}")
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--long-turns", type=int, default=1000)
    parser.add_argument("--driven", type=int, default=5000)
    parser.add_argument("--quick", action="store_true", help="60, 200 and 500 turns")
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "TURNS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(drive_child(args.child[0], int(args.child[1]))))
        return
    turns, long_turns, driven = (
        (60, 200, 500) if args.quick else (args.turns, args.long_turns, args.driven)
    )
    start = time.perf_counter()
    with captured() as out:
        data = report(turns, long_turns, driven)
        print(f"\ntotal bench time {time.perf_counter() - start:.0f} s")
    if args.write_readme:
        publish("storage", out.getvalue(), data)


if __name__ == "__main__":
    main()
