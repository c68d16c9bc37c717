"""Terminal output: rich tables and progress bars, and the replay report as Markdown."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from langgraph_compact.checkpoint import HistoryPage, RedactionResult
from langgraph_compact.cli.db import ThreadRow, VerifyFinding
from langgraph_compact.cli.listing import Column, layout
from langgraph_compact.cli.views import (
    MessageRow,
    ThreadView,
    compaction_stats,
    coverage_range,
    mark_messages,
)
from langgraph_compact.replay import ReplayRun, ReplayTotals

__all__ = [
    "console",
    "demo_report",
    "history_rows",
    "history_table",
    "messages_table",
    "note",
    "print_json",
    "progress",
    "redaction_report",
    "replay_json",
    "replay_markdown",
    "thread_report",
    "threads_table",
    "verify_table",
]

console = Console()
"""Reports go to stdout; progress bars and notes to stderr (``errors``)."""
errors = Console(stderr=True)


@contextmanager
def progress() -> Iterator[Progress]:
    """A progress bar on stderr (nothing is drawn when stderr is not a terminal)."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=errors, transient=False) as bar:
        yield bar


def demo_report(run: ReplayRun, view: ThreadView, files: dict[str, Path]) -> None:
    """The demo's closing table, the final summary and the files it wrote."""
    table = Table(title=f"{run.trajectory}: {len(run.calls)} model calls, budget {run.budget:,}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    raw = sum(c.raw_tokens for c in run.calls)
    rows = [
        (
            "raw history, tokens at the last call",
            f"{run.calls[-1].raw_tokens:,}" if run.calls else "0",
        ),
        ("input tokens sent, all calls (full history would be)", f"{run.input_tokens:,} ({raw:,})"),
        ("largest model input", f"{run.max_input:,}"),
        ("calls over the budget", str(run.over_budget)),
        ("compaction events (summarizer calls)", str(run.events)),
        (
            "raw messages kept / recorded",
            f"{len(run.final_messages)} / {len(run.final_messages) + run.lost}",
        ),
    ]
    if run.summary is not None:
        rows.append(("last summary written by", run.summary.summarizer))
    rows += [(f"saved by {name}, all calls", f"{saved:,}") for name, saved in view.stages.items()]
    errors_seen = [e["summarizer_error"] for e in map(compaction_stats, run.compactions)]
    failed = [e for e in errors_seen if e]
    if failed:
        rows.append(("summarizer failures (fell back to extractive)", str(len(failed))))
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)
    if failed:
        note(f"first summarizer failure: {_preview(failed[0], 200)}")
    if run.summary is not None:
        console.rule(f"summary generation {run.summary.generation}")
        console.print(run.summary.render(), markup=False, highlight=False)
    console.rule("files")
    for label, path in files.items():
        console.print(f"{label:>6}: {path}", markup=False, highlight=False)


_COLUMNS = (
    ("budget", lambda t: f"{t.budget:,}"),
    ("strategy", lambda t: t.strategy),
    ("calls", lambda t: str(t.model_calls)),
    ("input tokens", lambda t: f"{t.input_tokens:,}"),
    ("vs full", lambda t: f"{t.input_tokens / t.raw_tokens:.2f}x" if t.raw_tokens else "n/a"),
    ("max in", lambda t: f"{t.max_input:,}"),
    ("over budget", lambda t: str(t.over_budget)),
    ("protocol violations", lambda t: str(t.violations)),
    ("coverage gaps", lambda t: str(t.gaps)),
    ("task kept", lambda t: f"{t.task_kept / t.model_calls:.0%}" if t.model_calls else "n/a"),
    ("compactions", lambda t: str(t.events)),
    ("summarizer calls", lambda t: str(t.summarizer_calls)),
    ("lost msgs", lambda t: str(t.lost)),
    ("errors", lambda t: str(len(t.errors))),
)


def replay_markdown(totals: Sequence[ReplayTotals], probes: Sequence[str]) -> str:
    """The replay report: one Markdown row per strategy and budget."""
    head = [name for name, _ in _COLUMNS] + [f"kept {p!r}" for p in probes]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in totals:
        cells = [cell(t) for _, cell in _COLUMNS]
        cells += [f"{t.probes[p][1]}/{t.probes[p][0]}" if p in t.probes else "0/0" for p in probes]
        lines.append("| " + " | ".join(cells) + " |")
    trajectories = totals[0].trajectories if totals else 0
    lines += [
        "",
        f"{trajectories} trajectories. vs full = input tokens / what the whole history would "
        "send; over budget = model inputs above the budget; protocol violations = inputs "
        "with an orphan or unanswered tool call, or whose first non-system message is not "
        "a human one (some providers reject both); coverage gaps = inputs where head + summary "
        "+ tail did not account for every raw message (ours only); task kept = calls whose "
        "input held the first request (same message, first 100 characters unchanged); lost "
        "msgs = recorded messages missing from the final state. kept 'x' = trajectories "
        "whose last model input still held x / trajectories where the model saw it.",
    ]
    for t in totals:
        lines += [f"- error {t.strategy} @ {t.budget}: {e}" for e in t.errors]
    return "\n".join(lines) + "\n"


def replay_json(totals: Sequence[ReplayTotals]) -> str:
    """The replay report as JSON: every total, plus the ratio to the full history."""
    rows: list[dict[str, Any]] = []
    for t in totals:
        row = asdict(t)
        row["vs_full"] = t.input_tokens / t.raw_tokens if t.raw_tokens else None
        rows.append(row)
    return json.dumps(rows, indent=1) + "\n"


def note(text: str) -> None:
    """One line on stderr (file paths, skips), never parsed as rich markup."""
    errors.print(text, markup=False, highlight=False)


def _preview(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def print_json(records: Sequence[Any]) -> None:
    """Records as one JSON list on stdout and nothing else (``--json``, for scripts)."""
    rows = [dict(r) if isinstance(r, dict) else asdict(r) for r in records]
    click.echo(json.dumps(rows, indent=1))


def _listing(title: str, columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> None:
    laid = layout(title, columns, rows, console.width)
    if isinstance(laid, Table):
        console.print(laid)
        return
    head, *lines = laid
    console.print(head, style="table.title", justify="center", markup=False, highlight=False)
    for line in lines:  # soft_wrap: the line is already as wide as it may be; never cut it
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def threads_table(rows: list[ThreadRow]) -> None:
    """Every thread: its size, and its newest checkpoint and when it was written."""
    sized = any(r.stored_bytes is not None for r in rows)
    columns = [
        Column("thread"),
        Column("checkpoints", right=True),
        Column("messages", right=True),
        *([Column("stored", right=True)] if sized else []),
        Column("last activity"),
        Column("last checkpoint"),
    ]
    cells = [
        [
            r.thread_id,
            str(r.checkpoints),
            str(r.messages),
            *([f"{(r.stored_bytes or 0) / 1e6:.2f} MB"] if sized else []),
            r.last_activity,
            r.last_checkpoint,
        ]
        for r in rows
    ]
    _listing(f"{len(rows)} thread{'' if len(rows) == 1 else 's'}", columns, cells)


def _rows_table(rows: list[MessageRow], title: str) -> Table:
    table = Table(title=title, show_lines=False)
    for name in ("#", "role", "mark", "text"):
        table.add_column(name, justify="right" if name == "#" else "left", overflow="fold")
    for r in rows:
        role = f"  └ {r.role}" if r.role == "tool" else r.role
        calls = f"calls {', '.join(r.tool_calls)}: " if r.tool_calls else ""
        name = f"[{r.name}] " if r.name and r.role == "tool" else ""
        mark = f"{r.mark} ref={r.ref}" if r.ref else r.mark
        table.add_row(str(r.index + 1), role, mark, _preview(name + calls + r.text))
    return table


def messages_table(rows: list[MessageRow], title: str) -> None:
    """A page of messages (raw ones, or a projection), one row each."""
    console.print(_rows_table(rows, title))


def _usage_table(usage: dict[str, Any]) -> None:
    """The ledger: one row per tag, the agent's calls apart from the summarizer's."""
    table = Table(title="usage (model calls billed)")
    for name, right in (("who", False), ("calls", True), ("input", True), ("output", True)):
        table.add_column(name, justify="right" if right else "left")
    table.add_column("cache read", justify="right")
    table.add_column("cost", justify="right")
    for tag in sorted(usage):
        t = usage[tag]
        table.add_row(
            tag,
            f"{t['calls']:,}",
            f"{t['input_tokens']:,}",
            f"{t['output_tokens']:,}",
            f"{t['cache_read']:,}",
            f"{t['cost']:.4f}",
        )
    console.print(table)


def thread_report(view: ThreadView, rows: list[MessageRow], page: int, pages: int) -> None:
    """One thread: facts, summary generations, compaction events, a page of its messages."""
    s = view.summary
    console.print(
        f"thread {view.thread_id}: {len(view.messages)} raw messages, {len(view.calls)} model "
        f"calls, {view.events} compaction events"
        + (
            f", coverage [{s.head_end}, {s.covered_through}) generation {s.generation}" if s else ""
        ),
        markup=False,
        highlight=False,
    )
    if view.generations:
        columns = [
            Column("generation", right=True),
            Column("covers messages", wrap=True),
            Column("summarizer"),
            Column("checkpoint"),
        ]
        cells = [
            [
                str(g["generation"]),
                coverage_range(g),
                str(g["summarizer"]),
                str(g.get("checkpoint_id") or ""),
            ]
            for g in view.generations
        ]
        _listing("summary generations", columns, cells)
    if view.usage:
        _usage_table(view.usage)
    events = [(i, c) for i, c in enumerate(view.calls, start=1) if c.event]
    if events:
        table = Table(title="compaction events")
        for name in ("before call", "raw tokens", "sent tokens"):
            table.add_column(name, justify="right")
        for i, c in events:
            sent = "" if c.projected_tokens is None else f"{c.projected_tokens:,}"
            table.add_row(str(i), f"{c.raw_tokens:,}", sent)
        console.print(table)
    if view.redactions:
        columns = [Column("message"), Column("reason", wrap=True), Column("actor"), Column("when")]
        keys = ("message_id", "reason", "actor", "redacted_at")
        _listing("redactions", columns, [[str(r[k]) for k in keys] for r in view.redactions])
    console.print(_rows_table(rows, f"raw messages, page {page} of {pages}"))


def history_rows(page: HistoryPage) -> list[MessageRow]:
    """The page's messages as rows numbered by their place in the whole message list."""
    rows = mark_messages([i.message for i in page.items], None, None)
    return [
        dataclasses.replace(r, index=item.index) for r, item in zip(rows, page.items, strict=True)
    ]


def history_table(page: HistoryPage) -> None:
    rows = history_rows(page)
    more = " (more: narrow the filters or raise --limit)" if page.has_more else ""
    console.print(_rows_table(rows, f"{len(rows)} of {page.total} messages match{more}"))


def verify_table(findings: list[VerifyFinding]) -> None:
    columns = [
        Column("thread"),
        Column("checkpoints", right=True),
        Column("messages", right=True),
        Column("status", wrap=True),
    ]
    cells = [
        [f.thread_id, str(f.checkpoints), str(f.messages), "; ".join(f.problems) or "ok"]
        for f in findings
    ]
    _listing("verify", columns, cells)


def redaction_report(result: RedactionResult, requested: Sequence[str], actor: str) -> None:
    """What was redacted, the tombstone it now carries and who the log names."""
    missing = sorted(set(requested) - set(result.message_ids))
    console.print(
        f"redacted {len(result.message_ids)} message(s) of {result.thread_id!r} as "
        f"{result.tombstone!r}, logged for {actor!r}: {result.message_rows} stored rows, "
        f"{result.values_rewritten} other values rewritten",
        markup=False,
        highlight=False,
    )
    if missing:
        note(f"not found in the thread: {', '.join(missing)}")
