"""Doors into a replay: middleware as a replay step, and whole prebuilt agents.

``ours-agent`` is ``CompactionMiddleware`` as ``create_agent`` runs it: the middleware's
``wrap_model_call`` is the pre-model step, as for deepagents' (``replay.deep``); the
request it hands on is what the model would have been sent, and the state its response's
``Command`` carries (summary, fold anchor, usage ledger) is applied. Side by side with
``ours`` it measures what taking the ``create_agent`` door costs against the node.

A strategy with a ``build`` is a whole prebuilt agent instead (``ours-deep``: a real
``create_deep_agent`` graph): its model is a ``RecordedTurnsModel`` that measures every
input it is sent and answers with the recorded turns, its tools answer with the recorded
results (``recorded_tools``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.channels.untracked_value import UntrackedValue
from langgraph.prebuilt import ToolRuntime
from pydantic import ConfigDict, Field

from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summarize import Summarizer
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = [
    "RecordedTurnsModel",
    "agent_gap",
    "middleware_step",
    "model_call_step",
    "recorded_tools",
]


def middleware_step(
    budget: Budget, counter: TokenCounter, summarizer: Summarizer
) -> tuple[Any, Any, Any]:
    """``(state schema, step, middleware)`` for a replay of ``CompactionMiddleware``."""
    from langgraph_compact.middleware import CompactionMiddleware, CompactionMiddlewareState

    class MiddlewareReplayState(CompactionMiddlewareState):
        llm_input_messages: Annotated[list[AnyMessage], UntrackedValue]

    settings = CompactionSettings(budget, counter=counter, summarizer=summarizer)
    middleware = CompactionMiddleware(settings)
    return MiddlewareReplayState, model_call_step(middleware, None), middleware


def model_call_step(middleware: Any, model: Any) -> Any:
    """A replay step that runs ``middleware.wrap_model_call`` on the state: the request it
    hands on is written as ``llm_input_messages`` (what the model would have been sent),
    and the state its response's ``Command`` carries is applied, but ``messages`` (the
    replay's agent node writes the reply)."""
    from langchain.agents.middleware.types import ExtendedModelResponse, ModelRequest, ModelResponse

    def step(state: dict[str, Any]) -> dict[str, Any]:
        messages = list(state["messages"])
        system = messages[0] if messages and isinstance(messages[0], SystemMessage) else None
        sent: list[Any] = []

        def handler(request: Any) -> Any:
            sent[:] = [
                *([request.system_message] if request.system_message else []),
                *request.messages,
            ]
            return ModelResponse(result=[AIMessage("")])

        request = ModelRequest(
            model=model,
            messages=messages[1:] if system else messages,
            system_message=system,
            state=state,  # type: ignore[arg-type]
        )
        response = middleware.wrap_model_call(request, handler)
        update: dict[str, Any] = {"llm_input_messages": sent}
        if isinstance(response, ExtendedModelResponse) and response.command is not None:
            extra = dict(response.command.update or {})
            extra.pop("messages", None)
            update.update(extra)
        return update

    return step


class RecordedTurnsModel(BaseChatModel):
    """The model of a prebuilt agent in a replay: the recorded assistant turns in order.

    Every input it is sent is kept (``seen``) and handed to ``on_call``; ``bind_tools`` is
    a no-op (the turns already hold their tool calls). Past the last turn it answers
    "Done." without recording, so an agent whose recording ends on a tool result stops.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    turns: list[AIMessage]
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    on_call: Callable[[list[BaseMessage]], None] | None = None

    @property
    def _llm_type(self) -> str:
        return "recorded-turns"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        if len(self.seen) >= len(self.turns):
            return ChatResult(generations=[ChatGeneration(message=AIMessage("Done."))])
        self.seen.append(list(messages))
        if self.on_call is not None:
            self.on_call(list(messages))
        turn = self.turns[len(self.seen) - 1]
        return ChatResult(generations=[ChatGeneration(message=turn)])


def recorded_tools(trajectory: Sequence[BaseMessage]) -> list[Any]:
    """One tool per name the recording calls, answering with the recorded results."""
    from langchain_core.tools import StructuredTool

    results = {m.tool_call_id: m for m in trajectory if isinstance(m, ToolMessage)}
    names = sorted({c["name"] for m in trajectory for c in getattr(m, "tool_calls", None) or []})

    def tool(name: str) -> Any:
        def answer(runtime: ToolRuntime, **kwargs: Any) -> ToolMessage:
            return results[str(runtime.tool_call_id)]

        return StructuredTool.from_function(
            answer, name=name, description=f"recorded {name}", infer_schema=False
        )

    return [tool(n) for n in names]


def agent_gap(feed: Sequence[BaseMessage]) -> str | None:
    """Why a prebuilt agent loop cannot replay ``feed`` in its recorded order, or None.

    The loop calls the model after every tool result and stops at a reply without tool
    calls, so a tool result must be followed by the agent's turn (or end the recording),
    and a reply without tool calls by a user turn (or the end).
    """
    for i, (message, nxt) in enumerate(zip(feed, [*feed[1:], None], strict=True)):
        agent_next = isinstance(nxt, (AIMessage, ToolMessage))
        if isinstance(message, ToolMessage) and nxt is not None and not agent_next:
            return f"message {i} is a tool result followed by a {nxt.type} message"
        if (
            isinstance(message, AIMessage)
            and not message.tool_calls
            and nxt is not None
            and agent_next
        ):
            return f"message {i} is a reply without tool calls followed by a {nxt.type} message"
    return None
