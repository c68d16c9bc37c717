"""``CompactionMiddleware``: compaction as middleware for ``langchain.agents.create_agent``.

Unlike LangChain's ``SummarizationMiddleware``, it never removes messages from the
thread: ``wrap_model_call`` swaps the request's messages for the projection, and the
``RunningSummary`` is saved as private agent state through the response's ``Command``.
Requires the ``langchain`` package (``pip install langchain``).

Example::

    from langchain.agents import create_agent
    budget = Budget(context_window=128_000)
    agent = create_agent(model, tools, middleware=[CompactionMiddleware(budget)])
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from contextlib import suppress
from dataclasses import replace
from typing import Annotated, Any, NotRequired, cast

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
)
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage
from langgraph.config import get_config
from langgraph.types import Command

from langgraph_compact.compaction.assemble import CompactionResult
from langgraph_compact.compaction.background import BackgroundCompactor
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.tasks import task_block
from langgraph_compact.tokens import Budget

__all__ = ["CompactionMiddleware", "CompactionMiddlewareState"]


class CompactionMiddlewareState(AgentState[Any]):
    """Agent state plus the summary, kept out of the agent's input and output schemas."""

    running_summary: NotRequired[Annotated[RunningSummary | None, PrivateStateAttr]]


Handler = Callable[[ModelRequest[Any]], ModelResponse[Any] | AIMessage]
AsyncHandler = Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any] | AIMessage]]


class CompactionMiddleware(AgentMiddleware[CompactionMiddlewareState, Any, Any]):
    """Non-destructive compaction for ``create_agent``: the model sees the projection.

    Args:
        budget: the token budget, or full ``CompactionSettings``.
        tasks_key: state key of a to-do list (``todos``: the list LangChain's
            ``TodoListMiddleware`` and deepagents keep with ``write_todos``; a ``TaskList``
            works too), shown after the summary once there is one. None: not shown.
        **settings: any other ``CompactionSettings`` field; ``background`` prepares the
            next summary off the critical path (``compaction.background``), one candidate
            per thread; ``close()`` stops its worker threads.
    """

    state_schema = CompactionMiddlewareState

    def __init__(
        self,
        budget: Budget | CompactionSettings,
        *,
        tasks_key: str | None = "todos",
        **settings: Any,
    ) -> None:
        super().__init__()
        base = budget if isinstance(budget, CompactionSettings) else CompactionSettings(budget)
        self.settings = replace(base, **settings) if settings else base
        self.tasks_key = tasks_key
        self.background = BackgroundCompactor()

    def close(self) -> None:
        """Stop background compaction: cancel queued candidates, wait for running ones.

        Optional at exit: the workers are daemon threads, so a process ends without
        waiting for a candidate nobody will commit."""
        self.background.close()

    @staticmethod
    def _key() -> Hashable:
        """The thread the call belongs to (one background candidate per thread; without a
        thread id the compactor tells conversations apart by their head)."""
        with suppress(RuntimeError):  # outside a graph run there is no config
            return (get_config().get("configurable") or {}).get("thread_id")
        return None

    def _blocks(self, request: ModelRequest[Any]) -> list[BaseMessage]:
        if self.tasks_key is None:
            return []
        return task_block(request.state.get(self.tasks_key), tool_name="write_todos")

    @staticmethod
    def _inputs(request: ModelRequest[Any]) -> tuple[list[BaseMessage], Any]:
        system = request.system_message
        if system is not None and not system.id:  # create_agent builds it without an id
            system = system.model_copy(update={"id": "system-prompt"})
        summary = request.state.get("running_summary")
        return [*([system] if system else []), *request.messages], summary

    @staticmethod
    def _request(request: ModelRequest[Any], result: CompactionResult) -> ModelRequest[Any]:
        skip = 1 if request.system_message else 0  # the system prompt is never shortened
        return request.override(messages=cast(list[AnyMessage], result.messages[skip:]))

    @staticmethod
    def _response(
        result: CompactionResult, response: ModelResponse[Any] | AIMessage
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        if not result.summary_changed:
            return response
        if isinstance(response, AIMessage):
            response = ModelResponse(result=[response])
        update = {"running_summary": result.summary}
        return ExtendedModelResponse(model_response=response, command=Command(update=update))

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Handler
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Compact, call the model with the projection, and save a changed summary."""
        raw, summary = self._inputs(request)
        result = self.background.compact(
            raw, summary, self.settings, key=self._key(), blocks=self._blocks(request)
        )
        return self._response(result, handler(self._request(request, result)))

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: AsyncHandler
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Async twin of ``wrap_model_call``."""
        raw, summary = self._inputs(request)
        blocks, key = self._blocks(request), self._key()
        result = await self.background.acompact(raw, summary, self.settings, key=key, blocks=blocks)
        return self._response(result, await handler(self._request(request, result)))
