"""Middleware as a replay step, and the ``ours-agent`` strategy: ``CompactionMiddleware``
as ``create_agent`` runs it.

The middleware's ``wrap_model_call`` is the pre-model step, as for deepagents'
(``replay.deep``): the request it hands on is what the model would have been sent, and
the state its response's ``Command`` carries (summary, fold anchor, usage ledger) is
applied. Side by side with ``ours`` it measures what taking the ``create_agent`` door
costs against the node.
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, SystemMessage
from langgraph.channels.untracked_value import UntrackedValue

from langgraph_compact.compaction.settings import CompactionSettings
from langgraph_compact.compaction.summarize import Summarizer
from langgraph_compact.tokens import Budget, TokenCounter

__all__ = ["middleware_step", "model_call_step"]


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
