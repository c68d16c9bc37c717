"""Read recorded conversations into LangChain messages, and the sample runs that ship with us.

Three input shapes are recognised, per file and per line:

- the corpus JSON Lines format (``tests/data/corpus/README.md``): one message per line
  with ``role``, ``content``, ``tool_calls`` (``id``/``name``/``args``), ``tool_call_id``;
- OpenAI chat-completions messages (``tool_calls[].function.arguments`` as a JSON
  string, content parts), as a JSON list, a request body ``{"messages": [...]}``, a list of
  such bodies, or JSON Lines of messages or of bodies (one conversation per line);
- a LangChain messages dump: ``messages_to_dict`` (``{"type", "data"}``) or ``dumpd``
  (``{"lc": 1, ...}``) records.

Messages without an id get ``<file stem>-<index>`` so replays are repeatable. A line that
cannot be read raises ``InputFormatError`` naming the file, the line and what is wrong.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from langchain_core.load import load
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_from_dict,
)

from langgraph_compact.errors import InputFormatError

__all__ = [
    "SAMPLES",
    "Trajectory",
    "load_trajectory",
    "read_trajectories",
    "sample_path",
    "to_record",
    "write_jsonl",
]

SAMPLES = (
    "mini-swe-agent-test-django__django-11099",
    "mini-swe-agent-test-django__django-11797",
    "mini-swe-agent-test-astropy__astropy-12907",
    "swe-agent-demo-ctf-crypto-eps",
)
"""Real runs shipped as package data (MIT; see ``langgraph_compact/data/ATTRIBUTION.md``)."""


@dataclass(frozen=True)
class Trajectory:
    """One recorded conversation: a name for reports and its messages in order."""

    name: str
    messages: list[BaseMessage]


def sample_path(name: str = SAMPLES[0]) -> Path:
    """Path of a shipped sample trajectory, by stem (one of ``SAMPLES``)."""
    if name not in SAMPLES:
        raise InputFormatError(f"no sample trajectory {name!r}; choose one of {', '.join(SAMPLES)}")
    return Path(str(resources.files("langgraph_compact") / "data" / f"{name}.jsonl"))


def load_trajectory(path: Path | str) -> list[BaseMessage]:
    """The messages of a file holding exactly one conversation (any supported shape)."""
    found = read_trajectories(path)
    if len(found) != 1:
        raise InputFormatError(f"{path}: holds {len(found)} conversations, expected one")
    return found[0].messages


def read_trajectories(path: Path | str) -> list[Trajectory]:
    """Every conversation in ``path``; see the module docstring for the shapes.

    Raises:
        InputFormatError: the file is missing, empty, or a line is not a message.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"{path}: cannot read ({exc.__class__.__name__}: {exc})") from exc
    if not text.strip():
        raise InputFormatError(f"{path}: the file is empty")
    whole = _whole_json(text) if path.suffix != ".jsonl" else None
    if whole is not None:
        return list(_from_json(path, whole))
    return _from_lines(path, text)


def _whole_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None  # JSON Lines, or broken: the line reader says which line


def _from_json(path: Path, value: Any) -> Iterator[Trajectory]:
    if isinstance(value, dict) and "messages" in value:
        value = [value]
    if not isinstance(value, list) or not value:
        raise InputFormatError(f"{path}: expected a list of messages or {{'messages': [...]}}")
    if all(isinstance(v, dict) and "messages" in v for v in value):
        conversations = [v["messages"] for v in value]
    elif all(isinstance(v, list) for v in value):
        conversations = value
    else:
        conversations = [value]
    for k, rows in enumerate(conversations):
        name = path.stem if len(conversations) == 1 else f"{path.stem}#{k + 1}"
        yield Trajectory(name, _messages(path, rows, None if len(conversations) == 1 else k + 1))


def _from_lines(path: Path, text: str) -> list[Trajectory]:
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    if all(isinstance(row, dict) and "messages" in row for _, row in rows):
        return [
            Trajectory(f"{path.stem}:{n}", _messages(path, row["messages"], n)) for n, row in rows
        ]
    stem = path.stem
    out: list[BaseMessage] = []
    calls: dict[str, str] = {}
    for index, (number, row) in enumerate(rows):
        out.append(_message(row, f"{stem}-{index}", calls, f"{path}:{number}"))
    return [Trajectory(stem, out)]


def _messages(path: Path, rows: Any, line: int | None) -> list[BaseMessage]:
    where = f"{path}:{line}" if line else str(path)
    if not isinstance(rows, list) or not rows:
        raise InputFormatError(f"{where}: 'messages' must be a non-empty list")
    calls: dict[str, str] = {}
    tag = f"{path.stem}-{line}" if line else path.stem
    return [
        _message(row, f"{tag}-{i}", calls, f"{where} (message {i + 1})")
        for i, row in enumerate(rows)
    ]


def _message(row: Any, default_id: str, calls: dict[str, str], where: str) -> BaseMessage:
    """One record of any supported shape; ``calls`` maps tool-call ids to tool names."""
    if not isinstance(row, dict):
        raise InputFormatError(f"{where}: expected a JSON object, got {type(row).__name__}")
    try:
        if row.get("lc") == 1:
            with warnings.catch_warnings():  # load() is marked beta; messages are stable
                warnings.filterwarnings("ignore", message=".*is in beta")
                message = load(row, allowed_objects="messages")
        elif "data" in row and "type" in row:
            message = messages_from_dict([row])[0]
        elif "role" in row:
            message = _from_role(row, default_id, calls)
        else:
            raise InputFormatError("no 'role', LangChain 'type'/'data' or 'lc' key")
    except InputFormatError as exc:
        raise InputFormatError(f"{where}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise InputFormatError(
            f"{where}: not a message ({exc.__class__.__name__}: {exc})"
        ) from None
    if not isinstance(message, BaseMessage):
        raise InputFormatError(f"{where}: decodes to {type(message).__name__}, not a message")
    if message.id is None:
        message.id = default_id
    if isinstance(message, AIMessage):
        calls.update({c["id"] or "": c["name"] for c in message.tool_calls})
    return message


def _from_role(row: dict[str, Any], mid: str, calls: dict[str, str]) -> BaseMessage:
    role, content = row["role"], row.get("content") or ""
    mid = row.get("id") or mid
    if role in ("system", "developer"):
        return SystemMessage(content, id=mid)
    if role in ("user", "human"):
        return HumanMessage(content, id=mid)
    if role in ("assistant", "ai"):
        return AIMessage(
            content, tool_calls=[_tool_call(c) for c in row.get("tool_calls") or []], id=mid
        )
    if role == "tool":
        call_id = row.get("tool_call_id")
        if not call_id:
            raise InputFormatError("tool message has no 'tool_call_id'")
        name = row.get("name") or calls.get(call_id)
        return ToolMessage(content, tool_call_id=call_id, name=name, id=mid)
    raise InputFormatError(f"unknown role {role!r} (system, user, assistant or tool)")


def _tool_call(call: Any) -> dict[str, Any]:
    if not isinstance(call, dict) or not call.get("id"):
        raise InputFormatError("a tool call has no 'id'")
    if "function" in call:  # OpenAI: {"function": {"name", "arguments": "<json>"}}
        function = call["function"]
        raw = function.get("arguments") or "{}"
        try:
            args = json.loads(raw) if isinstance(raw, str) else raw
        except json.JSONDecodeError:
            raise InputFormatError(
                f"tool call {call['id']!r} has arguments that are not JSON: {raw[:60]!r}"
            ) from None
        return {"id": call["id"], "name": function["name"], "args": args or {}}
    return {"id": call["id"], "name": call["name"], "args": call.get("args") or {}}


def to_record(message: BaseMessage) -> dict[str, Any]:
    """One message in the corpus format, with its id (what ``read_trajectories`` reads back)."""
    role = {"human": "user", "ai": "assistant"}.get(message.type, message.type)
    record: dict[str, Any] = {"role": role, "content": message.content, "id": message.id}
    if isinstance(message, AIMessage) and message.tool_calls:
        record["tool_calls"] = [
            {"id": c["id"], "name": c["name"], "args": c["args"]} for c in message.tool_calls
        ]
    if isinstance(message, ToolMessage):
        record["tool_call_id"] = message.tool_call_id
        record["name"] = message.name
    return record


def write_jsonl(messages: list[BaseMessage]) -> str:
    """Messages as corpus-format JSON Lines."""
    return "".join(json.dumps(to_record(m), ensure_ascii=False) + "\n" for m in messages)
