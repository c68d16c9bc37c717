"""The repository's trajectory corpus (``tests/data/corpus``), for tests only.

The library reads any file (``langgraph_compact.trajectories``); this module only knows
where the corpus lives in a checkout. Installed packages ship a few samples instead.
"""

from __future__ import annotations

from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent / "data" / "corpus"


def corpus_files() -> list[Path]:
    """The corpus trajectory files, sorted by name."""
    return sorted(CORPUS_DIR.glob("*.jsonl"))
