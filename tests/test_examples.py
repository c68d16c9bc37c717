"""The worked example runs and shows what it claims."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_coding_agent_example(tmp_path: Path) -> None:
    report = _load("coding_agent").main(tmp_path / "agent.sqlite")
    assert report["history_is_intact"] is True
    assert report["peak_model_input_tokens"] <= 8_000 < report["raw_tokens"]
    assert report["summary_generation"] >= 1
    assert report["recall_sample"].startswith("[ref=mini-swe-agent-test-django__django-11099-5")
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    assert report["summary"] + "\n" in readme, (
        "the README's example summary is stale: run python examples/coding_agent.py --write-readme"
    )
