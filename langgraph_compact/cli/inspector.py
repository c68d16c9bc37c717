"""The self-contained HTML inspector of one thread: chart, coverage, summary, raw history.

One file, no network at view time: the CSS, the search script and the SVG chart are all
in the template; this module scales the numbers. Jinja2 escapes every message text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from langgraph_compact.cli.views import CallPoint, ThreadView, coverage_range
from langgraph_compact.compaction import Section

__all__ = ["Chart", "chart_data", "render_html", "write_html"]

_WIDTH, _HEIGHT, _PAD = 900, 320, 48


@dataclass(frozen=True)
class Chart:
    """SVG coordinates of the tokens-per-call chart; the template draws it."""

    width: int
    height: int
    pad: int
    raw: str
    """``x,y`` points of the raw-history line."""
    sent: str
    """``x,y`` points of the sent-to-the-model line (empty when unknown)."""
    events: list[tuple[float, int]]
    """x and call number of each compaction event."""
    ticks: list[tuple[float, str]]
    budget_y: float | None
    calls: int


def _scale(value: float) -> tuple[float, list[float]]:
    """A round top and tick values for an axis reaching ``value`` (steps of 1, 2 or 5 x 10^k)."""
    raw = max(value, 1.0) / 5
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    top = step * math.ceil(value / step)
    return top, [step * k for k in range(round(top / step) + 1)]


def chart_data(calls: list[CallPoint], budget: int | None) -> Chart:
    """Scale the view's numbers into the SVG box."""
    top, ticks = _scale(max([c.raw_tokens for c in calls] + [budget or 0, 1]) * 1.02)
    n = max(1, len(calls) - 1)

    def x(i: int) -> float:
        return _PAD + (_WIDTH - 2 * _PAD) * i / n

    def y(tokens: float) -> float:
        return _HEIGHT - _PAD - (_HEIGHT - 2 * _PAD) * tokens / top

    def line(values: list[tuple[int, int]]) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in values)

    sent = [(i, c.projected_tokens) for i, c in enumerate(calls) if c.projected_tokens is not None]
    return Chart(
        width=_WIDTH,
        height=_HEIGHT,
        pad=_PAD,
        raw=line([(i, c.raw_tokens) for i, c in enumerate(calls)]),
        sent=line(sent),
        events=[(x(i), i + 1) for i, c in enumerate(calls) if c.event],
        ticks=[(y(t), f"{t / 1000:g}k") for t in ticks],
        budget_y=y(budget) if budget else None,
        calls=len(calls),
    )


def render_html(view: ThreadView) -> str:
    """The inspector page for ``view``."""
    env = Environment(
        loader=PackageLoader("langgraph_compact.cli", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    total = len(view.messages)
    summary = view.summary
    head_end = summary.head_end if summary else total
    covered = summary.covered_through if summary else head_end
    coverage = {
        "head": head_end,
        "summarized": max(0, covered - head_end),
        "tail": max(0, total - covered),
        "total": max(1, total),
    }
    sections = [(s.value, summary.items(s)) for s in Section if summary.items(s)] if summary else []
    return env.get_template("inspector.html.j2").render(
        view=view,
        chart=chart_data(view.calls, view.budget),
        coverage=coverage,
        sections=sections,
        marks=sorted({m.mark for m in view.messages if m.mark}),
        ranges=[coverage_range(g) for g in view.generations],
        summary_range=coverage_range(summary.model_dump()) if summary else "",
    )


def write_html(view: ThreadView, path: Path) -> Path:
    """Write the inspector page; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(view), encoding="utf-8")
    return path
