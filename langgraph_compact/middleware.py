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

from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from typing import Annotated, Any, NotRequired, cast

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
)
from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config
from langgraph.types import Command

from langgraph_compact.calibrate import tool_tokens
from langgraph_compact.compaction.anchor import FoldAnchor
from langgraph_compact.compaction.background import BackgroundCompactor
from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summary import RunningSummary
from langgraph_compact.memory import MemoryFlush
from langgraph_compact.node import CompactionNode, Door
from langgraph_compact.tasks import task_block
from langgraph_compact.tokens import Budget
from langgraph_compact.usage import ModelPrice, UsageLedger, add_usage

__all__ = ["CompactionMiddleware", "CompactionMiddlewareState"]


class CompactionMiddlewareState(AgentState[Any]):
    """Agent state plus what compaction keeps, out of the agent's input and output schemas:
    the summary, the fold anchor (the projection stays append-only between events) and
    the usage ledger (the agent's and the summarizer's calls)."""

    running_summary: NotRequired[Annotated[RunningSummary | None, PrivateStateAttr]]
    fold_anchor: NotRequired[Annotated[FoldAnchor | None, PrivateStateAttr]]
    usage: NotRequired[Annotated[UsageLedger, PrivateStateAttr, add_usage]]


Handler = Callable[[ModelRequest[Any]], ModelResponse[Any] | AIMessage]
AsyncHandler = Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any] | AIMessage]]

_KEPT = ("running_summary", "fold_anchor", "usage")
"""The node's state updates the middleware saves (the projection goes to the model)."""


class CompactionMiddleware(AgentMiddleware[CompactionMiddlewareState, Any, Any]):
    """Non-destructive compaction for ``create_agent``: the model sees the projection.

    The same compaction as ``CompactionNode``, run by one inside: the fold anchor, the
    request's tool schemas counted in the budget, calibration from the replies'
    ``usage_metadata``, the usage ledger, background compaction with its stand-in, the
    memory flush. The node's own task list (``TaskList``) is not read here: the
    ``todos`` the agent keeps with ``write_todos`` are shown after the summary instead.

    Args:
        budget: the token budget, or full ``CompactionSettings``.
        tasks_key: state key of a to-do list (``todos``: the list LangChain's
            ``TodoListMiddleware`` and deepagents keep with ``write_todos``; a ``TaskList``
            works too), shown after the summary once there is one. None: not shown.
        prices: per-model prices for the ledger's ``cost`` (``ModelPrice``).
        calibrate: budget by the provider's count (``langgraph_compact.calibrate``).
        memory: flush stable items of each committed summary to a ``BaseStore``.
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
        prices: Mapping[str, ModelPrice] | None = None,
        calibrate: bool = True,
        memory: MemoryFlush | None = None,
        **settings: Any,
    ) -> None:
        super().__init__()
        self.node = CompactionNode(
            budget,
            tasks_key=None,
            prices=prices,
            calibrate=calibrate,
            memory=memory,
            name="compaction-middleware",
            **settings,
        )
        self.settings = self.node.settings
        self.tasks_key = tasks_key
        self._schemas: tuple[tuple[int, ...], list[Any], int] = ((), [], 0)
        """The last request's tools (ids, the tools kept alive, their schema tokens)."""

    @property
    def background(self) -> BackgroundCompactor:
        """The node's background compactor (``counts`` says what candidates came to)."""
        return self.node.background

    def close(self) -> None:
        """Stop background compaction: cancel queued candidates, wait for running ones.

        Optional at exit: the workers are daemon threads, so a process ends without
        waiting for a candidate nobody will commit."""
        self.node.close()

    def _door(self, request: ModelRequest[Any]) -> Door:
        blocks = (
            task_block(request.state.get(self.tasks_key), tool_name="write_todos")
            if self.tasks_key is not None
            else []
        )
        return Door(blocks, self._schema_tokens(request.tools))

    def _schema_tokens(self, tools: list[Any]) -> int:
        """Tokens of the tools' schemas, converted once for the same tools: an agent
        sends the same list on every call."""
        key = tuple(map(id, tools))
        if key != self._schemas[0]:  # one tuple swapped at once: safe across threads
            self._schemas = (key, list(tools), tool_tokens(tools, self.settings.counter))
        return self._schemas[2]

    @staticmethod
    def _state(request: ModelRequest[Any]) -> dict[str, Any]:
        """The node's view: the system prompt (with an id) before the request's messages."""
        system = request.system_message
        if system is not None and not system.id:  # create_agent builds it without an id
            system = system.model_copy(update={"id": "system-prompt"})
        state = {k: request.state.get(k) for k in _KEPT if request.state.get(k) is not None}
        return {**state, "messages": [*([system] if system else []), *request.messages]}

    @staticmethod
    def _request(request: ModelRequest[Any], update: dict[str, Any]) -> ModelRequest[Any]:
        skip = 1 if request.system_message else 0  # the system prompt is never shortened
        messages = update["llm_input_messages"][skip:]
        return request.override(messages=cast(list[AnyMessage], messages))

    @staticmethod
    def _response(
        update: dict[str, Any], response: ModelResponse[Any] | AIMessage
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        kept = {k: update[k] for k in _KEPT if k in update}
        if not kept:
            return response
        if isinstance(response, AIMessage):
            response = ModelResponse(result=[response])
        return ExtendedModelResponse(model_response=response, command=Command(update=kept))

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Handler
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Compact, call the model with the projection, and save what changed."""
        update = self.node._run(self._state(request), _config(), door=self._door(request))
        return self._response(update, handler(self._request(request, update)))

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: AsyncHandler
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Async twin of ``wrap_model_call``."""
        door = self._door(request)
        update = await self.node._arun(self._state(request), _config(), door=door)
        return self._response(update, await handler(self._request(request, update)))


def _config() -> RunnableConfig:
    """The run's config (its thread id keys the background candidate and calibration);
    empty outside a graph run."""
    with suppress(RuntimeError):
        return get_config()
    return {}
