"""Load the JSON-lines agent trajectories used by the tests, benchmarks and notebooks.

Format (see ``tests/data/corpus/README.md``): one message per line with ``role``,
``content`` and, for assistants, ``tool_calls``; tool messages carry ``tool_call_id`` and
``name``. Ids are assigned deterministically (``<stem>-<index>``) so runs are repeatable.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

__all__ = ["CORPUS_DIR", "corpus_files", "load_trajectory"]

CORPUS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"


def corpus_files(directory: Path | str = CORPUS_DIR) -> list[Path]:
    """The trajectory files in ``directory``, sorted by name."""
    return sorted(Path(directory).glob("*.jsonl"))


def load_trajectory(path: Path | str) -> list[BaseMessage]:
    """Read one trajectory file into LangChain messages with stable ids."""
    path = Path(path)
    out: list[BaseMessage] = []
    with path.open(encoding="utf-8") as f:
        for i, line in enumerate(f):
            row = json.loads(line)
            mid = f"{path.stem}-{i}"
            role, content = row["role"], row.get("content") or ""
            if role == "system":
                out.append(SystemMessage(content, id=mid))
            elif role == "user":
                out.append(HumanMessage(content, id=mid))
            elif role == "assistant":
                calls = [
                    {"id": c["id"], "name": c["name"], "args": c.get("args") or {}}
                    for c in row.get("tool_calls") or []
                ]
                out.append(AIMessage(content, tool_calls=calls, id=mid))
            elif role == "tool":
                out.append(
                    ToolMessage(
                        content, tool_call_id=row["tool_call_id"], name=row.get("name"), id=mid
                    )
                )
            else:
                raise ValueError(f"{path.name}:{i + 1}: unknown role {role!r}")
    return out
