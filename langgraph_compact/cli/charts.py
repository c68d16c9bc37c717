"""PNG charts with matplotlib (its object API, no pyplot state, no display needed).

matplotlib is imported when a chart is drawn, so commands that draw none start faster.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from langgraph_compact.cli.views import ThreadView
from langgraph_compact.replay import ReplayTotals

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["replay_chart", "thread_chart"]

RAW, SENT, EVENT, BUDGET = "#9aa3ad", "#1f6feb", "#e36209", "#cf222e"


def thread_chart(view: ThreadView, path: Path) -> Path:
    """Raw history vs what the model was sent, per call, with compactions and the budget."""
    fig = _figure(3.6)
    ax = fig.add_subplot()
    calls = range(1, len(view.calls) + 1)
    ax.plot(calls, [c.raw_tokens for c in view.calls], color=RAW, lw=2, label="raw history")
    sent = [(i, c.projected_tokens) for i, c in zip(calls, view.calls, strict=True)]
    if any(t is not None for _, t in sent):
        xs, ys = zip(*[(i, t) for i, t in sent if t is not None], strict=True)
        ax.plot(xs, ys, color=SENT, lw=2, label="sent to the model")
    for i, c in zip(calls, view.calls, strict=True):
        if c.event:
            ax.axvline(i, color=EVENT, lw=0.8, ls=":", alpha=0.8)
    ax.plot([], [], color=EVENT, lw=0.8, ls=":", label="compaction")
    if view.budget:
        ax.axhline(view.budget, color=BUDGET, lw=1, ls="--", label=f"budget {view.budget:,}")
    ax.set_xlabel("model call")
    ax.set_ylabel("input tokens")
    ax.set_title(view.title, fontsize=10)
    ax.yaxis.set_major_formatter(lambda v, _: f"{v / 1000:.0f}k")
    ax.grid(axis="y", color="#eaeef2")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    return _save(fig, path)


def replay_chart(totals: Sequence[ReplayTotals], path: Path) -> Path:
    """Input tokens per strategy at each budget (bars), over-budget calls written on top."""
    budgets = sorted({t.budget for t in totals}, reverse=True)
    names = list(dict.fromkeys(t.strategy for t in totals))
    fig = _figure(3.8)
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(names))
    for k, name in enumerate(names):
        xs, ys, over = [], [], []
        for j, b in enumerate(budgets):
            for t in totals:
                if t.strategy == name and t.budget == b:
                    xs.append(j + k * width)
                    ys.append(t.input_tokens)
                    over.append(t.over_budget)
        bars = ax.bar(xs, ys, width, label=name)
        ax.bar_label(bars, labels=[f"{o} over" if o else "" for o in over], fontsize=7)
    ax.set_xticks([j + width * (len(names) - 1) / 2 for j in range(len(budgets))])
    ax.set_xticklabels([f"budget {b:,}" for b in budgets])
    ax.set_ylabel("input tokens, all calls")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v / 1e6:.1f}M")
    ax.legend(
        fontsize=8,
        frameon=False,
        ncols=min(6, len(names)),
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
    )
    ax.grid(axis="y", color="#eaeef2")
    return _save(fig, path)


def _figure(height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(9, height), dpi=120, layout="constrained")


def _save(fig: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    return path
