"""Docs that cannot rot: README benchmark blocks are exactly what a bench run published."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from _report import README, RESULTS_DIR, publish, readme_blocks

README_TEXT = README.read_text(encoding="utf-8")
BLOCKS = readme_blocks(README_TEXT)


def test_readme_has_bench_blocks() -> None:
    assert {"fold", "compare", "storage"} <= set(BLOCKS), sorted(BLOCKS)


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_readme_block_equals_its_published_results(name: str) -> None:
    path = RESULTS_DIR / f"{name}.json"
    assert path.exists(), f"no {path.name}: run the bench with --write-readme"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert BLOCKS[name] == record["text"], (
        f"README block {name!r} differs from {path.name}; rerun the bench with --write-readme"
    )


def test_publish_replaces_only_its_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import _report

    monkeypatch.setattr(_report, "RESULTS_DIR", tmp_path / "results")
    readme = tmp_path / "README.md"
    readme.write_text(
        "intro\n<!-- bench:a -->\n```text\nold a\n```\n<!-- /bench:a -->\nmiddle\n"
        "<!-- bench:b -->\n```text\nold b\n```\n<!-- /bench:b -->\n",
        encoding="utf-8",
    )
    publish("a", "new a\nline 2", {"x": 1}, readme=readme)
    text = readme.read_text(encoding="utf-8")
    assert readme_blocks(text) == {"a": "new a\nline 2\n", "b": "old b\n"}
    assert text.startswith("intro\n") and "middle\n" in text
    saved = json.loads((tmp_path / "results" / "a.json").read_text(encoding="utf-8"))
    assert saved["data"] == {"x": 1} and saved["text"] == "new a\nline 2\n"
    with pytest.raises(ValueError, match="no block for 'c'"):
        publish("c", "x", readme=readme)


def test_cli_reference_is_the_commands_help() -> None:
    from langgraph_compact.cli.reference import BLOCK, reference

    found = BLOCK.search(README_TEXT)
    assert found, "README has no <!-- cli:reference --> block"
    assert found.group("body") == reference(), (
        "README CLI reference is stale: python -m langgraph_compact.cli.reference README.md"
    )


def test_readme_front_door_commands_and_picture() -> None:
    from langgraph_compact.cli import main

    blocks = {
        name: re.search(
            rf"<!-- ci:{name} -->\n```bash\n(.+?)\n```\n<!-- /ci:{name} -->", README_TEXT
        )
        for name in ("demo", "test")
    }
    assert all(blocks.values()), "README lacks the ci:demo / ci:test command blocks"
    assert "langgraph-compact demo" in blocks["demo"].group(1)
    assert "pytest" in blocks["test"].group(1)
    first_screen = README_TEXT[: README_TEXT.index("## Try it")]
    assert "![" in first_screen and "docs/demo/demo.png" in first_screen
    for image in ("docs/demo/demo.png", "docs/replay.png"):
        assert image in README_TEXT, image
        assert (README.parent / image).read_bytes()[:4] == b"\x89PNG", image
    for name in main.commands:
        assert f"#### `langgraph-compact {name}`" in README_TEXT, name
