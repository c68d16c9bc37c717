"""``inspect``, ``verify``, ``history``, ``redact`` and ``export``: a database read (or, for
``redact``, changed) through the saver's public API."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from langgraph_compact.cli import render
from langgraph_compact.cli.app import CONTEXT
from langgraph_compact.cli.db import all_messages, open_saver, threads
from langgraph_compact.cli.db import verify as verify_db
from langgraph_compact.cli.inspector import write_html
from langgraph_compact.cli.thread import projection_of, view_of_thread
from langgraph_compact.trajectories import write_jsonl

__all__ = ["export", "history", "inspect", "redact", "verify"]

DB = click.argument("db", metavar="DB")
THREAD = click.argument("thread_id", metavar="THREAD")


def _one_thread_options(
    html: Path | None, budget: int | None, checkpoint_id: str | None
) -> list[tuple[str, object]]:
    """The options that concern one thread, with the values given."""
    return [("--html", html), ("--budget", budget), ("--checkpoint", checkpoint_id)]


@click.command(context_settings=CONTEXT)
@DB
@click.option(
    "--thread",
    "thread_id",
    help="Show this thread (default: list the threads; the only one with --html, --budget "
    "or --checkpoint).",
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
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--page-size", type=click.IntRange(min=1), default=40, show_default=True)
@click.option(
    "--html",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the thread's self-contained HTML inspector here.",
)
def inspect(
    db: str,
    thread_id: str | None,
    budget: int | None,
    checkpoint_id: str | None,
    page: int,
    page_size: int,
    html: Path | None,
) -> None:
    """List threads (sizes, last activity), or show one: summary generations with their
    coverage, compaction events, raw messages paged with tool pairs grouped, and with
    --budget what the model was sent.

    \b
    Example:
      langgraph-compact inspect agent.sqlite
      langgraph-compact inspect agent.sqlite --thread t1 --budget 8000 --html t1.html
    """
    asked = [name for name, value in _one_thread_options(html, budget, checkpoint_id) if value]
    with open_saver(db) as saver:
        if thread_id is None:
            rows = threads(saver)
            if not asked:
                render.threads_table(rows)
                return
            if len(rows) != 1:  # an option about one thread, and no way to tell which
                render.threads_table(rows)
                raise click.UsageError(
                    f"{', '.join(asked)} needs --thread: {db} holds {len(rows)} threads "
                    "(listed above)"
                )
            thread_id = rows[0].thread_id
        view = view_of_thread(saver, thread_id, budget, source=db)
        render.thread_report(view, page, page_size)
        if checkpoint_id:
            render.messages_table(
                projection_of(saver, thread_id, checkpoint_id, budget),
                title=f"what the model saw after checkpoint {checkpoint_id}",
            )
        if html:
            render.note(f"html: {write_html(view, html)}")


@click.command(context_settings=CONTEXT)
@DB
@click.option("--thread", "thread_id", help="Check only this thread.")
def verify(db: str, thread_id: str | None) -> None:
    """Check every checkpoint and message of the database (or one thread); exit 1 on damage.

    \b
    Example:
      langgraph-compact verify agent.sqlite
    """
    with open_saver(db) as saver:
        findings = verify_db(saver, thread_id)
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
def history(
    db: str,
    thread_id: str,
    text: str | None,
    role: str | None,
    tool_name: str | None,
    start: int,
    end: int | None,
    limit: int,
) -> None:
    """Search a thread's raw history (indices are positions in the message list).

    \b
    Example:
      langgraph-compact history agent.sqlite t1 --text "GROUP BY" --role tool
    """
    with open_saver(db) as saver:
        page = saver.history(
            thread_id, text=text, role=role, tool_name=tool_name, start=start, end=end, limit=limit
        )
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
        result = saver.redact(thread_id, list(message_ids), reason, actor=actor)
    render.redaction_report(result, message_ids)


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
        messages = all_messages(saver, thread_id)
    if not messages:
        raise click.ClickException(f"thread {thread_id!r} has no messages in {db}")
    text = write_jsonl(messages)
    if output:
        output.write_text(text, encoding="utf-8")
        render.note(f"{len(messages)} messages -> {output}")
    else:
        click.echo(text, nl=False)
