"""``langgraph-compact replay``: the comparison harness on the user's files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import assert_bad_input, openai_messages, run
from corpus import CORPUS_DIR
from langchain_core.messages import messages_to_dict

from langgraph_compact.trajectories import load_trajectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import compare_bench as bench

SUBSET = [
    CORPUS_DIR / "swe-agent-demo-ctf-crypto-eps.jsonl",
    CORPUS_DIR / "tau-bench-airline-gpt-4o-task008-trial1.jsonl",
]
FIELDS = (
    "model_calls",
    "input_tokens",
    "max_input",
    "over_budget",
    "events",
    "summarizer_calls",
    "summarizer_input_tokens",
    "lost",
)


def replay_json(tmp_path: Path, *args: str | Path) -> list[dict]:
    out = tmp_path / "report.json"
    result = run("replay", *args, "--format", "json", "-o", out, "--chart", tmp_path / "c.png")
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(out.read_text(encoding="utf-8"))


def test_replay_numbers_equal_compare_bench(tmp_path: Path) -> None:
    rows = replay_json(
        tmp_path, *SUBSET, "--budget", "8000,4000", "--strategy", "ours,ours+llm,langmem,middleware"
    )
    assert len(rows) == 8
    for row in rows:
        expected = bench.replay_corpus(row["strategy"], row["budget"], SUBSET)
        assert expected.errors == [] and row["errors"] == []
        assert {f: row[f] for f in FIELDS} == {f: getattr(expected, f) for f in FIELDS}, row
    by = {(r["strategy"], r["budget"]): r for r in rows}
    assert by[("ours", 4000)]["events"] >= 1  # the subset is big enough to compact


def test_every_default_strategy_with_chart_and_progress(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    result = run("replay", SUBSET[0], "--budget", "4000", "--chart", chart)
    assert result.exit_code == 0, result.output
    report = result.stdout
    for name in ("ours", "langmem", "middleware", "trim", "full"):
        assert f"| 4,000 | {name} |" in report, name
    assert "replays" in result.stderr and "5/5" in result.stderr  # the progress bar, finished
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 10_000


def test_full_is_the_raw_history_and_trim_stays_in_budget(tmp_path: Path) -> None:
    rows = replay_json(tmp_path, *SUBSET, "--budget", "4000", "--strategy", "trim,full,ours")
    by = {r["strategy"]: r for r in rows}
    assert by["full"]["input_tokens"] == by["full"]["raw_tokens"] == by["ours"]["raw_tokens"]
    assert by["full"]["vs_full"] == 1.0 and by["full"]["over_budget"] > 0
    assert by["trim"]["max_input"] <= 4000 and by["trim"]["lost"] == 0
    assert by["ours"]["max_input"] <= 4000 and by["ours"]["gaps"] == 0
    assert by["ours"]["violations"] == 0 and by["ours"]["vs_full"] < 1.0
    assert by["ours"]["task_kept"] == by["ours"]["model_calls"]  # the head keeps the request
    assert by["trim"]["task_kept"] < by["trim"]["model_calls"]  # trimming drops it


def test_probes_report_what_the_last_input_still_held(tmp_path: Path) -> None:
    trajectory = load_trajectory(SUBSET[0])
    task = trajectory[1].text[:40]  # the first request: our head keeps it
    last_call = max(i for i, m in enumerate(trajectory) if m.type == "ai")
    late = trajectory[last_call - 1].text[:30]  # the last thing the model read
    rows = replay_json(
        tmp_path,
        SUBSET[0],
        "--budget",
        "4000",
        "--strategy",
        "ours,full",
        "--probe",
        task,
        "--probe",
        late,
        "--probe",
        "no such text anywhere",
    )
    for row in rows:
        assert row["probes"][task] == [1, 1], row["strategy"]
        assert row["probes"]["no such text anywhere"] == [0, 0]
        assert row["probes"][late][0] == 1


def test_openai_and_langchain_files_replay_like_the_corpus_file(tmp_path: Path) -> None:
    messages = load_trajectory(SUBSET[0])
    stem = SUBSET[0].stem  # same file name, same default ids: markers and refs are identical
    for folder in ("body", "lines", "dump"):
        (tmp_path / folder).mkdir()
    body = tmp_path / "body" / f"{stem}.json"
    body.write_text(json.dumps({"model": "gpt-4o", "messages": openai_messages(messages)}))
    lines = tmp_path / "lines" / f"{stem}.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in openai_messages(messages)))
    dump = tmp_path / "dump" / f"{stem}.json"
    dump.write_text(json.dumps(messages_to_dict(messages)))
    reference = replay_json(tmp_path, SUBSET[0], "--budget", "4000", "--strategy", "ours")[0]
    for path in (body, lines, dump):
        row = replay_json(tmp_path, path, "--budget", "4000", "--strategy", "ours")[0]
        assert row["trajectories"] == 1, path
        assert row["input_tokens"] == reference["input_tokens"], path
        assert row["model_calls"] == reference["model_calls"], path


def test_a_folder_replays_every_file_in_it(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    for path in SUBSET:
        (folder / path.name).write_bytes(path.read_bytes())
    row = replay_json(tmp_path, folder, "--budget", "8000", "--strategy", "ours")[0]
    assert row["trajectories"] == 2


def test_a_missing_package_skips_its_strategy_in_one_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "langchain", None)
    result = run(
        "replay",
        SUBSET[0],
        "--budget",
        "4000",
        "--strategy",
        "ours,middleware",
        "--chart",
        tmp_path / "c.png",
    )
    assert result.exit_code == 0, result.output
    skipped = [line for line in result.stderr.splitlines() if line.startswith("skipped")]
    assert skipped == [
        "skipped middleware: needs langchain (pip install 'langgraph-compact[agents]')"
    ]
    assert "| ours |" in result.stdout and "| middleware |" not in result.stdout


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        (
            '{"role": "user", "content": "hi"}\n{"role": "assistant", "content": \n',
            [":2:", "not valid JSON"],
        ),
        ('{"role": "user", "content": "hi"}\n{"who": "me"}\n', [":2:", "no 'role'"]),
        ('{"role": "wizard", "content": "hi"}\n', [":1:", "unknown role 'wizard'"]),
        ('{"role": "tool", "content": "x"}\n', [":1:", "tool_call_id"]),
        (
            '{"role": "assistant", "content": "", "tool_calls": [{"name": "x"}]}\n',
            [":1:", "no 'id'"],
        ),
        ("", ["empty"]),
        ('{"model": "gpt-4o"}', ["expected a list of messages"]),
    ],
    ids=[
        "broken-json",
        "unknown-shape",
        "unknown-role",
        "orphan-tool",
        "call-without-id",
        "empty",
        "no-messages",
    ],
)
def test_bad_files_are_one_line_naming_file_and_line(tmp_path: Path, content: str, needles) -> None:
    suffix = ".json" if content.startswith('{"model"') else ".jsonl"
    path = tmp_path / f"bad{suffix}"
    path.write_text(content)
    result = run("replay", path, "--chart", tmp_path / "c.png")
    assert_bad_input(result, str(path), *needles)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["nowhere.jsonl"], ["nowhere.jsonl", "cannot read"]),
        ([str(SUBSET[0]), "--strategy", "ours,magic"], ["unknown strategy magic"]),
        ([str(SUBSET[0]), "--budget", "lots"], ["'lots'"]),
        ([str(SUBSET[0]), "--budget", "10"], ["below 1,000"]),
    ],
    ids=["missing-file", "unknown-strategy", "budget-not-a-number", "budget-too-small"],
)
def test_bad_arguments_are_one_line(tmp_path: Path, args: list[str], needles) -> None:
    assert_bad_input(run("replay", *args, "--chart", tmp_path / "c.png"), *needles)


def test_an_empty_folder_is_bad_input(tmp_path: Path) -> None:
    assert_bad_input(run("replay", tmp_path, "--chart", tmp_path / "c.png"), "no .jsonl or .json")
