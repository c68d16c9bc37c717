"""``demo`` and ``replay``: runs through real graphs, with a progress bar and a chart."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from langgraph_compact.cli import render
from langgraph_compact.cli.app import CONTEXT
from langgraph_compact.cli.charts import replay_chart, thread_chart
from langgraph_compact.cli.errors import BadInput
from langgraph_compact.cli.inspector import write_html
from langgraph_compact.cli.views import view_of_run
from langgraph_compact.compaction import Summarizer
from langgraph_compact.replay import (
    DEFAULT_STRATEGIES,
    STRATEGIES,
    ReplayTotals,
    StrategyUnavailable,
    replay_all,
)
from langgraph_compact.replay.demo import DEMO_SAMPLE, demo_turns, run_demo
from langgraph_compact.tokens import TokenCounter
from langgraph_compact.trajectories import SAMPLES, Trajectory, read_trajectories

__all__ = ["demo", "replay"]


@click.command(context_settings=CONTEXT)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("langgraph-compact-demo"),
    show_default=True,
    help="Folder for demo.sqlite, demo.png and demo.html.",
)
@click.option(
    "--budget",
    type=click.IntRange(min=2_000),
    default=8_000,
    show_default=True,
    help="Context window in tokens, all of it usable input.",
)
@click.option(
    "--sample",
    type=click.Choice(SAMPLES),
    default=DEMO_SAMPLE,
    show_default=True,
    help="Which shipped real trajectory to re-enact.",
)
@click.option(
    "--model",
    metavar="PROVIDER:NAME",
    default=None,
    help="Write the summaries with this chat model (init_chat_model; needs its key).",
)
def demo(out_dir: Path, budget: int, sample: str, model: str | None) -> None:
    """Re-enact a real coding-agent run through CompactionNode and CompactSqliteSaver.

    The agent replays the recorded turns; every raw message is persisted in
    OUT/demo.sqlite. Prints what the model was sent against the raw history, then
    writes a PNG chart and a self-contained HTML report.

    \b
    Example:
      langgraph-compact demo --out demo/ --budget 8000
    """
    summarizer = _chat_summarizer(model) if model else None
    with render.progress() as bar:
        task = bar.add_task("model calls", total=demo_turns(sample))
        run = run_demo(
            out_dir / "demo.sqlite",
            sample=sample,
            budget_tokens=budget,
            summarizer=summarizer,
            on_call=lambda _: bar.advance(task),
        )
    if run.error:
        raise click.ClickException(f"the demo run stopped: {run.error}")
    view = view_of_run(run, title=f"demo: {sample}", source=str(out_dir / "demo.sqlite"))
    files = {
        "db": out_dir / "demo.sqlite",
        "chart": thread_chart(view, out_dir / "demo.png"),
        "html": write_html(view, out_dir / "demo.html"),
    }
    render.demo_report(run, view, files)


def _chat_summarizer(spec: str) -> Summarizer:
    try:
        from langchain.chat_models import init_chat_model
    except ImportError:
        raise BadInput("--model needs langchain: pip install 'langgraph-compact[agents]'") from None
    from langgraph_compact.compaction import ChatModelSummarizer

    try:
        return ChatModelSummarizer(model=init_chat_model(spec))
    except Exception as exc:  # a missing provider package or key: say which, in one line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise BadInput(f"--model {spec}: {first}") from None


def _split(values: Sequence[str]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def _budgets(ctx: click.Context, param: click.Parameter, values: Sequence[str]) -> list[int]:
    try:
        budgets = [int(v.replace("_", "")) for v in _split(values)]
    except ValueError:
        raise click.BadParameter(f"{','.join(values)!r} is not a list of token counts") from None
    if any(b < 1_000 for b in budgets):
        raise click.BadParameter("budgets below 1,000 tokens cannot hold a system prompt")
    return budgets


def _files(paths: Sequence[Path]) -> list[Trajectory]:
    found: list[Trajectory] = []
    for path in paths:
        inner = sorted([*path.glob("*.jsonl"), *path.glob("*.json")]) if path.is_dir() else [path]
        if not inner:
            raise BadInput(f"{path}: no .jsonl or .json files in this folder")
        for file in inner:
            found += read_trajectories(file)
    return found


@click.command(context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--budget",
    "budgets",
    multiple=True,
    default=("8000,4000",),
    show_default=True,
    callback=_budgets,
    help="Context windows in tokens (repeat or comma-separate).",
)
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    default=(",".join(DEFAULT_STRATEGIES),),
    show_default=True,
    help=f"Strategies to compare, from: {', '.join(STRATEGIES)}.",
)
@click.option(
    "--probe",
    "probes",
    multiple=True,
    metavar="TEXT",
    help="A string that should survive; reports whether the last input held it.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
    help="Report format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report here instead of stdout.",
)
@click.option(
    "--chart",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("replay.png"),
    show_default=True,
    help="PNG chart of the totals.",
)
def replay(
    files: Sequence[Path],
    budgets: list[int],
    strategies: Sequence[str],
    probes: Sequence[str],
    fmt: str,
    output: Path | None,
    chart: Path,
) -> None:
    """Replay recorded runs (corpus JSONL, OpenAI chat JSON/JSONL, LangChain dumps) through
    each strategy at each budget, in a real graph; report what each sent to the model.

    FILES may be folders (every .jsonl and .json inside). All summaries come from a
    deterministic stand-in model: no API is called.

    \b
    Example:
      langgraph-compact replay tests/data/corpus --budget 8000,4000 \\
          --strategy ours,langmem,middleware,trim,full --probe "GROUP BY"
    """
    names = _split(strategies)
    if unknown := sorted(set(names) - set(STRATEGIES)):
        raise BadInput(
            f"unknown strategy {', '.join(unknown)}; choose from {', '.join(STRATEGIES)}"
        )
    trajectories, counter = _files(files), TokenCounter()
    totals: list[ReplayTotals] = []
    with render.progress() as bar:
        task = bar.add_task("replays", total=len(names) * len(budgets) * len(trajectories))
        for name in names:
            try:
                totals += [
                    replay_all(
                        trajectories,
                        name,
                        b,
                        counter,
                        probes=probes,
                        on_run=lambda _: bar.advance(task),
                    )
                    for b in budgets
                ]
            except StrategyUnavailable as exc:
                render.errors.print(f"skipped {exc}", markup=False, highlight=False)
                bar.advance(task, len(budgets) * len(trajectories))
    text = render.replay_json(totals) if fmt == "json" else render.replay_markdown(totals, probes)
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
    if totals:
        render.errors.print(f"chart: {replay_chart(totals, chart)}", markup=False, highlight=False)
