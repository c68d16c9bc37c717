"""``inspect``, ``verify``, ``history``, ``redact`` and ``export``: a database read (or, for
``redact``, changed) through the saver's public API."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click
from click.core import ParameterSource
from langchain_core.messages import BaseMessage

from langgraph_compact.cli import render
from langgraph_compact.cli.app import CONTEXT
from langgraph_compact.cli.db import ThreadRow, all_messages, open_saver, require_thread, threads
from langgraph_compact.cli.db import verify as verify_db
from langgraph_compact.cli.errors import BadInput
from langgraph_compact.cli.inspector import write_html
from langgraph_compact.cli.thread import projection_of, view_of_thread
from langgraph_compact.cli.views import MessageRow, ThreadView, mark_messages
from langgraph_compact.trajectories import write_jsonl

__all__ = ["export", "history", "inspect", "redact", "verify"]

DB = click.argument("db", metavar="DB")
THREAD = click.argument("thread_id", metavar="THREAD")
JSON = click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the records as one JSON list (objects, the table's fields) and nothing else.",
)

JSON_CHECKPOINT_PAGES = (
    "--page and --page-size page the raw messages; --json with --checkpoint prints what "
    "the model saw, whole"
)
ONE_THREAD = ("budget", "checkpoint_id", "page", "page_size", "html")
"""``inspect``'s options about one thread: without ``--thread`` they need a one-thread file."""


def _given(ctx: click.Context, names: Sequence[str]) -> list[str]:
    """The flags, among the options ``names``, that the user set rather than left default."""
    left = (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP, None)
    return [
        max(p.opts, key=len)
        for p in ctx.command.params
        if p.name in names and ctx.get_parameter_source(p.name) not in left
    ]


def _only_thread(db: str, rows: list[ThreadRow], asked: list[str], as_json: bool) -> str:
    """The file's one thread, for options about one thread given without ``--thread``."""
    if len(rows) == 1:
        return rows[0].thread_id
    _threads_out(rows, as_json)
    raise click.UsageError(
        f"{', '.join(asked)} needs --thread: {db} holds {len(rows)} threads (listed above)"
    )


def _threads_out(rows: list[ThreadRow], as_json: bool) -> None:
    if as_json:
        render.print_json(rows)
    else:
        render.threads_table(rows)


def _page(rows: list[MessageRow], page: int, page_size: int) -> tuple[list[MessageRow], int]:
    """Page ``page`` of ``rows`` and the number of pages; a page past the last is refused."""
    pages = max(1, -(-len(rows) // page_size))
    if page > pages:
        raise click.UsageError(
            f"--page {page}: {len(rows)} messages make {pages} page(s) of {page_size}"
        )
    return rows[(page - 1) * page_size : page * page_size], pages


@click.command(context_settings=CONTEXT)
@DB
@click.option(
    "--thread",
    "thread_id",
    help="Show this thread (default: list the threads; the only one with --budget, "
    "--checkpoint, --page, --page-size or --html).",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1_000),
    help="Usable tokens the thread ran with: recompute what the model was sent.",
)
@click.option(
    "--checkpoint",
    "checkpoint_id",
    help="Show what the model saw at the call that started from this checkpoint.",
)
@click.option(
    "--page",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Page of the raw messages shown.",
)
@click.option("--page-size", type=click.IntRange(min=1), default=40, show_default=True)
@click.option(
    "--html",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the thread's self-contained HTML inspector here.",
)
@JSON
@click.pass_context
def inspect(
    ctx: click.Context,
    db: str,
    thread_id: str | None,
    budget: int | None,
    checkpoint_id: str | None,
    page: int,
    page_size: int,
    html: Path | None,
    as_json: bool,
) -> None:
    """List threads (sizes, last activity), or show one: summary generations with their
    coverage, compaction events, raw messages paged with tool pairs grouped, and with
    --budget what the model was sent. With --json: the threads, or the thread's page of raw
    messages (with --checkpoint, what the model saw).

    \b
    Example:
      langgraph-compact inspect agent.sqlite
      langgraph-compact inspect agent.sqlite --thread t1 --budget 8000 --html t1.html
    """
    asked = _given(ctx, ONE_THREAD)
    if as_json and checkpoint_id and {"--page", "--page-size"} & set(asked):
        raise click.UsageError(JSON_CHECKPOINT_PAGES)
    with open_saver(db) as saver:
        if thread_id is None:
            rows = threads(saver)
            if not asked:
                _threads_out(rows, as_json)
                return
            thread_id = _only_thread(db, rows, asked, as_json)
        view = view_of_thread(saver, thread_id, budget, source=db)
        seen = projection_of(saver, thread_id, checkpoint_id, budget) if checkpoint_id else None
    _thread_out(view, seen, checkpoint_id, page, page_size, as_json)
    if html:
        render.note(f"html: {write_html(view, html)}")


def _thread_out(
    view: ThreadView,
    seen: list[BaseMessage] | None,
    checkpoint_id: str | None,
    page: int,
    page_size: int,
    as_json: bool,
) -> None:
    """The thread's report; as JSON its page of raw messages, or what the model saw."""
    raw, pages = _page(view.messages, page, page_size)
    sent = mark_messages(seen, None, None) if seen is not None else None
    if as_json:
        render.print_json(raw if sent is None else sent)
        return
    render.thread_report(view, raw, page, pages)
    if sent is not None:
        render.messages_table(sent, f"what the model saw after checkpoint {checkpoint_id}")


@click.command(context_settings=CONTEXT)
@DB
@click.option("--thread", "thread_id", help="Check only this thread.")
@JSON
def verify(db: str, thread_id: str | None, as_json: bool) -> None:
    """Check every checkpoint and message of the database (or one thread); exit 1 on damage.

    \b
    Example:
      langgraph-compact verify agent.sqlite
    """
    with open_saver(db) as saver:
        findings = verify_db(saver, thread_id)
    if thread_id and not any(f.checkpoints or f.messages or f.problems for f in findings):
        raise BadInput(f"thread {thread_id!r}: no checkpoints in this database")
    if as_json:
        render.print_json(findings)
    else:
        render.verify_table(findings)
    if any(f.problems for f in findings):
        raise SystemExit(1)


@click.command(context_settings=CONTEXT)
@DB
@THREAD
@click.option("--text", help="Messages containing every one of these words.")
@click.option("--role", type=click.Choice(["human", "ai", "tool", "system"]))
@click.option("--tool", "tool_name", help="Tool results of this tool and the calls to it.")
@click.option("--start", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--end", type=click.IntRange(min=0), help="Index after the last one to search.")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@JSON
def history(
    db: str,
    thread_id: str,
    text: str | None,
    role: str | None,
    tool_name: str | None,
    start: int,
    end: int | None,
    limit: int,
    as_json: bool,
) -> None:
    """Search a thread's raw history (indices are positions in the message list).

    \b
    Example:
      langgraph-compact history agent.sqlite t1 --text "GROUP BY" --role tool
    """
    with open_saver(db) as saver:
        require_thread(saver, thread_id)
        page = saver.history(
            thread_id, text=text, role=role, tool_name=tool_name, start=start, end=end, limit=limit
        )
    if as_json:
        render.print_json(render.history_rows(page))
    else:
        render.history_table(page)


@click.command(context_settings=CONTEXT)
@DB
@THREAD
@click.argument("message_ids", nargs=-1, required=True, metavar="IDS...")
@click.option("--reason", required=True, help="Why; stored in the redaction log.")
@click.option("--actor", default="langgraph-compact", show_default=True, help="Who.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def redact(
    db: str, thread_id: str, message_ids: Sequence[str], reason: str, actor: str, yes: bool
) -> None:
    """Replace the content of messages everywhere with a tombstone (logged, irreversible).

    \b
    Example:
      langgraph-compact redact agent.sqlite t1 msg-17 msg-18 --reason "leaked key" --yes
    """
    if not yes:
        click.confirm(f"Redact {len(message_ids)} message(s) of {thread_id!r}?", abort=True)
    with open_saver(db) as saver:
        require_thread(saver, thread_id)
        result = saver.redact(thread_id, list(message_ids), reason, actor=actor)
    render.redaction_report(result, message_ids, actor)


@click.command(context_settings=CONTEXT)
@DB
@THREAD
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here instead of stdout.",
)
def export(db: str, thread_id: str, output: Path | None) -> None:
    """Write a thread's raw messages as JSON Lines (the corpus format, ids kept); the
    file replays with `langgraph-compact replay`.

    \b
    Example:
      langgraph-compact export agent.sqlite t1 -o t1.jsonl
    """
    with open_saver(db) as saver:
        require_thread(saver, thread_id)
        messages = all_messages(saver, thread_id)
    if not messages:
        raise click.ClickException(f"thread {thread_id!r} has no messages in {db}")
    text = write_jsonl(messages)
    if output:
        output.write_text(text, encoding="utf-8")
        render.note(f"{len(messages)} messages -> {output}")
    else:
        click.echo(text, nl=False)
