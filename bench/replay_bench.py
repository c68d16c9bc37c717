"""``langgraph-compact replay`` on the whole corpus: five strategies, budgets 8,000 and 4,000.

The command itself runs (in-process, through click): every trajectory in
``tests/data/corpus`` through ours (``CompactionNode``), LangMem's ``SummarizationNode``,
LangChain's ``SummarizationMiddleware``, ``trim_messages`` and the full history, in a real
graph, with the deterministic stand-in summarizer model. Its Markdown report is the README
block; its chart is ``docs/replay.png``. About a minute on 2 cores.

Run ``python bench/replay_bench.py [--write-readme]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _corpus import CORPUS_DIR
from _report import ROOT, captured, publish

from langgraph_compact.cli import main as cli

CHART = ROOT / "docs" / "replay.png"


def run(chart: Path = CHART) -> None:
    """Print the command's report for the whole corpus."""
    started = time.perf_counter()
    args = ["replay", str(CORPUS_DIR), "--budget", "8000,4000", "--chart", str(chart)]
    cli.main(args, prog_name="langgraph-compact", standalone_mode=False)
    shown = " ".join(["replay", "tests/data/corpus", *args[2:4]])
    print(f"\n`langgraph-compact {shown}`: {time.perf_counter() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-readme", action="store_true", help="publish to README.md")
    args = parser.parse_args()
    with captured() as out:
        run()
    if args.write_readme:
        publish("replay", out.getvalue())


if __name__ == "__main__":
    main()
