"""``langgraph-compact demo``: a real graph on the real saver; valid PNG and HTML; exit 0."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from cli_helpers import (
    SAMPLE,
    THREAD,
    assert_bad_input,
    demo_dir_fixture,  # noqa: F401  (fixtures)
    run,
)

from langgraph_compact.checkpoint import CompactSqliteSaver
from langgraph_compact.cli.db import all_messages
from langgraph_compact.trajectories import load_trajectory, sample_path

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_demo_writes_a_database_a_chart_and_a_report(demo_dir: Path) -> None:
    width, height = png_size(demo_dir / "demo.png")
    assert width >= 800 and height >= 300
    assert (demo_dir / "demo.png").stat().st_size > 20_000  # lines, labels: not a blank image
    html = (demo_dir / "demo.html").read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
    assert 'id="chart"' in html and "<polyline" in html
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")  # nothing to fetch
    assert "https://" not in html


def test_demo_database_holds_the_raw_run_untouched(demo_dir: Path) -> None:
    recorded = load_trajectory(sample_path(SAMPLE))
    with CompactSqliteSaver.from_conn_string(str(demo_dir / "demo.sqlite")) as saver:
        stored = all_messages(saver, THREAD)
        summaries = saver.summaries(THREAD)
    assert [m.id for m in stored] == [m.id for m in recorded]
    assert [m.content for m in stored] == [m.content for m in recorded]
    assert summaries and summaries[-1].generation >= 1  # 4,000 tokens forced compaction


def test_demo_report_shows_the_numbers_and_the_summary(tmp_path: Path) -> None:
    result = run("demo", "--out", tmp_path, "--sample", SAMPLE, "--budget", "4000")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "calls over the budget" in out and "compaction events" in out
    assert "summary generation" in out and "[Summary of messages" in out
    for name in ("demo.sqlite", "demo.png", "demo.html"):
        assert str(tmp_path / name) in out
    # the numbers in the table are the run's: every call under the budget
    row = next(line for line in out.splitlines() if "calls over the budget" in line)
    assert row.split("│")[-2].strip() == "0"


def test_demo_model_without_provider_is_one_line(tmp_path: Path) -> None:
    result = run("demo", "--out", tmp_path, "--model", "no-such-provider:model-x")
    assert_bad_input(result, "--model no-such-provider:model-x")
    assert not (tmp_path / "demo.sqlite").exists()


def test_demo_model_without_langchain_names_the_extra(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "langchain.chat_models", None)
    result = run("demo", "--out", tmp_path, "--model", "openai:gpt-4o-mini")
    assert_bad_input(result, "langgraph-compact[agents]")


def test_demo_rejects_an_unknown_sample(tmp_path: Path) -> None:
    result = run("demo", "--out", tmp_path, "--sample", "nope")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "nope" in result.stderr


def test_the_module_runs_as_a_real_process(tmp_path: Path) -> None:
    """``python -m langgraph_compact``: the same command, as a shell would start it."""
    import subprocess

    ok = subprocess.run(
        [sys.executable, "-m", "langgraph_compact", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0 and "langgraph-compact" in ok.stdout, ok
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"role": "user", "content": "hi"}\n{oops\n')
    failed = subprocess.run(
        [
            sys.executable,
            "-m",
            "langgraph_compact",
            "replay",
            str(bad),
            "--chart",
            str(tmp_path / "c.png"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert failed.returncode == 2, failed
    assert failed.stderr.strip().splitlines() == [
        f"Error: {bad}:2: not valid JSON (Expecting property name enclosed in double quotes)"
    ]


def test_a_failing_summary_model_falls_back_and_is_reported(tmp_path: Path, capsys) -> None:
    from typing import Any

    from langchain_core.language_models import BaseChatModel
    from langchain_core.outputs import ChatResult

    from langgraph_compact.cli.render import demo_report
    from langgraph_compact.cli.views import view_of_run
    from langgraph_compact.compaction import ChatModelSummarizer
    from langgraph_compact.replay.demo import run_demo

    class Down(BaseChatModel):
        @property
        def _llm_type(self) -> str:
            return "down"

        def _generate(
            self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
        ) -> ChatResult:
            raise RuntimeError("provider is down")

    run = run_demo(
        tmp_path / "d.sqlite",
        sample=SAMPLE,
        budget_tokens=4000,
        summarizer=ChatModelSummarizer(model=Down()),
    )
    assert run.error is None and run.over_budget == 0 and run.lost == 0
    assert run.summary is not None and run.summary.generation >= 1  # extractive took over
    demo_report(run, view_of_run(run, title="t", source="s"), {})
    captured = capsys.readouterr()
    assert "summarizer failures (fell back to extractive)" in captured.out
    assert "provider is down" in captured.err
