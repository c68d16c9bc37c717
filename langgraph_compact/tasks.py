"""Task state: a typed to-do list that survives compaction and rotation.

The list lives in graph state (``tasks``, a ``TaskList``). Two writers keep it current:
the model, through the ``update_tasks`` tool (``make_task_tool``), and the conversation
itself — ``refresh_tasks`` reads markdown checklists (``- [ ] ...``, ``- [x] ...``),
``TODO:`` lines of the user, and the arguments of every ``update_tasks`` or ``write_todos``
call (LangChain's and deepagents' to-do tools), from the messages it has not read yet.
After a compaction the summary may have swallowed the turns that set the list, so
``task_block`` renders it as one message that the compaction node places right after
the summary: counted in the budget, one block, never stacked.

Example:
    >>> from langchain_core.messages import HumanMessage
    >>> raw = [HumanMessage("Plan:\\n- [x] reproduce the bug\\n- [ ] write the fix", id="h1")]
    >>> tasks, changed = refresh_tasks(None, raw)
    >>> changed, [(t.content, t.status) for t in tasks.tasks]
    (True, [('reproduce the bug', 'completed'), ('write the fix', 'pending')])
    >>> print(render_tasks(tasks))
    [Task list: 1 open of 2. Keep it current with the update_tasks tool.]
    - [ ] write the fix
    - [x] reproduce the bug
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool
from langgraph.prebuilt import InjectedState
from langgraph.types import Command
from pydantic import BaseModel, ConfigDict, Field

from langgraph_compact.errors import TaskUpdateError
from langgraph_compact.messages import message_text

__all__ = [
    "OPEN_STATUSES",
    "TASK_BLOCK_ID",
    "TASK_TOOL_NAMES",
    "Task",
    "TaskList",
    "TaskStatus",
    "TaskUpdateError",
    "coerce_tasks",
    "make_task_tool",
    "refresh_tasks",
    "render_tasks",
    "task_block",
]

TaskStatus = Literal["pending", "in_progress", "blocked", "completed", "cancelled"]
OPEN_STATUSES: frozenset[str] = frozenset({"pending", "in_progress", "blocked"})
TASK_TOOL_NAMES = frozenset({"update_tasks", "write_todos"})
"""Tool calls whose ``tasks``/``todos`` argument replaces the whole list."""
TASK_BLOCK_ID = "langgraph-compact-tasks"
"""Id of the task block in a projection (stable, so the block is one message)."""
TASK_NOTE = "tasks"
"""``additional_kwargs["langgraph_compact_note"]`` of the task block."""
MAX_TASK_CHARS = 300
"""A task's text is cut to this many characters when it is recorded."""
DONE_SHOWN = 5
"""Most completed tasks the block shows (the latest); open tasks are always shown."""

_MARKS = {"pending": " ", "in_progress": "~", "blocked": "!", "completed": "x", "cancelled": "-"}
_STATUS_OF_MARK = {" ": "pending", "": "pending", "x": "completed", "X": "completed"}
_STATUS_OF_MARK |= {"~": "in_progress", "/": "in_progress", "!": "blocked", "-": "cancelled"}
_CHECKBOX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX~/!-]?)\]\s+(\S.*?)\s*$")
_TODO = re.compile(r"^\s*(?:[-*+]\s+)?TODO:\s*(\S.*?)\s*$")
_SPACE = re.compile(r"\s+")


class Task(BaseModel):
    """One to-do item: what to do, where it stands, and the messages that set it."""

    model_config = ConfigDict(frozen=True)

    content: str
    status: TaskStatus = "pending"
    sources: tuple[str, ...] = ()
    """Ids of the messages that created or last changed the task."""

    @property
    def key(self) -> str:
        """Identity of the task: its text, case and spacing folded."""
        return _key(self.content)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class TaskList(BaseModel):
    """The thread's task list plus how far the conversation has been read for it."""

    model_config = ConfigDict(frozen=True)

    tasks: tuple[Task, ...] = ()
    scanned_through: int = 0
    """Raw messages ``[0, scanned_through)`` have been read for task updates."""
    last_scanned_id: str | None = None
    """Id of message ``scanned_through - 1``: an edited history is read again."""

    def open(self) -> list[Task]:
        """The tasks still to do (pending, in progress or blocked), in list order."""
        return [t for t in self.tasks if t.is_open]


def _key(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def _task(content: object, status: object, source: str | None) -> Task:
    text = _SPACE.sub(" ", str(content)).strip()[:MAX_TASK_CHARS]
    if not text:
        raise TaskUpdateError("a task needs a non-empty content")
    value = str(status or "pending").strip().lower().replace(" ", "_").replace("-", "_")
    value = {"done": "completed", "todo": "pending", "in progress": "in_progress"}.get(value, value)
    if value not in _MARKS:
        raise TaskUpdateError(
            f"task {text[:60]!r} has status {status!r}; use one of {', '.join(_MARKS)}"
        )
    return Task(content=text, status=value, sources=(source,) if source else ())  # type: ignore[arg-type]


def coerce_tasks(value: object) -> TaskList:
    """A ``TaskList`` from what a state key may hold: a ``TaskList``, its dict, a list of
    ``Task``\\ s or of ``{"content", "status"}`` dicts (LangChain's and deepagents' ``todos``).

    Raises:
        TaskUpdateError: an entry is not a task.
    """
    if value is None:
        return TaskList()
    if isinstance(value, TaskList):
        return value
    if isinstance(value, Mapping):
        return TaskList.model_validate(value)
    if not isinstance(value, Iterable) or isinstance(value, str | bytes):
        raise TaskUpdateError(f"a task list must be a TaskList or a list, not {type(value)!r}")
    tasks: list[Task] = []
    for item in value:
        if isinstance(item, Task):
            tasks.append(item)
        elif isinstance(item, Mapping):
            tasks.append(_task(item.get("content"), item.get("status"), None))
        else:
            raise TaskUpdateError(f"a task must be a Task or a mapping, not {type(item)!r}")
    return TaskList(tasks=tuple(tasks))


def _merge(tasks: list[Task], update: Task) -> list[Task]:
    """``tasks`` with ``update`` added, or its status given to the task with the same text
    (which keeps its wording)."""
    for i, task in enumerate(tasks):
        if task.key == update.key:
            if task.status == update.status:
                return tasks
            changed = task.model_copy(update={"status": update.status, "sources": update.sources})
            return [*tasks[:i], changed, *tasks[i + 1 :]]
    return [*tasks, update]


def _tool_tasks(args: Mapping[str, Any], source: str) -> list[Task] | None:
    """The full list a to-do tool call sets, or None when its arguments hold none."""
    listed = args.get("tasks", args.get("todos"))
    if isinstance(listed, str):
        try:
            listed = json.loads(listed)
        except ValueError:
            return None
    if not isinstance(listed, list):
        return None
    out: list[Task] = []
    for item in listed:
        if isinstance(item, Mapping) and str(item.get("content") or "").strip():
            try:
                out = _merge(out, _task(item["content"], item.get("status"), source))
            except TaskUpdateError:
                continue  # a malformed entry the tool itself rejected; the rest stands
    return out


def _text_updates(message: BaseMessage) -> list[Task]:
    """Checklist items of a human or assistant text, and a user's ``TODO:`` lines."""
    if not isinstance(message, HumanMessage | AIMessage):
        return []
    text = message_text(message)
    if "[" not in text and "TODO" not in text:
        return []
    source = message.id or ""
    found: list[Task] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced  # code blocks are never read for tasks
            continue
        if fenced:
            continue
        if box := _CHECKBOX.match(line):
            found.append(_task(box[2], _STATUS_OF_MARK[box[1]], source))
        elif isinstance(message, HumanMessage) and (todo := _TODO.match(line)):
            found.append(_task(todo[1], "pending", source))
    return found


def _updates(tasks: list[Task], message: BaseMessage) -> list[Task]:
    for call in getattr(message, "tool_calls", None) or []:
        if call.get("name") in TASK_TOOL_NAMES:
            listed = _tool_tasks(call.get("args") or {}, message.id or "")
            if listed is not None:
                tasks = listed
    for update in _text_updates(message):
        tasks = _merge(tasks, update)
    return tasks


def refresh_tasks(
    current: object, raw: Sequence[BaseMessage], start: int = 0
) -> tuple[TaskList, bool]:
    """The task list after reading the messages of ``raw`` it has not read yet.

    Reading resumes at the stored cursor (or at ``start``, whichever is later, when the
    caller knows the messages before it were read already); an edited history (the
    message at the cursor changed) is read again from ``start``. Updates apply in order:
    a to-do tool call replaces the list, a checklist line adds a task or changes its
    status. Pure; O(messages read).

    Returns:
        ``(tasks, changed)``; ``changed`` is False when no task changed (the cursor
        moved or not), so the caller can skip writing state.
    """
    stored = coerce_tasks(current)
    at = stored.scanned_through
    valid = 0 < at <= len(raw) and raw[at - 1].id == stored.last_scanned_id
    begin = max(at, start) if valid else start
    tasks = list(stored.tasks)
    for message in raw[begin:]:
        tasks = _updates(tasks, message)
    changed = tuple(tasks) != stored.tasks
    end = len(raw)
    refreshed = TaskList(
        tasks=tuple(tasks),
        scanned_through=end,
        last_scanned_id=raw[end - 1].id if end else None,
    )
    return refreshed, changed


def render_tasks(tasks: TaskList | None, *, tool_name: str = "update_tasks") -> str | None:
    """The list as the text of the task block: open tasks, then the latest done ones."""
    if tasks is None or not tasks.tasks:
        return None
    shown = tasks.open()
    done = [t for t in tasks.tasks if not t.is_open]
    lines = [
        f"[Task list: {len(shown)} open of {len(tasks.tasks)}. "
        f"Keep it current with the {tool_name} tool.]"
    ]
    lines += [f"- [{_MARKS[t.status]}] {t.content}" for t in shown]
    if len(done) > DONE_SHOWN:
        lines.append(f"- ({len(done) - DONE_SHOWN} earlier task(s) finished)")
    lines += [f"- [{_MARKS[t.status]}] {t.content}" for t in done[-DONE_SHOWN:]]
    return "\n".join(lines)


def task_block(tasks: object, *, tool_name: str = "update_tasks") -> list[BaseMessage]:
    """The task block for ``assemble``'s ``blocks``: one message, or none for no tasks."""
    text = render_tasks(coerce_tasks(tasks), tool_name=tool_name)
    if text is None:
        return []
    kwargs = {"langgraph_compact_note": TASK_NOTE}
    return [HumanMessage(text, id=TASK_BLOCK_ID, additional_kwargs=kwargs)]


class _TaskInput(BaseModel):
    content: str = Field(description="What to do, in one line.")
    status: TaskStatus = Field(default="pending", description="Where the task stands.")


_TOOL_DESCRIPTION = (
    "Replace your task list. Pass every task you still track, each with content and a "
    "status: pending, in_progress, blocked, completed or cancelled. Call it when you plan "
    "work, start or finish a task, or get blocked; the list is shown to you after the "
    "conversation is summarized."
)


def make_task_tool(*, state_key: str = "tasks", name: str = "update_tasks") -> BaseTool:
    """The tool the model keeps its task list with (a ``Command`` updating ``state_key``).

    The call replaces the list (like LangChain's ``write_todos``) and keeps the read
    cursor of the stored ``TaskList``, so the node does not read the call twice.

    Args:
        state_key: the state key of the ``TaskList``.
        name: the tool name the model sees.
    """

    def update_tasks(
        tasks: list[_TaskInput],
        state: Annotated[Any, InjectedState],
        tool_call_id: Annotated[str, InjectedToolCallId],
    ) -> Command[Any]:
        values = state if isinstance(state, dict) else {}
        current = coerce_tasks(values.get(state_key))
        # The source is the AI message that made the call, as when the node reads it.
        calls = [m for m in values.get("messages") or [] if isinstance(m, AIMessage)]
        source = (
            next(
                (
                    m.id
                    for m in reversed(calls)
                    if any(c["id"] == tool_call_id for c in m.tool_calls)
                ),
                None,
            )
            or tool_call_id
        )
        listed: list[Task] = []
        for item in tasks:
            data = item.model_dump() if isinstance(item, BaseModel) else dict(item)
            listed = _merge(listed, _task(data.get("content"), data.get("status"), source))
        updated = current.model_copy(update={"tasks": tuple(listed)})
        opened = len(updated.open())
        reply = f"Task list updated: {opened} open, {len(listed) - opened} closed."
        message = ToolMessage(reply, tool_call_id=tool_call_id, name=name)
        return Command(update={state_key: updated, "messages": [message]})

    return StructuredTool.from_function(func=update_tasks, name=name, description=_TOOL_DESCRIPTION)
