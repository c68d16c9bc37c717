"""Where the benches find the corpus: ``tests/data/corpus`` of this checkout."""

from __future__ import annotations

from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"


def corpus_files() -> list[Path]:
    """The corpus trajectory files, sorted by name (the benches replay all of them)."""
    return sorted(CORPUS_DIR.glob("*.jsonl"))
