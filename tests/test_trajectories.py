"""Reading recorded conversations: every supported shape, the shipped samples, bad files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_helpers import openai_messages
from corpus import CORPUS_DIR, corpus_files
from langchain_core.load import dumpd
from langchain_core.messages import BaseMessage, messages_to_dict

from langgraph_compact.compaction import protocol_violations
from langgraph_compact.errors import InputFormatError
from langgraph_compact.trajectories import (
    SAMPLES,
    load_trajectory,
    read_trajectories,
    sample_path,
    write_jsonl,
)


def _same(a: list[BaseMessage], b: list[BaseMessage]) -> None:
    assert [(m.type, m.content) for m in a] == [(m.type, m.content) for m in b]
    assert [getattr(m, "tool_calls", None) for m in a] == [
        getattr(m, "tool_calls", None) for m in b
    ]
    assert [getattr(m, "tool_call_id", None) for m in a] == [
        getattr(m, "tool_call_id", None) for m in b
    ]
    assert [getattr(m, "name", None) for m in a] == [getattr(m, "name", None) for m in b]


@pytest.mark.parametrize("name", SAMPLES)
def test_shipped_samples_are_real_corpus_files(name: str) -> None:
    shipped = sample_path(name)
    assert shipped.read_bytes() == (CORPUS_DIR / f"{name}.jsonl").read_bytes()
    messages = load_trajectory(shipped)
    assert protocol_violations(messages) == []
    assert [m.id for m in messages] == [f"{name}-{i}" for i in range(len(messages))]
    assert (shipped.parent / "ATTRIBUTION.md").read_text(encoding="utf-8").count(name) == 1


def test_unknown_sample_names_the_choices() -> None:
    with pytest.raises(InputFormatError, match="choose one of"):
        sample_path("nope")


# Eight corpus files drawn at random (seeded per run of the suite, printed on failure).
SEED = random.randrange(1 << 30)
PICKED = random.Random(SEED).sample(corpus_files(), 8)


@pytest.mark.parametrize("path", PICKED, ids=lambda p: f"{p.stem}-seed{SEED}")
def test_every_shape_reads_back_the_same_conversation(path: Path, tmp_path: Path) -> None:
    original = load_trajectory(path)
    shapes = {
        "export.jsonl": write_jsonl(original),
        "openai.json": json.dumps(openai_messages(original)),
        "openai-body.json": json.dumps({"model": "x", "messages": openai_messages(original)}),
        "openai-lines.jsonl": "".join(json.dumps(r) + "\n" for r in openai_messages(original)),
        "langchain.json": json.dumps(messages_to_dict(original)),
        "dumpd.jsonl": "".join(json.dumps(dumpd(m)) + "\n" for m in original),
    }
    for name, text in shapes.items():
        file = tmp_path / name
        file.write_text(text, encoding="utf-8")
        (found,) = read_trajectories(file)
        _same(found.messages, original)
        if name in ("export.jsonl", "langchain.json", "dumpd.jsonl"):  # ids travel along
            assert [m.id for m in found.messages] == [m.id for m in original], name


def test_many_conversations_in_one_file(tmp_path: Path) -> None:
    a, b = (load_trajectory(sample_path(n)) for n in SAMPLES[2:4])
    lines = tmp_path / "log.jsonl"
    lines.write_text(
        json.dumps({"messages": openai_messages(a)})
        + "\n"
        + json.dumps({"messages": openai_messages(b)})
        + "\n"
    )
    found = read_trajectories(lines)
    assert [t.name for t in found] == ["log:1", "log:2"]
    _same(found[0].messages, a)
    _same(found[1].messages, b)
    assert found[0].messages[0].id != found[1].messages[0].id  # ids stay unique per file
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([openai_messages(a), openai_messages(b)]))
    assert [len(t.messages) for t in read_trajectories(listed)] == [len(a), len(b)]
    with pytest.raises(InputFormatError, match="2 conversations, expected one"):
        load_trajectory(lines)


def test_a_damaged_line_names_its_number(tmp_path: Path) -> None:
    rows = write_jsonl(load_trajectory(sample_path(SAMPLES[3]))).splitlines()
    k = random.Random(SEED).randrange(1, len(rows))
    rows[k] = rows[k][: len(rows[k]) // 2]
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(InputFormatError, match=rf"cut\.jsonl:{k + 1}: not valid JSON"):
        read_trajectories(path)


def test_arguments_that_are_not_json_are_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{oops"}}
    path.write_text(
        json.dumps({"role": "user", "content": "go"})
        + "\n"
        + json.dumps({"role": "assistant", "content": "", "tool_calls": [call]})
        + "\n"
    )
    with pytest.raises(InputFormatError, match=r"bad\.jsonl:2: tool call 'c1' has arguments"):
        read_trajectories(path)


def test_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match="cannot read"):
        read_trajectories(tmp_path / "missing.jsonl")
