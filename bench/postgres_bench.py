"""Postgres: storage, latency and write throughput, beside LangGraph's stock ``PostgresSaver``.

Both savers run in the same run, on the same server, each in a schema of its own of a
database this bench creates and drops (``LGC_POSTGRES_DSN``, default
``postgresql://postgres@127.0.0.1:5432/postgres``; the server's own settings, e.g.
``synchronous_commit``, apply to both).

1. **One long thread**: the storage bench's real graph (``_graph_run``: ``agent`` ->
   ``tools`` via ``ToolNode``, 2 KB slices of real tool outputs from the corpus) for
   300 turns. Database size (``pg_total_relation_size`` of every table of the schema:
   heap, TOAST and indexes) over the raw message bytes, and the per-turn latency at
   turn 10 and over the last 10 turns (medians).
2. **Many workers, one database**: 1, 2, 4 and 8 worker processes, each running the
   same graph on a thread of its own, all starting together once every worker has
   imported and connected; turns per second over the wall time from the first worker's
   start to the last worker's end. Twice: on short threads (``--turns-per-worker``, 60),
   where LangGraph's own per-turn CPU dominates both savers, and on threads as long as
   part 1's (``--turns``), where the stock saver re-serializes a growing history.
3. **Many threads, one database**: the size over the raw message bytes of part 2's
   long-thread database (15 threads of ``--turns`` turns), where the few pages every
   table and index holds whatever its length (free-space maps, TOAST tables, B-tree
   roots) are shared by the threads instead of charged to one, and where threads
   written at once interleave their index entries (pages split in the middle). Taken
   right after the runs, as a deployment would hold it: no ``VACUUM`` (which would add
   a visibility map to every table), whatever autovacuum did in between.

Run ``python bench/postgres_bench.py`` (about 8 minutes on 2 cores) or ``--quick``;
``--write-readme`` publishes the report (``bench/_report.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _graph_run
import psycopg
from _graph_run import WINDOW, build_graph, corpus_outputs, raw_message_bytes
from _report import captured, publish
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from langgraph_compact.checkpoint import CompactPostgresSaver

SAVERS = ("stock PostgresSaver", "CompactPostgresSaver")
WORKER_COUNTS = (1, 2, 4, 8)


def server_dsn() -> str:
    return os.environ.get("LGC_POSTGRES_DSN") or "postgresql://postgres@127.0.0.1:5432/postgres"


@contextmanager
def bench_database() -> Iterator[str]:
    """A database of this run, dropped at the end."""
    name = f"lgc_bench_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(server_dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_conninfo(server_dsn(), dbname=name)
    finally:
        with psycopg.connect(server_dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def schema_dsn(dsn: str, schema: str) -> str:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    return make_conninfo(dsn, options=f"-c search_path={schema}")


def drop_schema(dsn: str, schema: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@contextmanager
def open_saver(kind: str, dsn: str) -> Iterator[Any]:
    if kind == SAVERS[0]:
        from langgraph.checkpoint.postgres import PostgresSaver

        with PostgresSaver.from_conn_string(dsn) as stock:
            yield stock
    else:
        with CompactPostgresSaver.from_conn_string(dsn) as ours:
            yield ours


def schema_bytes(dsn: str) -> int:
    """Heap, TOAST and index bytes of every table in the DSN's schema."""
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        ).fetchone()
    return int(row[0]) if row else 0


def long_thread(kind: str, dsn: str, turns: int) -> dict[str, Any]:
    """Part 1: ``turns`` turns on one thread; size over raw bytes and latency."""
    with open_saver(kind, dsn) as saver:
        saver.setup()
        lat, messages = _graph_run.timed_turns(build_graph(saver), _graph_run.THREAD, turns, kind)
    lat_10 = statistics.median(lat[10 - WINDOW // 2 : 10 + WINDOW // 2])
    lat_last = statistics.median(lat[-WINDOW:])
    size, raw = schema_bytes(dsn), raw_message_bytes(messages)
    return {"saver": kind, "turns": turns, "db_bytes": size, "raw_bytes": raw,
            "ms_10": lat_10 * 1e3, "ms_last": lat_last * 1e3, "seconds": sum(lat)}  # fmt: skip


def database_ratio(kind: str, dsn: str, threads: list[str]) -> dict[str, Any]:
    """Part 3: the whole schema's bytes over the raw bytes of every thread it holds."""
    with open_saver(kind, dsn) as saver:
        graph = build_graph(saver)
        states = [graph.get_state({"configurable": {"thread_id": t}}) for t in threads]
    raw = sum(raw_message_bytes(s.values["messages"]) for s in states)
    return {"saver": kind, "threads": len(threads), "db_bytes": schema_bytes(dsn),
            "raw_bytes": raw}  # fmt: skip


def worker_main(spec: dict[str, Any]) -> None:
    """One worker process of part 2: say ready, wait for the common start, run, report."""
    _graph_run.OUTPUTS[:] = corpus_outputs()
    with open_saver(spec["saver"], spec["dsn"]) as saver:
        graph = build_graph(saver)
        config = {"configurable": {"thread_id": spec["thread"]}}
        print("ready", flush=True)
        sys.stdin.readline()  # "go": every worker has imported and connected
        start = time.time()
        for _ in range(spec["turns"]):
            graph.invoke({"messages": []}, config)
        end = time.time()
        assert len(graph.get_state(config).values["messages"]) == 2 * spec["turns"]
    print(json.dumps({"start": start, "end": end}), flush=True)


def worker_threads(n: int) -> list[str]:
    """The thread ids of part 2's run with ``n`` workers, one each."""
    return [f"t{n}-{w}" for w in range(n)]


def throughput(kind: str, dsn: str, n: int, turns: int) -> float:
    """Part 2: turns per second of ``n`` worker processes, each on a thread of its own.

    The clock starts when every worker has said it is ready (imports done, connected),
    so a slow start-up on a loaded machine does not count as turns not done.
    """
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                json.dumps({"saver": kind, "dsn": dsn, "turns": turns, "thread": thread}),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for thread in worker_threads(n)
    ]
    for p in procs:
        assert p.stdout is not None
        if p.stdout.readline().strip() != "ready":
            raise RuntimeError(f"{kind}: a worker failed to start ({p.wait()})")
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    times = []
    for p in procs:
        out, _ = p.communicate(timeout=1800)
        if p.returncode != 0:
            raise RuntimeError(f"{kind}: a worker failed ({p.returncode})")
        times.append(json.loads(out.strip().splitlines()[-1]))
    wall = max(t["end"] for t in times) - min(t["start"] for t in times)
    return n * turns / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--turns-per-worker", type=int, default=60)
    parser.add_argument("--quick", action="store_true", help="60 turns, 10 and 60 per worker")
    parser.add_argument("--write-readme", action="store_true")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(json.loads(args.worker))
        return
    turns, per_worker = (60, 10) if args.quick else (args.turns, args.turns_per_worker)
    _graph_run.OUTPUTS[:] = corpus_outputs()
    with bench_database() as dsn, captured() as out:
        server = conninfo_to_dict(dsn)
        print(f"Postgres at {server.get('host')}:{server.get('port')}; 2 KB tool outputs.")
        print(f"\n1. One thread, {turns} turns of the real graph")
        head = (f"{'saver':22} {'db MB':>8} {'raw MB':>7} {'size/raw':>8} {'ms@10':>7} "
                f"{'ms@last':>8} {'last/10':>7}")  # fmt: skip
        print(head + "\n" + "-" * len(head))
        long_runs = []
        for i, kind in enumerate(SAVERS):
            r = long_thread(kind, schema_dsn(dsn, f"long{i}"), turns)
            long_runs.append(r)
            print(
                f"{kind:22} {r['db_bytes'] / 1e6:8.2f} {r['raw_bytes'] / 1e6:7.2f} "
                f"{r['db_bytes'] / r['raw_bytes']:8.2f} {r['ms_10']:7.1f} "
                f"{r['ms_last']:8.1f} {r['ms_last'] / r['ms_10']:7.2f}"
            )
        rates: dict[str, dict[str, list[float]]] = {}
        shared: list[dict[str, Any]] = []
        for length in dict.fromkeys((per_worker, turns)):
            print(f"\n2. Turns per second, N worker processes x {length} turns, own threads")
            head = f"{'saver':22} " + " ".join(f"{f'{n} w':>7}" for n in WORKER_COUNTS)
            print(head + "\n" + "-" * len(head))
            by_saver = rates[str(length)] = {}
            for i, kind in enumerate(SAVERS):
                sdsn = schema_dsn(dsn, f"many{i}_{length}")
                with open_saver(kind, sdsn) as saver:
                    saver.setup()
                by_saver[kind] = [throughput(kind, sdsn, n, length) for n in WORKER_COUNTS]
                print(f"{kind:22} " + " ".join(f"{r:7.1f}" for r in by_saver[kind]))
                if length == turns:
                    threads = [t for n in WORKER_COUNTS for t in worker_threads(n)]
                    shared.append(database_ratio(kind, sdsn, threads))
                drop_schema(dsn, f"many{i}_{length}")  # the stock saver's threads are large
        print(f"\n3. One database, the {sum(WORKER_COUNTS)} threads of {turns} turns above")
        head = f"{'saver':22} {'threads':>7} {'db MB':>8} {'raw MB':>7} {'size/raw':>8}"
        print(head + "\n" + "-" * len(head))
        for r in shared:
            print(
                f"{r['saver']:22} {r['threads']:7} {r['db_bytes'] / 1e6:8.2f} "
                f"{r['raw_bytes'] / 1e6:7.2f} {r['db_bytes'] / r['raw_bytes']:8.2f}"
            )
        print()
        for length, by_saver in rates.items():
            ratio = by_saver[SAVERS[1]][-1] / by_saver[SAVERS[0]][-1]
            print(
                f"At {WORKER_COUNTS[-1]} workers on {length}-turn threads: {ratio:.1f}x the "
                "stock saver's turns per second."
            )
    if args.write_readme:
        publish("postgres", out.getvalue(), {"long": long_runs, "rates": rates, "shared": shared})


if __name__ == "__main__":
    main()
