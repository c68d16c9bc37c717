"""The CLI reference in the README, generated from ``--help`` (``tests/test_docs.py`` checks it).

Regenerate: ``python -m langgraph_compact.cli.reference README.md``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from langgraph_compact.cli.app import main

__all__ = ["BLOCK", "reference", "write_reference"]

BLOCK = re.compile(r"(<!-- cli:reference -->\n)(?P<body>.*?)(<!-- /cli:reference -->)", re.DOTALL)


def reference() -> str:
    """Every command's ``--help``, as Markdown: one heading and one text block each."""
    root = main.make_context("langgraph-compact", [], resilient_parsing=True)
    parts = [("langgraph-compact", main.get_help(root))]
    for name, command in main.commands.items():
        ctx = command.make_context(name, [], parent=root, resilient_parsing=True)
        parts.append((f"langgraph-compact {name}", command.get_help(ctx)))
    return "".join(f"#### `{title}`\n\n```text\n{text}\n```\n\n" for title, text in parts)


def write_reference(readme: Path) -> None:
    """Replace the README's block between ``<!-- cli:reference -->`` and its end marker."""
    text = readme.read_text(encoding="utf-8")
    if not BLOCK.search(text):
        raise SystemExit(f"{readme}: no <!-- cli:reference --> ... <!-- /cli:reference --> block")
    updated = BLOCK.sub(lambda m: m.group(1) + reference() + m.group(3), text, count=1)
    readme.write_text(updated, encoding="utf-8")


if __name__ == "__main__":
    write_reference(Path(sys.argv[1] if len(sys.argv) > 1 else "README.md"))
