"""Stage 4, loop signal: flag the "doom loop" of identical consecutive tool calls.

An agent that repeats the exact same call three or more times in a row is almost always
stuck (same failing command, same read). The fold does not change messages for this; it
reports a :class:`LoopSignal` that the node records in state and can show the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from langgraph_compact.messages import canonical_json

__all__ = ["LOOP_THRESHOLD", "LoopSignal", "detect_loops", "find_loops"]

LOOP_THRESHOLD = 3


@dataclass(frozen=True)
class LoopSignal:
    """A run of identical consecutive tool calls."""

    name: str
    args_json: str
    """Canonical JSON of the repeated arguments (the call signature with ``name``)."""
    count: int
    call_ids: tuple[str, ...]
    message_ids: tuple[str, ...]
    """Ids of the AI messages that made the calls, in order (duplicates removed)."""

    @property
    def signature(self) -> str:
        """``name(args)``, e.g. ``bash({"command":"pytest"})``."""
        return f"{self.name}({self.args_json})"

    @property
    def note(self) -> str:
        """A short notice for the projection that tells the model it is looping."""
        return (
            f"[loop detected: {self.signature} was called {self.count} times in a row with "
            "identical arguments. Repeating it will give the same result; change approach.]"
        )


def find_loops(
    messages: Sequence[BaseMessage], threshold: int = LOOP_THRESHOLD
) -> list[LoopSignal]:
    """Every run of ``threshold`` or more identical consecutive tool calls, in order.

    Algorithm:
        Flatten the tool calls of all AI messages in order (parallel calls included);
        a human message breaks a run (the user intervened), tool results do not. Runs
        of equal ``(name, canonical args)`` of length >= ``threshold`` are reported.

    >>> from langchain_core.messages import AIMessage
    >>> msgs = [AIMessage("", id=f"a{i}", tool_calls=[
    ...     {"name": "bash", "args": {"command": "pytest"}, "id": f"c{i}"}]) for i in range(3)]
    >>> [s.signature for s in find_loops(msgs)]
    ['bash({"command":"pytest"})']
    """
    runs: list[LoopSignal] = []
    key: tuple[str, str] | None = None
    call_ids: list[str] = []
    message_ids: list[str] = []

    def close() -> None:
        if key is not None and len(call_ids) >= threshold:
            runs.append(
                LoopSignal(
                    key[0],
                    key[1],
                    len(call_ids),
                    tuple(call_ids),
                    tuple(dict.fromkeys(message_ids)),
                )
            )

    for m in messages:
        if isinstance(m, HumanMessage):
            close()
            key, call_ids, message_ids = None, [], []
        elif isinstance(m, AIMessage):
            for call in m.tool_calls:
                this = (call["name"], canonical_json(call["args"]))
                if this != key:
                    close()
                    key, call_ids, message_ids = this, [], []
                call_ids.append(call.get("id") or "")
                message_ids.append(m.id or "")
    close()
    return runs


def detect_loops(
    messages: Sequence[BaseMessage], threshold: int = LOOP_THRESHOLD
) -> LoopSignal | None:
    """The loop the agent is in now: a run that includes the latest tool call, if any.

    A run that the agent already broke out of is history, not a signal; use
    :func:`find_loops` for those.

    Algorithm:
        Walk back from the end over the tool calls (a human message stops the walk)
        while they equal the latest call. The cost is the length of the current run,
        not of the history, so the node can ask on every call.

    >>> from langchain_core.messages import AIMessage
    >>> msgs = [AIMessage("", id=f"a{i}", tool_calls=[
    ...     {"name": "bash", "args": {"command": "pytest"}, "id": f"c{i}"}]) for i in range(3)]
    >>> detect_loops(msgs).call_ids
    ('c0', 'c1', 'c2')
    """
    key: tuple[str, str] | None = None
    call_ids: list[str] = []
    message_ids: list[str] = []
    for m in reversed(messages):
        if isinstance(m, HumanMessage):
            break
        if not isinstance(m, AIMessage):
            continue
        for call in reversed(m.tool_calls):
            this = (call["name"], canonical_json(call["args"]))
            if key is not None and this != key:
                return _signal(key, call_ids, message_ids, threshold)
            key = this
            call_ids.append(call.get("id") or "")
            message_ids.append(m.id or "")
    return _signal(key, call_ids, message_ids, threshold)


def _signal(
    key: tuple[str, str] | None, call_ids: list[str], message_ids: list[str], threshold: int
) -> LoopSignal | None:
    if key is None or len(call_ids) < threshold:
        return None
    return LoopSignal(
        key[0],
        key[1],
        len(call_ids),
        tuple(reversed(call_ids)),
        tuple(dict.fromkeys(reversed(message_ids))),
    )
